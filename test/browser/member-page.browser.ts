// The member's page in headless Chromium at 390 px (a phone), in fr and en: screenshots to /tmp
// and axe-core's check (no serious or critical violation). Not part of `bun test` (it needs
// Debian's chromium): `bun test/browser/member-page.browser.ts`.
import { eq } from "drizzle-orm";
import { clubs } from "../../db/schema";
import { setup } from "../helpers";
import { seedMember } from "../members-fixtures";
import { axeCheck, launchChromium } from "./harness";

const env = await setup();
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req) => env.app.handle(req, "127.0.0.1") });
const base = `http://127.0.0.1:${server.port}`;
const browser = await launchChromium();
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
  const { ok, line } = await axeCheck(page);
  console.log(locale, line);
  if (!ok) failed = true;
  await page.close();
}
await browser.close();
server.stop(true);
await env.close();
process.exit(failed ? 1 : 0);
