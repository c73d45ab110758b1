// The dues run on the dashboard's invoices page through app.handle (issue 27, DESIGN.md section
// 20): the first submit is the dry run (count, totals, skipped by reason, the first invoices) and
// writes nothing; its button runs it for real with the same day and tiers and shows what it made;
// a second run makes none; a bad day or a tier not of the club is refused beside its field in the
// club's language; an admin who may not edit the finances sees neither the way nor the page.
import { describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { clubs, invoices, tiers } from "../../db/schema";
import { insertTier } from "../events-fixtures";
import { addDays, seedMember, todayUtc } from "../members-fixtures";
import { browser, withOwner } from "./helpers";

const t = withOwner({ RATE_LIMIT_PER_MINUTE: "100000000" });

const UNTIL = addDays(todayUtc(), 60);
const SOON = addDays(todayUtc(), 20);
const invoicesOfClub = () => t.env.db.read.select().from(invoices).where(eq(invoices.club_id, t.env.clubId));

/** The club's fee 80.00; a Gold member (100.00), a fee member, a free-tier member, one ending after the day. */
async function arrange() {
  await t.env.db.tx((q) => q.update(clubs).set({ membership_fee_cents: 8000 }).where(eq(clubs.id, t.env.clubId)));
  const gold = await insertTier(t.env, { name: "Gold" });
  const free = await insertTier(t.env, { name: "Libre" });
  await t.env.db.tx((q) => q.update(tiers).set({ price_cents: 0 }).where(eq(tiers.id, free.id)));
  const m = {
    gold: await seedMember(t.env, { first_name: "Gaëlle", last_name: "Or", membership_end: SOON, tier_id: gold.id }),
    fee: await seedMember(t.env, { first_name: "Fabien", last_name: "Cotisant", membership_end: addDays(todayUtc(), -5) }),
    free: await seedMember(t.env, { first_name: "Lina", last_name: "Libre", membership_end: SOON, tier_id: free.id }),
    later: await seedMember(t.env, { first_name: "Tardif", membership_end: addDays(UNTIL, 10) }),
  };
  return { gold, free, m };
}

describe("the dues run on the invoices page", () => {
  it("is offered on the list, and its form opens with the day and the club's tiers", async () => {
    const { gold } = await arrange();
    const list = await t.owner.request("GET", "/admin/invoices");
    expect(list.text).toContain('<a class="button secondary" href="/admin/invoices/run">Facturer les cotisations</a>');
    const page = await t.owner.request("GET", "/admin/invoices/run");
    expect(page.status).toBe(200);
    expect(page.text).toContain("<title>Facturer les cotisations");
    expect(page.text).toContain(`name="until" type="date" value="${addDays(todayUtc(), 30)}"`);
    expect(page.text).toContain(`name="tier_ids" value="${gold.id}"`);
    expect(page.text).toContain("Voir ce qui serait créé");
  });

  it("dry run first: what it would make, and nothing written; then the run makes them, once", async () => {
    const before = await invoicesOfClub();
    const dry = await t.owner.post("/admin/invoices/run", { until: UNTIL }, "/admin/invoices/run");
    expect(dry.status).toBe(200);
    expect(dry.text).toContain("2 factures seraient créées");
    expect(dry.text).toMatch(/<dd class="nowrap">180,00\s?CHF<\/dd>/);
    expect(dry.text).toContain("1 membre n&#x27;a rien à payer");
    expect(dry.text).toContain("Gaëlle Or");
    expect(dry.text).toContain("Fabien Cotisant");
    expect(dry.text).not.toContain("Lina Libre");
    expect(dry.text).not.toContain("Tardif");
    // The button carries the same day to the real run.
    expect(dry.text).toContain(`<input type="hidden" name="until" value="${UNTIL}">`);
    expect(dry.text).toContain('<button type="submit" name="go" value="run">Créer 2 factures</button>');
    expect(await invoicesOfClub()).toEqual(before);

    const made = await t.owner.post("/admin/invoices/run", { until: UNTIL, go: "run" }, "/admin/invoices/run");
    expect(made.status).toBe(200);
    expect(made.text).toContain('<h2 id="made">2 factures créées</h2>');
    const rows = (await invoicesOfClub()).filter((i) => !before.some((b) => b.id === i.id));
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.amount_cents).sort((a, b) => a - b)).toEqual([8000, 10000]);
    for (const row of rows) {
      expect(row).toMatchObject({ kind: "membership", status: "open" });
      expect(made.text).toContain(`href="/admin/invoices/${row.id}/pdf"`);
      expect(made.text).toContain(row.number);
    }
    expect(made.text).toContain('href="/admin/invoices?show=open"');
    // The new invoices are in the open tab.
    const open = await t.owner.request("GET", "/admin/invoices?show=open");
    for (const row of rows) expect(open.text).toContain(row.number);

    // A second run makes none: its dry run says so and offers no button; the run itself neither.
    const again = await t.owner.post("/admin/invoices/run", { until: UNTIL }, "/admin/invoices/run");
    expect(again.text).toContain("Aucun membre à facturer avant cette date.");
    expect(again.text).toContain("2 membres ont déjà une facture pour cette période");
    expect(again.text).not.toContain('name="go"');
    const twice = await t.owner.post("/admin/invoices/run", { until: UNTIL, go: "run" }, "/admin/invoices/run");
    expect(twice.status).toBe(200);
    expect(twice.text).toContain('<h2 id="made">Aucun membre à facturer avant cette date.</h2>');
    expect(await invoicesOfClub()).toHaveLength(before.length + 2);
  });

  it("runs for the ticked tiers only, and carries them to the run", async () => {
    const { gold, m } = await arrange();
    const dry = await t.owner.post("/admin/invoices/run", { until: UNTIL, tier_ids: [gold.id] }, "/admin/invoices/run");
    expect(dry.text).toContain("1 facture serait créée");
    expect(dry.text).toContain(`<input type="hidden" name="tier_ids" value="${gold.id}">`);
    expect(dry.text).toContain(`value="${gold.id}" checked`);
    const made = await t.owner.post("/admin/invoices/run", { until: UNTIL, tier_ids: [gold.id], go: "run" }, "/admin/invoices/run");
    expect(made.text).toContain("1 facture créée");
    const rows = await t.env.db.read.select().from(invoices).where(eq(invoices.member_id, m.gold.id));
    expect(rows).toHaveLength(1);
    expect(await t.env.db.read.select().from(invoices).where(eq(invoices.member_id, m.fee.id))).toHaveLength(0);
  });

  it("refuses a missing day or a tier not of the club beside its field, in the club's language, writing nothing", async () => {
    const before = await invoicesOfClub();
    const none = await t.owner.post("/admin/invoices/run", { until: "", go: "run" }, "/admin/invoices/run");
    expect(none.status).toBe(422);
    expect(none.text).toContain('id="f-until-error"');
    const bad = await t.owner.post("/admin/invoices/run", { until: "2026-02-30" }, "/admin/invoices/run");
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('id="f-until-error"');
    expect(bad.text).toContain('value="2026-02-30"');
    const stranger = await t.owner.post("/admin/invoices/run", { until: UNTIL, tier_ids: [crypto.randomUUID()], go: "run" }, "/admin/invoices/run");
    expect(stranger.status).toBe(422);
    expect(stranger.text).toMatch(/id="f-tier_ids-error" class="error-text">Formule introuvable\.</);
    const notUuid = await t.owner.post("/admin/invoices/run", { until: UNTIL, tier_ids: ["x"] }, "/admin/invoices/run");
    expect(notUuid.status).toBe(422);
    expect(notUuid.text).toContain('id="f-tier_ids-error"');
    expect(await invoicesOfClub()).toEqual(before);
  });

  it("is neither offered nor open to an admin who may not edit the finances (403)", async () => {
    const ro = await t.env.makeAdmin({ readOnly: true });
    const viewer = browser(t.env);
    await viewer.signIn(ro.email, "admin-password");
    const list = await viewer.request("GET", "/admin/invoices");
    expect(list.status).toBe(200);
    expect(list.text).not.toContain("/admin/invoices/run");
    expect((await viewer.request("GET", "/admin/invoices/run")).status).toBe(403);
    const before = await invoicesOfClub();
    const refused = await viewer.post("/admin/invoices/run", { until: UNTIL, go: "run" }, "/admin/invoices");
    expect(refused.status).toBe(403);
    expect(await invoicesOfClub()).toEqual(before);
  });
});
