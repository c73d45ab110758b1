// The dashboard end to end in Chromium (test/dashboard/browser-harness.ts): elements found by
// role and label, every page checked by axe-core (no serious or critical violation) at 1280 px
// and at 390x844 without horizontal scroll. A page added to the dashboard adds its path to PAGES.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Page } from "playwright-core";
import { setup } from "../helpers";
import { DESKTOP, HAS_BROWSER, launch, overflowX, PHONE, seriousViolations, signedIn, signInOn } from "./browser-harness";

type Env = Awaited<ReturnType<typeof setup>>;
let env: Env;
let run: Awaited<ReturnType<typeof launch>>;

/** Every page of the dashboard a signed-in owner can open, with its heading. */
const PAGES: { path: string; heading: RegExp }[] = [{ path: "/admin", heading: /vue d'ensemble/i }];

describe.skipIf(!HAS_BROWSER)("dashboard in Chromium", () => {
  beforeAll(async () => {
    env = await setup();
    run = await launch(env);
  });
  afterAll(async () => {
    await run?.close();
    await env?.close();
  });

  it("refuses a wrong password, then signs in and out with the form", async () => {
    const page = await run.browser.newPage({ viewport: DESKTOP });
    await page.goto(`${run.base}/admin`);
    await signInOn(page, { email: "owner@test.org", password: "not-the-password" });
    await expect(page.getByRole("alert").textContent()).resolves.toMatch(/.+/);
    await signInOn(page, { email: "owner@test.org", password: "owner-password" });
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toMatch(/vue d'ensemble/i);
    await page.getByRole("button", { name: /se déconnecter/i }).click();
    await page.waitForLoadState("load");
    expect(page.url()).toEndWith("/admin/login");
    await page.close();
  });

  for (const viewport of [DESKTOP, PHONE]) {
    it(`renders every page without a serious accessibility violation at ${viewport.width} px`, async () => {
      const page: Page = await signedIn(run.browser, run.base, viewport);
      for (const { path, heading } of PAGES) {
        await page.goto(`${run.base}${path}`);
        expect(await page.getByRole("heading", { level: 1 }).textContent()).toMatch(heading);
        expect({ path, violations: await seriousViolations(page) }).toEqual({ path, violations: [] });
        expect({ path, overflow: await overflowX(page) }).toEqual({ path, overflow: 0 });
      }
      await page.close();
    });
  }
});
