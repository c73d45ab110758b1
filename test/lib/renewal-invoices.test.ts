// Renewal invoices (issue 27, DESIGN.md section 20): with `renewal_invoices`, the first renewal
// reminder makes the member's membership invoice for the coming period (once, as the dues run
// makes it) and the mail, received by a real SMTP server, carries its PDF; a later reminder
// carries the same invoice; the dues run then finds the period invoiced. Without the setting,
// or with nothing to pay, the reminder goes as before.
import { beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { clubs, invoices, tiers } from "../../db/schema";
import { runReminders } from "../../lib/reminders";
import { insertTier } from "../events-fixtures";
import type { TestEnv } from "../helpers";
import { addDays, seedMember } from "../members-fixtures";
import { mailedEnv, textOf } from "../smtp";

const END = "2031-03-15";
const box = mailedEnv();
let env: TestEnv;
beforeAll(() => {
  env = box.env;
});

const remind = (today: string, clubId: string) => runReminders(env.db, { baseUrl: "http://localhost", today, clubId });
const deliver = () => box.deliver();
const invoicesOf = (clubId: string) => env.db.read.select().from(invoices).where(eq(invoices.club_id, clubId));
const pdfName = (raw: string) => raw.match(/Content-Type: application\/pdf; name=(\S+)/)?.[1] ?? null;

async function freshClub(settings: Record<string, unknown>) {
  const club = await env.otherClub();
  await env.db.tx((t) =>
    t
      .update(clubs)
      .set({ membership_fee_cents: 6000, ...settings })
      .where(eq(clubs.id, club.club_id)),
  );
  return { clubId: club.club_id, key: club.api_key };
}

describe("renewal_invoices", () => {
  it("the first renewal reminder makes the period's invoice and carries its PDF; the next carries the same; the dues run finds it made", async () => {
    const c = await freshClub({ renewal_invoices: true });
    const m = await seedMember(env, { first_name: "Noé", membership_end: END }, c.clubId);
    expect((await remind(addDays(END, -30), c.clubId)).by_kind.renewal).toBe(1);
    const [invoice] = await invoicesOf(c.clubId);
    expect(invoice).toMatchObject({
      member_id: m.id,
      kind: "membership",
      status: "open",
      amount_cents: 6000,
      period_start: addDays(END, 1),
      issued_on: addDays(END, -30),
    });
    const [mail] = await deliver();
    expect(mail.to).toEqual([m.email]);
    expect(pdfName(mail.raw)).toBe(`facture-${invoice.number}.pdf`);
    expect(textOf(mail.raw)).toContain(`Notre facture ${invoice.number} de 60,00`);
    // The same day again: nothing; a week before the end: the same invoice again, no new one.
    expect((await remind(addDays(END, -30), c.clubId)).sent).toBe(0);
    expect((await remind(addDays(END, -7), c.clubId)).by_kind.renewal).toBe(1);
    expect(await invoicesOf(c.clubId)).toHaveLength(1);
    expect(pdfName((await deliver())[0].raw)).toBe(`facture-${invoice.number}.pdf`);
    const run = await env.call("POST", `/api/clubs/${c.clubId}/invoices/run`, { key: c.key, body: { until: addDays(END, 1) } });
    expect(run.body).toMatchObject({ created: 0, skipped: { already_invoiced: 1 } });
  });

  it("is off by default; a member with nothing to pay gets the reminder without an invoice", async () => {
    const off = await freshClub({});
    await seedMember(env, { membership_end: END }, off.clubId);
    expect((await remind(addDays(END, -7), off.clubId)).sent).toBe(1);
    expect(await invoicesOf(off.clubId)).toHaveLength(0);
    expect(pdfName((await deliver())[0].raw)).toBeNull();

    const on = await freshClub({ renewal_invoices: true });
    const free = await insertTier(env, { clubId: on.clubId, name: "Libre" });
    await env.db.tx((t) => t.update(tiers).set({ price_cents: 0 }).where(eq(tiers.id, free.id)));
    await seedMember(env, { membership_end: END, tier_id: free.id }, on.clubId);
    expect((await remind(addDays(END, -7), on.clubId)).sent).toBe(1);
    expect(await invoicesOf(on.clubId)).toHaveLength(0);
    const [mail] = await deliver();
    expect(pdfName(mail.raw)).toBeNull();
    expect(textOf(mail.raw)).not.toContain("facture");
  });
});
