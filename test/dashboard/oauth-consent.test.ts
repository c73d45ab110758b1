// The OAuth consent page in Chromium: reached signed out, the sign-in comes back to it; no
// serious axe-core violation at 1280 and 390 px; "allow" takes the browser to the client's
// loopback redirect URI with a code (the page's CSP lets its form lead there).
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { setup } from "../helpers";
import { challengeOf } from "../mcp/oauth-flow";
import { DESKTOP, HAS_BROWSER, launch, overflowX, PHONE, seriousViolations, signInOn } from "./browser-harness";

type Env = Awaited<ReturnType<typeof setup>>;
let env: Env;
let run: Awaited<ReturnType<typeof launch>>;
let callback: ReturnType<typeof Bun.serve>;
const seen: URL[] = [];

describe.skipIf(!HAS_BROWSER)("OAuth consent page in Chromium", () => {
  beforeAll(async () => {
    env = await setup();
    run = await launch(env);
    // The client's loopback redirect URI: a local assistant listening for its code.
    callback = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (req) => {
        seen.push(new URL(req.url));
        return new Response("<!doctype html><title>done</title><p>You can close this window.</p>", { headers: { "content-type": "text/html" } });
      },
    });
  });
  afterAll(async () => {
    callback?.stop(true);
    await run?.close();
    await env?.close();
  });

  async function authorizeUrl() {
    const redirect = `http://127.0.0.1:${callback.port}/callback`;
    const reg = await env.call("POST", "/oauth/register", { key: null, body: { client_name: "Assistant <b>test</b>", redirect_uris: [redirect] } });
    const url = new URL(`${run.base}/admin/oauth/authorize`);
    const params = {
      response_type: "code",
      client_id: (reg.body as { client_id: string }).client_id,
      redirect_uri: redirect,
      code_challenge: challengeOf("x".repeat(64)),
      code_challenge_method: "S256",
      resource: "http://localhost/mcp",
      scope: "members:view events:edit",
      state: "abc",
    };
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return url.toString();
  }

  for (const viewport of [DESKTOP, PHONE]) {
    it(`signs in, shows the client and the scopes without a serious violation at ${viewport.width} px, and allows`, async () => {
      const page = await run.browser.newPage({ viewport });
      await page.goto(await authorizeUrl());
      await signInOn(page, { email: "owner@test.org", password: "owner-password" });
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toMatch(/autoriser un assistant/i);
      // The client's name is text, never markup.
      expect(await page.getByText("Assistant <b>test</b>", { exact: false }).count()).toBeGreaterThan(0);
      expect(await page.getByLabel("Événements").inputValue()).toBe("edit");
      expect(await page.getByLabel("Membres").inputValue()).toBe("view");
      expect(await seriousViolations(page)).toEqual([]);
      expect(await overflowX(page)).toBe(0);
      await page.getByLabel("Finances").selectOption("view");
      await page.getByRole("button", { name: "Autoriser" }).click();
      await page.waitForURL(/\/callback\?/);
      // The browser may also ask the callback's host for /favicon.ico.
      const back = seen.filter((u) => u.pathname === "/callback").at(-1) as URL;
      expect(back.searchParams.get("state")).toBe("abc");
      expect(back.searchParams.get("code")).toMatch(/^[A-Za-z0-9]{43}$/);
      await page.close();
    });
  }
});
