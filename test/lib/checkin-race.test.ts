// Scans of one ticket at once from several phones: one `valid`, the rest `already` with its time,
// every scan stored. On PostgreSQL the scans run side by side on the pool's connections (as
// several processes would), each first as the one statement of lib/events/checkin.ts, then, when
// it lost the race, as the transaction; the route's tests go through the rate count, which lines
// the requests up before they reach the check-in.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import pg from "pg";
import { eq, sql } from "drizzle-orm";
import { withinTx } from "../../db";
import { checkIns, eventRegistrations } from "../../db/schema";
import { operatorCtx } from "../../lib/auth/operator";
import type { Ctx } from "../../lib/context";
import { checkinEvent } from "../../lib/events/checkin";
import { onPostgres } from "../databases";
import { createEventVia, insertRegistration } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";
import { refusalOf } from "../refusal";

let env: TestEnv;
let ctx: Ctx;
beforeAll(async () => {
  env = await setup();
  ctx = await operatorCtx(env.db, env.clubId, env.config);
});
afterAll(() => env.close());

/** The pool's connections opened beforehand, so the scans run side by side from the start. */
async function warmPool() {
  if (onPostgres)
    await Promise.all(
      Array.from({ length: 16 }, () => (env.db.read as unknown as { execute(q: unknown): Promise<unknown> }).execute(sql`select pg_sleep(0.05)`)),
    );
}

describe("scans of one ticket at once", () => {
  it("give one valid per ticket, the others already with its time, every scan stored", async () => {
    const event = await createEventVia(env, { tickets: [{ name: "Entrée" }] });
    const regs = await Promise.all(Array.from({ length: 4 }, () => insertRegistration(env, { eventId: event.id, ticketId: event.tickets[0].id })));
    await warmPool();
    const answers = await Promise.all(regs.flatMap((reg) => Array.from({ length: 8 }, () => checkinEvent(ctx, { event_id: event.id, code: reg.qr_token }))));
    for (const reg of regs) {
      const mine = answers.filter((a) => a.registration?.id === reg.id);
      expect(mine.map((a) => a.verdict).sort()).toEqual(["already", "already", "already", "already", "already", "already", "already", "valid"]);
      const valid = mine.find((a) => a.verdict === "valid");
      expect(mine.every((a) => a.checked_in_at === valid?.checked_in_at)).toBe(true);
      expect(mine.every((a) => a.registration?.ticket_name === "Entrée")).toBe(true);
    }
    const stored = await env.db.read.select().from(checkIns).where(eq(checkIns.event_id, event.id));
    expect(stored).toHaveLength(32);
    expect(stored.filter((s) => s.verdict === "valid")).toHaveLength(4);
  });

  it("inside a caller's transaction (withinTx), a scan is undone with it", async () => {
    const event = await createEventVia(env, { tickets: [{ name: "Entrée" }] });
    const reg = await insertRegistration(env, { eventId: event.id, ticketId: event.tickets[0].id });
    const undone = new Error("the caller's transaction fails after the scan");
    const scanned = env.db.tx(async (t) => {
      const answer = await checkinEvent({ ...ctx, db: withinTx(env.db, t) }, { event_id: event.id, code: reg.qr_token });
      expect(answer.verdict).toBe("valid");
      throw undone;
    });
    expect(await refusalOf(scanned)).toBe(undone);
    expect(await env.db.read.select().from(checkIns).where(eq(checkIns.event_id, event.id))).toEqual([]);
    const [stored] = await env.db.read.select().from(eventRegistrations).where(eq(eventRegistrations.id, reg.id));
    expect(stored.checked_in_at).toBeNull();
  });

  it("with one nonce: one scan stored, every phone told the first answer", async () => {
    const event = await createEventVia(env, { tickets: [{ name: "Entrée" }] });
    const reg = await insertRegistration(env, { eventId: event.id, ticketId: event.tickets[0].id });
    await warmPool();
    const answers = await Promise.all(Array.from({ length: 8 }, () => checkinEvent(ctx, { event_id: event.id, code: reg.qr_token, nonce: "door-2-scan-1" })));
    expect(answers.map((a) => a.verdict)).toEqual(Array(8).fill("valid"));
    expect(new Set(answers.map((a) => a.checked_in_at)).size).toBe(1);
    const stored = await env.db.read.select().from(checkIns).where(eq(checkIns.event_id, event.id));
    expect(stored.map((s) => [s.nonce, s.verdict])).toEqual([["door-2-scan-1", "valid"]]);
  });
});

// On PostgreSQL a scan is decided by one statement when it can, and by the transaction otherwise
// (always inside a caller's transaction): the rule is written twice, so the same scans are run
// both ways here and must answer and store alike. On SQLite both ways are the transaction.
describe("the one statement and the transaction decide a scan alike", () => {
  type Case = { name: string; status?: string; checkedInAt?: string; scans: { nonce?: string }[] };
  const cases: Case[] = [
    { name: "a first scan", scans: [{}] },
    { name: "a second scan", scans: [{}, {}] },
    { name: "a ticket checked in before", checkedInAt: "2026-05-01T18:00:00.000Z", scans: [{}] },
    { name: "a cancelled registration", status: "cancelled", scans: [{}] },
    { name: "a registration awaiting payment", status: "pending", scans: [{}] },
    { name: "one nonce sent twice", scans: [{ nonce: "door-1" }, { nonce: "door-1" }] },
  ];

  /** The scans of `c` on a fresh event, each through `via`: the answers and the rows stored, without ids and times of their own. */
  async function run(c: Case, via: (input: { event_id: string; code: string; nonce?: string }) => Promise<unknown>) {
    const event = await createEventVia(env, { tickets: [{ name: "Entrée" }] });
    const reg = await insertRegistration(env, { eventId: event.id, ticketId: event.tickets[0].id, status: c.status, checkedInAt: c.checkedInAt });
    const answers = [];
    for (const scan of c.scans) answers.push(await via({ event_id: event.id, code: reg.qr_token, ...scan }));
    const shown = answers.map((a) => {
      const { verdict, checked_in_at, registration } = a as Awaited<ReturnType<typeof checkinEvent>>;
      return {
        verdict,
        checked_in: checked_in_at === null ? null : checked_in_at === c.checkedInAt ? "before" : "now",
        registration: registration && { ...registration, id: registration.id === reg.id },
      };
    });
    const stored = (await env.db.read.select().from(checkIns).where(eq(checkIns.event_id, event.id))).map((s) => ({
      verdict: s.verdict,
      code: s.code === reg.qr_token,
      registration: s.registration_id === null ? null : s.registration_id === reg.id,
      nonce: s.nonce,
    }));
    const [after] = await env.db.read.select().from(eventRegistrations).where(eq(eventRegistrations.id, reg.id));
    return { shown, stored, checked_in: after.checked_in_at === null ? null : after.checked_in_at === c.checkedInAt ? "before" : "now" };
  }

  for (const c of cases)
    it(c.name, async () => {
      let transactions = 0;
      const tx = ((fn, options) => {
        transactions++;
        return env.db.tx(fn, options);
      }) as typeof env.db.tx;
      const counted = { ...ctx, db: { ...env.db, tx } };
      const alone = await run(c, (input) => checkinEvent(counted, input));
      const inTx = await run(c, (input) => env.db.tx((t) => checkinEvent({ ...ctx, db: withinTx(env.db, t) }, input)));
      expect(alone).toEqual(inTx);
      // On PostgreSQL the statement decided every scan but a nonce's repeat (it stores nothing: the transaction answers).
      if (onPostgres) expect(transactions).toBe(c.scans.filter((s, i) => s.nonce && c.scans.slice(0, i).some((p) => p.nonce === s.nonce)).length);
      else expect(transactions).toBe(c.scans.length);
    });
});

describe.skipIf(!onPostgres)("a check-in on PostgreSQL", () => {
  it("writes the registration's new version on its own page and into none of its indexes (room left free: fillfactor 80)", async () => {
    const event = await createEventVia(env, { tickets: [{ name: "Entrée" }] });
    const regs = [];
    for (let i = 0; i < 60; i++) regs.push(await insertRegistration(env, { eventId: event.id, ticketId: event.tickets[0].id }));
    const pageOf = async (id: string) =>
      (await env.db.query<{ page: number }>("SELECT (ctid::text::point)[0]::int AS page FROM event_registrations WHERE id = $1", [id]))[0].page;
    // A reader's snapshot open meanwhile, as the door's other scans hold theirs: the old versions
    // cannot be pruned to make room, so only the room left free takes the new ones.
    const reader = new pg.Client({ connectionString: env.config.databaseUrl });
    await reader.connect();
    try {
      await reader.query("BEGIN ISOLATION LEVEL REPEATABLE READ");
      await reader.query("SELECT count(*) FROM event_registrations");
      const first = regs.slice(0, 3);
      const pages = await Promise.all(first.map((r) => pageOf(r.id)));
      expect(new Set(pages).size).toBe(1);
      for (const r of first) expect((await checkinEvent(ctx, { event_id: event.id, code: r.qr_token })).verdict).toBe("valid");
      expect(await Promise.all(first.map((r) => pageOf(r.id)))).toEqual(pages);
    } finally {
      await reader.query("ROLLBACK");
      await reader.end();
    }
  });
});
