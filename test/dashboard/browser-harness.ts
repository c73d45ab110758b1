// Driving the dashboard in Debian's Chromium through playwright-core, for the browser tests
// (*.test.ts*, run by `bun run test`): the app on a real port, a signed-in page, axe-core's check
// (no serious or critical violation) and the no-horizontal-scroll check at a phone's width.
// The browser is $CHROME, else /usr/bin/chromium; without one the browser tests are skipped,
// unless REQUIRE_BROWSER is set (.ci/run sets it, after installing Debian's chromium).
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Browser, type BrowserContextOptions, chromium, type Page } from "playwright-core";
import type { setup } from "../helpers";

export const CHROME = process.env.CHROME ?? "/usr/bin/chromium";
export const HAS_BROWSER = existsSync(CHROME);
if (!HAS_BROWSER && process.env.REQUIRE_BROWSER) throw new Error(`no browser at ${CHROME}: install Debian's chromium or set CHROME`);

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

type Env = Awaited<ReturnType<typeof setup>>;

/** A port free now, for a test whose BASE_URL must be the server's own address (see launch). */
export { freePort } from "../ports";

/** The app on a real port (any free one, or `port`: setup's BASE_URL then names it) and Chromium. */
/** Debian's Chromium, headless, quiet (no first-run, sync or update traffic). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROME,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/** A club logo as a person would upload it: a PNG drawn from a small SVG. */
export async function logoPng(width = 300, height = 100): Promise<Buffer> {
  const { default: sharp } = await import("sharp");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" rx="16" fill="#0F766E"/><circle cx="${height / 2}" cy="${height / 2}" r="${height * 0.32}" fill="#FBBF24"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export async function launch(env: Env, port = 0): Promise<{ browser: Browser; base: string; close(): Promise<void> }> {
  // Each page says which client it is (newPage): the sign-in's rate per address (10 a minute)
  // would otherwise count every test's sign-ins against one address.
  const server = Bun.serve({ port, hostname: "127.0.0.1", fetch: (req) => env.app.handle(req, req.headers.get("x-test-client") ?? "127.0.0.1") });
  const browser = await launchChromium();
  return {
    browser,
    base: `http://127.0.0.1:${server.port}`,
    async close() {
      await browser.close();
      server.stop(true);
    },
  };
}

let pages = 0;

/** A new page, as a client of its own address (options: e.g. `{ javaScriptEnabled: false }`). */
export async function newPage(browser: Browser, viewport = DESKTOP, options: BrowserContextOptions = {}): Promise<Page> {
  pages++;
  return browser.newPage({ viewport, ...options, extraHTTPHeaders: { "x-test-client": `10.8.${(pages >> 8) & 255}.${pages & 255}` } });
}

/** A new page at a phone's size whose waits fail within a test's time (rather than the test timing out, which closes the browser). */
export async function phonePage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const page = await newPage(browser, PHONE, options);
  page.setDefaultTimeout(10_000);
  return page;
}

/** A new page signed in through the sign-in form (found by its labels, as a person would). */
export async function signedIn(
  browser: Browser,
  base: string,
  viewport = DESKTOP,
  who = { email: "owner@test.org", password: "owner-password" },
): Promise<Page> {
  const page = await newPage(browser, viewport);
  await page.goto(`${base}/admin`);
  await signInOn(page, who);
  return page;
}

export async function signInOn(page: Page, who: { email: string; password: string }): Promise<void> {
  await page.getByLabel(/e-mail|email/i).fill(who.email);
  await page.getByLabel(/mot de passe|password|passwort/i).fill(who.password);
  await page.getByRole("button", { name: /se connecter|sign in|anmelden|accedi/i }).click();
  await page.waitForLoadState("load");
}

const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/** axe-core's violations of impact serious or critical on the page as it is now ("id (n)" each). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated as a function body: the CSP (script-src 'self') refuses an injected <script>.
  await page.evaluate(AXE);
  const result = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as {
    violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
  };
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

/** How far the page is wider than its viewport (0: no horizontal scroll). */
export async function overflowX(page: Page): Promise<number> {
  return Number(await page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth"));
}

const SHOTS = process.env.SHOTS_DIR;

/**
 * The page as it is now, as a test compares it: `{ name, violations: [], overflow: 0 }` when it has
 * no serious accessibility violation and no horizontal scroll. SHOTS_DIR=<dir> also saves
 * <dir>/<name>.png (to look at it).
 */
export async function pageCheck(page: Page, name: string): Promise<{ name: string; violations: string[]; overflow: number }> {
  if (SHOTS) {
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  }
  return { name, violations: await seriousViolations(page), overflow: await overflowX(page) };
}

/**
 * The text of the page's first notice (role=status), once there. Waits 15 s, not the suite's 30:
 * when it does not come, the error says which page is shown instead (an error page, a sign-in).
 */
export async function noticeText(page: Page): Promise<string> {
  try {
    return (await page.getByRole("status").first().textContent({ timeout: 15_000 })) ?? "";
  } catch (err) {
    const shown = await page
      .locator("body")
      .textContent({ timeout: 1_000 })
      .catch(() => "(no body)");
    throw new Error(`no notice on ${page.url()}: ${(shown ?? "").replace(/\s+/g, " ").slice(0, 400)}`, { cause: err });
  }
}
