// The dues run, POST invoices/run (issue 27, DESIGN.md section 20): one membership invoice per
// paid member whose membership ends before `until`, at the tier's price (else the club's fee) less
// the referral credit; members with nothing to pay or invoiced already skipped and counted; a
// second run, or two at once (both engines), makes none twice; a dry run writes nothing. Its CLI
// twin and the MCP tool `run_invoices` (a dry run unless confirmed).
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { and, eq } from "drizzle-orm";
import { clubs, invoiceCounters, invoices, tiers } from "../../db/schema";
import { main } from "../../scripts/cli";
import { insertTier } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";
import { callTool, mcpClient } from "../mcp/client";
import { addDays, seedMember, todayUtc, withEndpoint } from "../members-fixtures";

let env: TestEnv;
beforeAll(async () => {
  env = await setup({ RATE_LIMIT_PER_MINUTE: "100000000" });
});
afterAll(() => env.close());

const UNTIL = addDays(todayUtc(), 60);
const SOON = addDays(todayUtc(), 20);
const YEAR = todayUtc().slice(0, 4);

/** A club of its own for one test: its id and owner's key, its fee 80.00. */
async function freshClub() {
  const club = await env.otherClub();
  await env.db.tx((t) => t.update(clubs).set({ membership_fee_cents: 8000 }).where(eq(clubs.id, club.club_id)));
  return { clubId: club.club_id, key: club.api_key };
}
const runOf = (c: { clubId: string; key: string }, body: unknown) => env.call("POST", `/api/clubs/${c.clubId}/invoices/run`, { body, key: c.key });
const invoicesOf = (clubId: string) => env.db.read.select().from(invoices).where(eq(invoices.club_id, clubId)).orderBy(invoices.number);

/** A club with a tier member, a fee member with a referral credit, a free-tier member, and members the run leaves alone. */
async function clubWithMembers() {
  const c = await freshClub();
  const gold = await insertTier(env, { clubId: c.clubId, name: "Gold" });
  const free = await insertTier(env, { clubId: c.clubId, name: "Libre" });
  await env.db.tx((t) => t.update(tiers).set({ price_cents: 0 }).where(eq(tiers.id, free.id)));
  const m = {
    gold: await seedMember(env, { first_name: "Gold", membership_end: SOON, tier_id: gold.id }, c.clubId),
    fee: await seedMember(env, { first_name: "Fee", membership_end: addDays(todayUtc(), -5), referral_credit_cents: 1500 }, c.clubId),
    free: await seedMember(env, { first_name: "Free", membership_end: SOON, tier_id: free.id }, c.clubId),
    later: await seedMember(env, { membership_end: UNTIL }, c.clubId),
    pending: await seedMember(env, { membership_end: SOON, payment_status: "pending" }, c.clubId),
    suspended: await seedMember(env, { membership_end: SOON, payment_status: "suspended" }, c.clubId),
    stripe: await seedMember(env, { membership_end: SOON, payment_mode: "subscription" }, c.clubId),
  };
  return { ...c, gold, m };
}

describe("POST invoices/run", () => {
  it("a member whose tier costs more than one invoice line takes is skipped (over_limit), not a 500; the others are invoiced", async () => {
    const c = await freshClub();
    const dear = await insertTier(env, { clubId: c.clubId, name: "Mécène" });
    await env.db.tx((t) => t.update(tiers).set({ price_cents: Number.MAX_SAFE_INTEGER }).where(eq(tiers.id, dear.id)));
    await seedMember(env, { first_name: "Dear", membership_end: SOON, tier_id: dear.id }, c.clubId);
    const plain = await seedMember(env, { first_name: "Plain", membership_end: SOON }, c.clubId);
    const res = await runOf(c, { until: UNTIL });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 1, skipped: { over_limit: 1 }, totals: [{ currency: "CHF", amount_cents: 8000, count: 1 }] });
    expect((await invoicesOf(c.clubId)).map((i) => i.member_id)).toEqual([plain.id]);
  });

  it("a dry run answers what it would make and writes nothing", async () => {
    const c = await clubWithMembers();
    const res = await runOf(c, { until: UNTIL, dry_run: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      dry_run: true,
      until: UNTIL,
      created: 2,
      totals: [{ currency: "CHF", amount_cents: 10000 + 6500, count: 2 }],
      skipped: { nothing_to_pay: 1, already_invoiced: 0 },
    });
    // By membership end: the expired fee member first.
    expect(res.body.sample.map((s: { member_id: string; invoice_id: string | null }) => [s.member_id, s.invoice_id])).toEqual([
      [c.m.fee.id, null],
      [c.m.gold.id, null],
    ]);
    expect(await invoicesOf(c.clubId)).toEqual([]);
    expect(await env.db.read.select().from(invoiceCounters).where(eq(invoiceCounters.club_id, c.clubId))).toEqual([]);
  });

  it("makes one membership invoice per member due: the tier's price, else the club's fee less the referral credit; a second run makes none", async () => {
    const c = await clubWithMembers();
    const res = await runOf(c, { until: UNTIL });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ dry_run: false, created: 2, skipped: { nothing_to_pay: 1, already_invoiced: 0 } });
    const rows = await invoicesOf(c.clubId);
    expect(rows.map((r) => r.number)).toEqual([`${YEAR}-0001`, `${YEAR}-0002`]);
    const byMember = new Map(rows.map((r) => [r.member_id, r]));
    expect(byMember.get(c.m.gold.id)).toMatchObject({
      kind: "membership",
      status: "open",
      tier_id: c.gold.id,
      amount_cents: 10000,
      currency: "CHF",
      issued_on: todayUtc(),
      due_on: addDays(todayUtc(), 30),
      period_start: addDays(SOON, 1),
    });
    const fee = byMember.get(c.m.fee.id);
    expect(fee).toMatchObject({ amount_cents: 6500, tier_id: null, period_start: addDays(todayUtc(), -4) });
    expect(fee?.lines.map((l) => l.amount_cents)).toEqual([8000, -1500]);
    expect(fee?.lines[0].label).toMatch(/^Cotisation, dès le /);
    expect(res.body.sample.map((s: { invoice_id: string }) => s.invoice_id).sort()).toEqual(rows.map((r) => r.id).sort());

    const again = await runOf(c, { until: UNTIL });
    expect(again.body).toMatchObject({ created: 0, skipped: { nothing_to_pay: 1, already_invoiced: 2 } });
    expect(await invoicesOf(c.clubId)).toHaveLength(2);
  });

  it("a period that begins later than 30 days from now is due when it begins, not 30 days from now (its reminders wait for it)", async () => {
    const c = await freshClub();
    const far = await seedMember(env, { first_name: "Far", membership_end: addDays(todayUtc(), 200) }, c.clubId);
    const near = await seedMember(env, { first_name: "Near", membership_end: addDays(todayUtc(), 10) }, c.clubId);
    const res = await runOf(c, { until: addDays(todayUtc(), 300) });
    expect(res.body.created).toBe(2);
    const due = new Map((await invoicesOf(c.clubId)).map((r) => [r.member_id, [r.issued_on, r.due_on, r.period_start]]));
    expect(due.get(far.id)).toEqual([todayUtc(), addDays(todayUtc(), 201), addDays(todayUtc(), 201)]);
    expect(due.get(near.id)).toEqual([todayUtc(), addDays(todayUtc(), 30), addDays(todayUtc(), 11)]);
    const listed = await env.call("GET", `/api/clubs/${c.clubId}/invoices?overdue=false`, { key: c.key });
    expect(listed.body.items.map((i: { due_on: string }) => i.due_on).sort()).toEqual([addDays(todayUtc(), 30), addDays(todayUtc(), 201)]);
  });

  it("two runs at once make each invoice once, numbered without gaps", async () => {
    const c = await freshClub();
    for (let i = 0; i < 30; i++) await seedMember(env, { membership_end: addDays(SOON, i % 7) }, c.clubId);
    const [a, b, d] = await Promise.all([runOf(c, { until: UNTIL }), runOf(c, { until: UNTIL }), runOf(c, { until: UNTIL })]);
    expect([a.status, b.status, d.status]).toEqual([200, 200, 200]);
    expect(a.body.created + b.body.created + d.body.created).toBe(30);
    const rows = await invoicesOf(c.clubId);
    expect(rows).toHaveLength(30);
    expect(new Set(rows.map((r) => r.member_id)).size).toBe(30);
    expect(rows.map((r) => r.number)).toEqual(Array.from({ length: 30 }, (_, i) => `${YEAR}-${String(i + 1).padStart(4, "0")}`));
  });

  it("invoices a period again once its invoice is cancelled, never once it is paid; leaves a member with an open membership invoice alone", async () => {
    const c = await freshClub();
    const cancelled = await seedMember(env, { membership_end: SOON }, c.clubId);
    const paid = await seedMember(env, { membership_end: SOON }, c.clubId);
    await seedMember(env, { membership_end: SOON }, c.clubId);
    expect((await runOf(c, { until: UNTIL })).body.created).toBe(3);
    const rows = await invoicesOf(c.clubId);
    const of = (id: string) => rows.find((r) => r.member_id === id)?.id as string;
    expect((await env.call("POST", `/api/clubs/${c.clubId}/invoices/${of(cancelled.id)}/actions/cancel`, { key: c.key })).status).toBe(200);
    await env.db.tx((t) =>
      t
        .update(invoices)
        .set({ status: "paid", paid_cents: 8000 })
        .where(eq(invoices.id, of(paid.id))),
    );
    const res = await runOf(c, { until: UNTIL });
    expect(res.body).toMatchObject({ created: 1, skipped: { already_invoiced: 2 }, sample: [{ member_id: cancelled.id }] });
    // A membership invoice made by hand (no period) also counts as the member's open one.
    const other = await freshClub();
    const m = await seedMember(env, { membership_end: SOON }, other.clubId);
    const tier = await insertTier(env, { clubId: other.clubId });
    const byHand = await env.call("POST", `/api/clubs/${other.clubId}/invoices`, { key: other.key, body: { member_id: m.id, tier_id: tier.id } });
    expect(byHand.status).toBe(201);
    expect((await runOf(other, { until: UNTIL })).body).toMatchObject({ created: 0, skipped: { already_invoiced: 1 } });
  });

  it("takes only the members of tier_ids; a tier not of the club is a 422 naming tier_ids; finances:view is refused", async () => {
    const c = await clubWithMembers();
    const res = await runOf(c, { until: UNTIL, tier_ids: [c.gold.id] });
    expect(res.body).toMatchObject({ created: 1, sample: [{ member_id: c.m.gold.id }] });
    const foreign = await insertTier(env);
    const bad = await runOf(c, { until: UNTIL, tier_ids: [foreign.id] });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe("TIER_NOT_FOUND");
    expect(bad.body.detail[0].loc).toEqual(["body", "tier_ids", 0]);
    expect((await runOf(c, { until: "2027-02-30" })).status).toBe(422);
    const view = await env.makeKey({ finances: "view" });
    expect((await env.call("POST", `/api/clubs/${env.clubId}/invoices/run`, { key: view, body: { until: UNTIL } })).status).toBe(403);
    expect(await invoicesOf(c.clubId)).toHaveLength(1);
  });

  it("fires invoice.created for each invoice", async () => {
    await env.db.tx((t) => t.update(clubs).set({ membership_fee_cents: 5000 }).where(eq(clubs.id, env.clubId)));
    const m = await seedMember(env, { membership_end: SOON });
    await withEndpoint(env, ["invoice.created"], async (sent) => {
      const res = await env.call("POST", `/api/clubs/${env.clubId}/invoices/run`, { body: { until: UNTIL } });
      expect(res.body.created).toBeGreaterThanOrEqual(1);
      const payloads = (await sent()).map((d) => JSON.parse(d.payload));
      expect(payloads).toHaveLength(res.body.created);
      expect(payloads.find((p) => p.data.member_id === m.id)).toMatchObject({
        type: "invoice.created",
        data: { kind: "membership", period_start: addDays(SOON, 1), status: "open" },
      });
    });
  });
});

describe("the dues run's twins", () => {
  it("the CLI: invoices run --until D [--dry-run] --json", async () => {
    const c = await freshClub();
    await seedMember(env, { membership_end: SOON }, c.clubId);
    const cli = async (args: string[]) => {
      const out: string[] = [];
      const code = await main(args, { out: (s) => out.push(s), err: () => {} }, { DATABASE_URL: env.config.databaseUrl, LOG_LEVEL: "silent" });
      return { code, json: out.length ? JSON.parse(out.join("")) : null };
    };
    const dry = await cli(["invoices", "run", "--until", UNTIL, "--dry-run", "--club", c.clubId, "--json"]);
    expect(dry).toMatchObject({ code: 0, json: { dry_run: true, created: 1, clubs: [{ club_id: c.clubId, created: 1 }] } });
    expect(await invoicesOf(c.clubId)).toHaveLength(0);
    const made = await cli(["invoices", "run", "--until", UNTIL, "--club", c.clubId, "--json"]);
    expect(made).toMatchObject({ code: 0, json: { dry_run: false, created: 1 } });
    expect(await invoicesOf(c.clubId)).toHaveLength(1);
    expect((await cli(["invoices", "run", "--until", UNTIL, "--club", c.clubId, "--json"])).json.created).toBe(0);
    expect((await cli(["invoices", "run", "--until", "tomorrow", "--json"])).code).toBe(2);
    expect((await cli(["invoices", "run", "--json"])).code).toBe(2);
  });

  it("MCP run_invoices: unconfirmed it makes nothing and answers what it would (CONFIRMATION_REQUIRED); dry_run needs no confirmation; confirm: true runs it", async () => {
    const c = await freshClub();
    const m = await seedMember(env, { membership_end: SOON }, c.clubId);
    const client = await mcpClient(env, c.key);
    try {
      const asked = await callTool(client, "run_invoices", { until: UNTIL });
      expect(asked.isError).toBe(true);
      expect(asked.body).toMatchObject({
        code: "CONFIRMATION_REQUIRED",
        would: { dry_run: true, created: 1, sample: [{ member_id: m.id, invoice_id: null }] },
      });
      const dry = await callTool(client, "run_invoices", { until: UNTIL, dry_run: true });
      expect(dry.isError).toBe(false);
      expect(dry.body).toMatchObject({ dry_run: true, created: 1, sample: [{ member_id: m.id, invoice_id: null }] });
      expect(await invoicesOf(c.clubId)).toHaveLength(0);
      const made = await callTool(client, "run_invoices", { until: UNTIL, confirm: true });
      expect(made.body).toMatchObject({ dry_run: false, created: 1 });
      const rows = await env.db.read
        .select()
        .from(invoices)
        .where(and(eq(invoices.club_id, c.clubId), eq(invoices.member_id, m.id)));
      expect(rows.map((r) => r.id)).toEqual([made.body.sample[0].invoice_id]);
    } finally {
      await client.close();
    }
  });
});
