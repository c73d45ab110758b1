// Headless Chromium for the page checks (Debian's /usr/bin/chromium through playwright-core): one
// way to launch it offline, and axe-core's verdict on a page with its horizontal scroll at a
// phone's width. Used by test/browser/*.browser.ts and the web card's screenshot test.
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

/** Chromium headless, with nothing reaching the network on its own. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import("playwright-core");
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

let axe: string | null = null;

/**
 * axe-core's violations on `page` as it is now (the page needs JavaScript on, and its context
 * `bypassCSP` for the injected script), and its width: `ok` when no violation is serious or
 * critical and nothing scrolls sideways beyond `width`.
 */
export async function axeCheck(page: Page, width = 390): Promise<{ ok: boolean; line: string }> {
  axe ??= readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
  await page.addScriptTag({ content: axe });
  const result = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as {
    violations: { id: string; impact: string; nodes: unknown[] }[];
  };
  const serious = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const scrollWidth = Number(await page.evaluate("document.documentElement.scrollWidth"));
  const found = result.violations.map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`).join(", ") || "none";
  return { ok: !serious.length && scrollWidth <= width, line: `violations: ${found} | scrollWidth ${scrollWidth}` };
}
