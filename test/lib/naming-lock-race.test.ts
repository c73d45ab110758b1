// No row names a member who is gone (db/locks `namingRead`): every writer of a row
// that names a member (a registration, a scan, an invoice, a mailing's recipient, a flagged
// payment, a payment) locks the member's row FOR KEY SHARE in its transaction before writing,
// and an import's undo (and an erasure) locks it FOR UPDATE before asking what names it. On
// PostgreSQL (read committed, several connections) one waits for the other and then sees what it
// committed; the races are run there, on real connections: a transaction of this test holds a
// row the other side needs next, the tests see both sides wait (pg_stat_activity), then release.
// SQLite's write lock keeps every other writer out of a transaction (db/sqlite.ts): no such race
// can be staged there; what holds on both engines is that a writer finding the member gone
// names nobody.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq, getTableName, sql } from "drizzle-orm";
import type { AnyColumn, Queryable } from "../../db";
import { clubs, eventRegistrations, flaggedPayments, invoices, mailingRecipients, memberHistory, members, payments, scans } from "../../db/schema";
import { operatorCtx } from "../../lib/auth/operator";
import type { Ctx } from "../../lib/context";
import { importMembers } from "../../lib/members/import";
import { NAMING, recoverImports } from "../../lib/members/import-journal";
import { getMemberRow } from "../../lib/members/internal";
import { recordPayment } from "../../lib/payments/record";
import { flagPayment } from "../../lib/stripe-events/flagged";
import { onPostgres } from "../databases";
import { createEventVia } from "../events-fixtures";
import { type ApplePki, makeApplePki, PASS_TYPE_ID, readJson, unzipPass } from "../cards/apple-fixtures";
import { setup, type TestEnv } from "../helpers";
import { deadImport, importedMember } from "../members-fixtures";

let pki: ApplePki;
let env: TestEnv;
let ctx: Ctx;
beforeAll(async () => {
  pki = await makeApplePki();
  env = await setup({ RATE_LIMIT_PER_MINUTE: "100000", ...pki.env() });
  ctx = await operatorCtx(env.db, env.clubId, env.config);
});
afterAll(async () => {
  await env.close();
  pki.close();
});

type Member = typeof members.$inferSelect;

let made = 0;
/**
 * A member an import created, left as a process that died mid-way leaves it: a running import of
 * another machine whose lease has lapsed, its undo row naming the member (recoverImports undoes it).
 */
async function createdByDeadImport(tier = ""): Promise<{ m: Member; historyId: string }> {
  const email = `dead-${++made}@test.org`;
  await importMembers(ctx, { csv: `first name,last name,email,membership end,tier\nDora,Morte,${email},2030-12-31,${tier}\n` });
  const created = await importedMember(env, email);
  await deadImport(env, [created]);
  return created;
}

/** Whether `n` of this database's connections wait for a lock (polled: the other side gets there in its own time). */
async function waiting(n: number): Promise<boolean> {
  for (let i = 0; i < 500; i++) {
    const { rows } = (await (env.db.read as unknown as { execute(q: unknown): Promise<{ rows: { n: number }[] }> }).execute(
      sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    )) as { rows: { n: number }[] };
    if (rows[0].n >= n) return true;
    await Bun.sleep(10);
  }
  return false;
}

/**
 * A transaction that runs `lock` and then holds what it locked until `release()` (then runs
 * `then`, and commits): the other side, needing it, waits meanwhile.
 */
async function held(lock: (t: Queryable) => Promise<unknown>, then?: (t: Queryable) => Promise<unknown>) {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked = () => {};
  const taken = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const done = env.db.tx(async (t) => {
    await lock(t);
    locked();
    await gate;
    await then?.(t);
  });
  await taken;
  return { release, done };
}

/** `held` on the row `id` of `table`, locked FOR UPDATE. */
const hold = (table: string, id: string) =>
  held((t) => (t as unknown as { execute(q: unknown): Promise<unknown> }).execute(sql`select 1 from ${sql.identifier(table)} where id = ${id} for update`));

/** The rows of `NAMING`'s tables that name `memberId`, a member who no longer exists. */
async function namingGone(memberId: string): Promise<string[]> {
  const [still] = await env.db.read.select({ id: members.id }).from(members).where(eq(members.id, memberId));
  if (still) return [];
  const found: string[] = [];
  for (const column of NAMING as AnyColumn[]) {
    const rows = await env.db.read.select({ id: column }).from(column.table).where(eq(column, memberId));
    if (rows.length) found.push(getTableName(column.table));
  }
  return found;
}

/** Settles `p` into what the tests compare: the answer, or the error's code. */
const outcome = (p: Promise<unknown>) =>
  p.then(
    (value) => ({ value }),
    (err: { code?: string; status?: number }) => ({ error: err.code ?? String(err) }),
  );

let address = 0;
/** A public POST (no key) from its own client address (public routes are rate-limited per address). */
async function publicPost(path: string, body: unknown) {
  const request = new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const res = await env.app.handle(request, `10.7.0.${++address}`);
  return { status: res.status, body: JSON.parse(await res.text()) };
}

const raceOnly = it.skipIf(!onPostgres);
const SQLITE_SKIP = "staged on PostgreSQL only: SQLite's write lock keeps a second writer out of a transaction";

describe(`an import's undo against a writer naming its member (${onPostgres ? "PostgreSQL" : SQLITE_SKIP})`, () => {
  /**
   * The undo runs until it has locked the member and asked what names them, then waits on
   * deleting the member's history row (held by this test); the writer starts and must wait for
   * the member's lock; released, the undo deletes the member and the writer names nobody.
   */
  const undoFirst = async (write: (m: Member) => Promise<unknown>) => undoFirstOf(await createdByDeadImport(), write);
  async function undoFirstOf({ m, historyId }: { m: Member; historyId: string }, write: (m: Member) => Promise<unknown>) {
    const held = await hold(getTableName(memberHistory), historyId);
    const undoing = recoverImports(env.db, env.clubId);
    expect(await waiting(1)).toBe(true);
    const writing = outcome(write(m));
    // Without the writer's lock it does not wait: it writes at once, naming a member about to go.
    const writerWaited = await waiting(2);
    held.release();
    await held.done;
    expect(await undoing).toBe(1);
    const result = await writing;
    expect(writerWaited).toBe(true);
    const [still] = await env.db.read.select({ id: members.id }).from(members).where(eq(members.id, m.id));
    expect(still).toBeUndefined();
    expect(await namingGone(m.id)).toEqual([]);
    return { m, result };
  }

  raceOnly("an admin's registration of the member waits, then is refused 404 MEMBER_NOT_FOUND", async () => {
    const event = await createEventVia(env, { tickets: [{ name: "Souper", price_cents: 2000, member_price_cents: 1000 }] });
    const { result } = await undoFirst((m) =>
      env.call("POST", `/api/clubs/${env.clubId}/events/${event.id}/registrations`, {
        body: { ticket_id: event.tickets[0].id, member_id: m.id, first_name: "Dora", last_name: "Morte" },
      }),
    );
    expect(result).toMatchObject({ value: { status: 404, body: { code: "MEMBER_NOT_FOUND" } } });
    expect(await env.db.read.select().from(eventRegistrations).where(eq(eventRegistrations.event_id, event.id))).toEqual([]);
  });

  raceOnly("a public registration with the member's card code waits, then is refused 422 (member_code_unknown)", async () => {
    const event = await createEventVia(env, { tickets: [{ name: "Libre", member_price_cents: 0, non_member_price_cents: 0 }] });
    const { result } = await undoFirst((m) =>
      publicPost(`/api/public/events/${event.id}/registrations`, {
        ticket_id: event.tickets[0].id,
        first_name: "Dora",
        last_name: "Morte",
        email: m.email,
        member_code: m.referral_code,
      }),
    );
    expect(result).toMatchObject({ value: { status: 422, body: { code: "VALIDATION_FAILED", detail: [{ type: "member_code_unknown" }] } } });
    expect(await env.db.read.select().from(eventRegistrations).where(eq(eventRegistrations.event_id, event.id))).toEqual([]);
  });

  raceOnly("a join naming the member as referrer waits, then is refused 422 (referral_code_unknown)", async () => {
    const tier = await env.call("POST", `/api/clubs/${env.clubId}/tiers`, {
      body: { name: "Adulte", price_cents: 5000, currency: "CHF", duration_months: 12 },
    });
    await env.db.tx((t) =>
      t
        .update(clubs)
        .set({
          membership_mode: "open",
          member_referral_enabled: true,
          member_referral_reward_percent: 10,
          payout_iban: "CH9300762011623852957",
          payout_bic: "POFICHBEXXX",
          payout_beneficiary_name: "Club",
        })
        .where(eq(clubs.id, env.clubId)),
    );
    const [{ slug }] = await env.db.read.select({ slug: clubs.slug }).from(clubs).where(eq(clubs.id, env.clubId));
    const { result } = await undoFirst((m) =>
      publicPost(`/api/public/clubs/${slug}/join`, {
        tier_id: tier.body.id,
        first_name: "Nina",
        last_name: "Nouvelle",
        email: "nina-joins@test.org",
        payment_method: "bank_transfer",
        referral_code: m.referral_code,
      }),
    );
    expect(result).toMatchObject({ value: { status: 422, body: { code: "VALIDATION_FAILED", detail: [{ type: "referral_code_unknown" }] } } });
    expect(await env.db.read.select().from(members).where(eq(members.email, "nina-joins@test.org"))).toEqual([]);
  });

  raceOnly("a card scan of the member waits, then is stored naming nobody", async () => {
    const { m } = await undoFirst((m) => env.call("GET", `/api/verify/${encodeURIComponent(m.pass_serial_number)}`));
    const [scan] = await env.db.read.select().from(scans).where(eq(scans.code, m.pass_serial_number));
    expect(scan.member_id).toBeNull();
  });

  raceOnly("an invoice for the member waits, then is refused MEMBER_NOT_FOUND", async () => {
    const { m, result } = await undoFirst((m) =>
      env.call("POST", `/api/clubs/${env.clubId}/invoices`, { body: { member_id: m.id, lines: [{ label: "Camp", amount_cents: 12000 }] } }),
    );
    expect(result).toMatchObject({ value: { status: 422, body: { code: "MEMBER_NOT_FOUND" } } });
    expect(await env.db.read.select().from(invoices).where(eq(invoices.member_id, m.id))).toEqual([]);
  });

  raceOnly("a mailing sent to the active members waits, then leaves the member out", async () => {
    // Another active member, who stays in the audience.
    const other = await env.call("POST", `/api/clubs/${env.clubId}/members/manual`, {
      body: { first_name: "Ida", last_name: "Reste", email: "ida-stays@test.org", membership_end: "2030-01-01" },
    });
    expect(other.status).toBe(201);
    const draft = await env.call("POST", `/api/clubs/${env.clubId}/mailings`, {
      body: { subject: "Assemblée", body_markdown: "Bonjour {{first_name}}", audience: { statuses: ["active"] } },
    });
    expect(draft.status).toBe(201);
    const { m, result } = await undoFirst(() => env.call("POST", `/api/clubs/${env.clubId}/mailings/${draft.body.id}/actions/send`));
    expect(result).toMatchObject({ value: { status: 200 } });
    expect(await env.db.read.select().from(mailingRecipients).where(eq(mailingRecipients.member_id, m.id))).toEqual([]);
    const taken = await env.db.read.select().from(mailingRecipients).where(eq(mailingRecipients.mailing_id, draft.body.id));
    expect(taken.map((r) => r.member_id)).toContain(other.body.id);
  });

  raceOnly("a dues run over the member's tier waits, then invoices the member no more", async () => {
    const tier = await env.call("POST", `/api/clubs/${env.clubId}/tiers`, {
      body: { name: "Cotisation", price_cents: 5000, currency: "CHF", duration_months: 12 },
    });
    const { m, historyId } = await createdByDeadImport("Cotisation");
    await undoFirstOf({ m, historyId }, () =>
      env.call("POST", `/api/clubs/${env.clubId}/invoices/run`, { body: { until: "2031-01-01", tier_ids: [tier.body.id] } }),
    );
    expect(await env.db.read.select().from(invoices).where(eq(invoices.member_id, m.id))).toEqual([]);
  });

  raceOnly("a provider's flagged payment for the member waits, then names nobody", async () => {
    const { m } = await undoFirst((m) => env.db.tx((t) => flagPayment(t, ctx, flagged(m.id, "evt_race"))));
    const [row] = await env.db.read.select().from(flaggedPayments).where(eq(flaggedPayments.provider_event_id, "evt_race"));
    expect(row.member_id).toBeNull();
    expect(m.id).toBeString();
  });

  raceOnly("a phone registering the member's Apple pass waits, then is refused 401 (not the foreign key's error)", async () => {
    const { m, historyId } = await createdByDeadImport();
    const pass = await env.app.handle(new Request(`http://localhost/c/${m.pass_serial_number}/pass.pkpass`), null);
    const token = readJson(unzipPass(new Uint8Array(await pass.arrayBuffer()))["pass.json"]).authenticationToken as string;
    const [current] = await env.db.read.select().from(members).where(eq(members.id, m.id));
    // The pass's download stamped the member (pass_updated_at only): the undo still takes them as its own.
    expect(current.updated_at).toBe(m.updated_at);
    const { result } = await undoFirstOf({ m, historyId }, () =>
      env.app
        .handle(
          new Request(`http://localhost/api/passkit/v1/devices/device-race/registrations/${PASS_TYPE_ID}/${m.pass_serial_number}`, {
            method: "POST",
            headers: { authorization: `ApplePass ${token}`, "content-type": "application/json" },
            body: JSON.stringify({ pushToken: "tok-race" }),
          }),
          null,
        )
        .then((res) => res.status),
    );
    expect(result).toEqual({ value: 401 });
  });

  raceOnly("a writer that locked the member first is waited for: the undo then keeps the member with its payment", async () => {
    const { m } = await createdByDeadImport();
    // A writer's transaction held right after its read of the member (namingRead), before it records the payment.
    const writer = await held(
      (t) => getMemberRow(t, env.clubId, m.id, true),
      (t) => recordPayment(t, ctx, { clubId: env.clubId, kind: "membership", memberId: m.id, amount: 5000, currency: "CHF", method: "cash" }),
    );
    const undoing = recoverImports(env.db, env.clubId);
    expect(await waiting(1)).toBe(true);
    writer.release();
    await writer.done;
    expect(await undoing).toBe(1);
    // Without the undo's lock it asked before the payment was committed, then deleted the member once it was.
    const [still] = await env.db.read.select({ id: members.id }).from(members).where(eq(members.id, m.id));
    expect(still?.id).toBe(m.id);
    expect(await env.db.read.select({ id: payments.id }).from(payments).where(eq(payments.member_id, m.id))).toHaveLength(1);
  });
});

describe(`an erasure against a writer naming the member (${onPostgres ? "PostgreSQL" : SQLITE_SKIP})`, () => {
  raceOnly("an admin's registration of a member being erased waits, then is refused: nothing of the member is written after the erasure", async () => {
    const event = await createEventVia(env, { tickets: [{ name: "Souper", price_cents: 2000, member_price_cents: 1000 }] });
    const created = await env.call("POST", `/api/clubs/${env.clubId}/members/manual`, {
      body: { first_name: "Eva", last_name: "Nomade", email: "eva-erased@test.org", membership_end: "2030-01-01" },
    });
    const m = created.body;
    // A scan of the member: the erasure, past its lock of the member and its read of the
    // registrations, waits on blanking it (held by this test).
    await env.call("GET", `/api/verify/${encodeURIComponent(m.pass_serial_number)}`);
    const [scan] = await env.db.read.select().from(scans).where(eq(scans.member_id, m.id));
    const held = await hold(getTableName(scans), scan.id);
    const erasing = env.call("DELETE", `/api/clubs/${env.clubId}/members/${m.id}`);
    expect(await waiting(1)).toBe(true);
    const registering = env.call("POST", `/api/clubs/${env.clubId}/events/${event.id}/registrations`, {
      body: { ticket_id: event.tickets[0].id, member_id: m.id, first_name: "Eva", last_name: "Nomade", email: "eva-erased@test.org" },
    });
    const writerWaited = await waiting(2);
    held.release();
    await held.done;
    expect((await erasing).status).toBe(204);
    const answer = await registering;
    expect(writerWaited).toBe(true);
    expect(answer.status).toBe(404);
    // Without the writer's lock the registration, written after the erasure read the member's, kept the name and address.
    expect(await env.db.read.select().from(eventRegistrations).where(eq(eventRegistrations.member_id, m.id))).toEqual([]);
  });
});

function flagged(memberId: string, eventId: string) {
  return {
    clubId: env.clubId,
    event: { id: eventId, type: "checkout.session.completed" },
    purpose: "membership" as const,
    memberId,
    paid: { amount: 100, currency: "CHF" },
    expected: { amount: 5000, currency: "CHF" },
  };
}

describe("a writer finding the member gone names nobody (both engines)", () => {
  it("a flagged payment for a member who no longer exists is kept, naming nobody, with no history row", async () => {
    const gone = crypto.randomUUID();
    await env.db.tx((t) => flagPayment(t, ctx, flagged(gone, "evt_gone")));
    const [row] = await env.db.read.select().from(flaggedPayments).where(eq(flaggedPayments.provider_event_id, "evt_gone"));
    expect(row).toMatchObject({ member_id: null, amount_cents: 100 });
    expect(await env.db.read.select().from(memberHistory).where(eq(memberHistory.member_id, gone))).toEqual([]);
  });
});
