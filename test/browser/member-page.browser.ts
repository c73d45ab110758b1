// The member's page in headless Chromium at 390 px (a phone), in fr and en: screenshots to /tmp
// and axe-core's check (no serious or critical violation). Not part of `bun test` (it needs
// Debian's chromium): `bun test/browser/member-page.browser.ts`.
import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { chromium } from "playwright-core";
import { clubs } from "../../db/schema";
import { setup } from "../helpers";
import { seedMember } from "../members-fixtures";

const env = await setup();
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req) => env.app.handle(req, "127.0.0.1") });
const base = `http://127.0.0.1:${server.port}`;
const axe = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
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
let failed = false;
for (const locale of ["fr", "en"] as const) {
  await env.db.tx((t) =>
    t
      .update(clubs)
      .set({
        locale,
        name: locale === "fr" ? "Club Alpin Lausanne" : "Alpine Club",
        primary_color: "#0B5394",
        secondary_color: "#F59E0B",
        payout_iban: "CH9300762011623852957",
        payout_beneficiary_name: "Club Alpin",
        membership_fee_cents: 6000,
      })
      .where(eq(clubs.id, env.clubId)),
  );
  const m = await seedMember(env, { first_name: "Léa", last_name: "Rochat", email: `lea-${locale}@test.org`, payment_mode: "subscription" });
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, bypassCSP: true });
  await page.goto(`${base}/m/${m.manage_token}?renew=bank_transfer`);
  await page.screenshot({ path: `/tmp/member-page-${locale}.png`, fullPage: true });
  await page.addScriptTag({ content: axe });
  const result = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as {
    violations: { id: string; impact: string; nodes: unknown[] }[];
  };
  const serious = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  console.log(locale, "violations:", result.violations.map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`).join(", ") || "none");
  const width = await page.evaluate("document.documentElement.scrollWidth");
  console.log(locale, "scrollWidth", width);
  if (serious.length || Number(width) > 390) failed = true;
  await page.close();
}
await browser.close();
server.stop(true);
await env.close();
process.exit(failed ? 1 : 0);
