// The dashboard in Chromium as a new user's first day found it: the browser's console stays clean
// (no /favicon.ico 404 on every page: the pages link their own icon), and the settings' IBAN field
// shows a whole Swiss IBAN at 1280 px.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { setup } from "../helpers";
import { DESKTOP, HAS_BROWSER, launch, PHONE, signedIn } from "./browser-harness";

type Env = Awaited<ReturnType<typeof setup>>;
let env: Env;
let run: Awaited<ReturnType<typeof launch>>;

describe.skipIf(!HAS_BROWSER)("the dashboard's console and fields in Chromium", () => {
  beforeAll(async () => {
    env = await setup();
    run = await launch(env);
  });
  afterAll(async () => {
    await run?.close();
    await env?.close();
  });

  for (const viewport of [DESKTOP, PHONE])
    it(`asks for no missing file and logs no error, its icon served, at ${viewport.width} px`, async () => {
      const page = await signedIn(run.browser, run.base, viewport);
      const failed: string[] = [];
      const errors: string[] = [];
      const icons: number[] = [];
      page.on("response", (r) => {
        if (r.status() >= 400) failed.push(`${r.status()} ${new URL(r.url()).pathname}`);
        if (new URL(r.url()).pathname === "/admin/assets/favicon.svg") icons.push(r.status());
      });
      page.on("console", (m) => {
        if (m.type() === "error") errors.push(m.text());
      });
      for (const path of ["/admin", "/admin/members", "/admin/finances", "/admin/settings"]) {
        await page.goto(`${run.base}${path}`);
        await page.waitForLoadState("networkidle");
      }
      expect(failed).toEqual([]);
      expect(errors).toEqual([]);
      expect(icons.length).toBeGreaterThan(0);
      expect(icons.every((s) => s === 200)).toBe(true);
      await page.close();
    });

  for (const viewport of [DESKTOP, PHONE])
    it(`shows a whole Swiss IBAN typed with its spaces in the settings' IBAN field at ${viewport.width} px`, async () => {
      const page = await signedIn(run.browser, run.base, viewport);
      await page.goto(`${run.base}/admin/settings`);
      const field = page.getByLabel("IBAN", { exact: false }).first();
      await field.fill("CH93 0076 2011 6238 5295 7");
      const box = (await page.evaluate(
        `(() => { const e = document.getElementById("f-payout_iban"); return { scroll: e.scrollWidth, client: e.clientWidth }; })()`,
      )) as { scroll: number; client: number };
      expect(box.scroll).toBeLessThanOrEqual(box.client);
      expect(await page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")).toBe(0);
      await page.close();
    });
});
