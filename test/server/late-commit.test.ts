// On PostgreSQL a key's HTTP write commits without waiting for the disk, and its audit row, whose
// commit waits, commits after it and before the answer leaves: that commit writes PostgreSQL's
// log to the disk past the write's (db/index.ts `lateCommits`). Everything else waits for the
// disk at its own commit: a write without a key (the CLI's, lib's, a public route's), an MCP call.
// What is checked is what reaches PostgreSQL, in order, from every connection of the pool.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import pg from "pg";
import { members } from "../../db/schema";
import { operatorCtx } from "../../lib/auth/operator";
import { checkinEvent } from "../../lib/events/checkin";
import { addMember } from "../../lib/members";
import { onPostgres } from "../databases";
import { createEventVia, insertRegistration, registerPublic } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";

const LATE_COMMIT = "SET LOCAL synchronous_commit TO off; COMMIT";
const LATE_STATEMENT = "set_config('synchronous_commit', 'off', true)";

describe.skipIf(!onPostgres)("a key's write on PostgreSQL commits late, its audit row after it", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await setup();
  });
  afterAll(() => env?.close());

  /** The statements sent to PostgreSQL while `act` runs, in the order they left. */
  async function sent(act: () => Promise<unknown>): Promise<string[]> {
    const texts: string[] = [];
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const first = args[0] as string | { text?: string };
      texts.push(typeof first === "string" ? first : (first?.text ?? ""));
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    try {
      await act();
      await env.app.audit.drain();
    } finally {
      pg.Client.prototype.query = query;
    }
    return texts;
  }
  const auditRow = (text: string) => text.startsWith('insert into "audit_log"');
  /** Where the audit row of the request went, after `from`; its commit (its own statement's, or a COMMIT after it) waits for the disk. */
  const auditAfter = (texts: string[], from: number) => {
    const at = texts.findIndex((t, i) => i > from && auditRow(t));
    expect(texts.slice(at)).not.toContain(LATE_COMMIT);
    return at;
  };

  it("a member added with a key: its transaction commits late, then its audit row commits", async () => {
    let status = 0;
    let id = "";
    const texts = await sent(async () => {
      const res = await env.call("POST", `/api/clubs/${env.clubId}/members/manual`, {
        body: { first_name: "Léa", last_name: "Late", email: "late@example.org", membership_end: "2027-12-31" },
      });
      status = res.status;
      id = res.body.id;
    });
    expect(status).toBe(201);
    const late = texts.indexOf(LATE_COMMIT);
    expect(late).toBeGreaterThanOrEqual(0);
    expect(auditAfter(texts, late)).toBeGreaterThan(late);
    const [row] = await env.db.read.select().from(members).where(eq(members.id, id));
    expect(row?.email).toBe("late@example.org");
  });

  it("a member added with a key and an Idempotency-Key: the key's kept answer commits late with it", async () => {
    const texts = await sent(() =>
      env.call("POST", `/api/clubs/${env.clubId}/members/manual`, {
        body: { first_name: "Ida", last_name: "Late", email: "ida.late@example.org", membership_end: "2027-12-31" },
        headers: { "idempotency-key": "late-commit-1" },
      }),
    );
    const late = texts.indexOf(LATE_COMMIT);
    expect(late).toBeGreaterThanOrEqual(0);
    expect(auditAfter(texts, late)).toBeGreaterThan(late);
    const replay = await env.call("POST", `/api/clubs/${env.clubId}/members/manual`, {
      body: { first_name: "Ida", last_name: "Late", email: "ida.late@example.org", membership_end: "2027-12-31" },
      headers: { "idempotency-key": "late-commit-1" },
    });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
  });

  it("a ticket scanned with a key: its one statement commits late, then its audit row commits", async () => {
    const event = await createEventVia(env, { tickets: [{ name: "Entrée" }] });
    const reg = await insertRegistration(env, { eventId: event.id, ticketId: event.tickets[0].id });
    let verdict = "";
    const texts = await sent(async () => {
      verdict = (await env.call("POST", `/api/clubs/${env.clubId}/events/${event.id}/checkin`, { body: { code: reg.qr_token } })).body.verdict;
    });
    expect(verdict).toBe("valid");
    const scan = texts.findIndex((t) => t.includes("INSERT INTO check_ins"));
    expect(texts[scan]).toContain(LATE_STATEMENT);
    expect(auditAfter(texts, scan)).toBeGreaterThan(scan);
  });

  it("the same writes without a key's request (lib, as the CLI calls it) wait for the disk", async () => {
    const ctx = await operatorCtx(env.db, env.clubId, env.config);
    const event = await createEventVia(env, { tickets: [{ name: "Entrée" }] });
    const reg = await insertRegistration(env, { eventId: event.id, ticketId: event.tickets[0].id });
    const texts = await sent(async () => {
      await addMember(ctx, { first_name: "Otto", last_name: "Sync", email: "otto.sync@example.org", membership_end: "2027-12-31" } as never);
      expect((await checkinEvent(ctx, { event_id: event.id, code: reg.qr_token })).verdict).toBe("valid");
    });
    expect(texts).toContain("COMMIT");
    expect(texts).not.toContain(LATE_COMMIT);
    expect(texts.some((t) => t.includes(LATE_STATEMENT))).toBe(false);
  });

  it("a public route's write (a registration) waits for the disk", async () => {
    const event = await createEventVia(env, { tickets: [{ name: "Entrée", member_price_cents: 0, non_member_price_cents: 0 }] });
    const texts = await sent(() =>
      registerPublic(env, event.id, { ticket_id: event.tickets[0].id }).then((res) => expect(res.body).toMatchObject({ status: "confirmed" })),
    );
    expect(texts).toContain("COMMIT");
    expect(texts).not.toContain(LATE_COMMIT);
  });
});
