// A keyed write and its kept answer commit together (issue 32, the red team's first finding): when
// the kept answer cannot be written, nothing of the write stays, so the retry with the key does it
// once; and a member's erasure keeps the outcome of the keys whose answers named them (without the
// answer), so the retry of the create that made them does not make them again. Over HTTP and MCP.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { auditLog, idempotencyKeys, members, payments } from "../../db/schema";
import { callTool, mcpClient } from "../mcp/client";
import { onPostgres } from "../databases";
import { createEventVia } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";
import { addDays, memberRow, paymentsOf, seedMember, todayUtc } from "../members-fixtures";

let env: TestEnv;
/** The database refusing the kept answer of the keys named `fail-...`, as a full disk or an I/O error would: a trigger, in each engine's SQL. */
const REFUSE = onPostgres
  ? [
      "CREATE OR REPLACE FUNCTION refuse_kept_answer() RETURNS trigger AS $$ BEGIN IF NEW.key LIKE 'fail-%' THEN RAISE EXCEPTION 'kept answer refused'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql",
      "CREATE TRIGGER refuse_kept_answer BEFORE INSERT ON idempotency_keys FOR EACH ROW EXECUTE FUNCTION refuse_kept_answer()",
    ]
  : ["CREATE TRIGGER refuse_kept_answer BEFORE INSERT ON idempotency_keys WHEN NEW.key LIKE 'fail-%' BEGIN SELECT RAISE(ABORT, 'kept answer refused'); END"];
const restoreRefusal = async () => {
  for (const statement of REFUSE) await env.db.query(statement);
};
/** The same key once the database takes it again: the retry is sent as the original with the trigger gone. */
const withoutRefusal = () =>
  env.db.query(onPostgres ? "DROP TRIGGER IF EXISTS refuse_kept_answer ON idempotency_keys" : "DROP TRIGGER IF EXISTS refuse_kept_answer");
beforeAll(async () => {
  env = await setup();
  await restoreRefusal();
});
afterAll(() => env.close());

const refusing = (key: string) => `fail-${key}`;

const markPaid = (memberId: string, key: string, amount = 4200) =>
  env.call("POST", `/api/clubs/${env.clubId}/members/${memberId}/actions/mark-paid`, {
    body: { amount_cents: amount, reason: "desk" },
    headers: { "idempotency-key": key },
  });

describe("a keyed write commits with its kept answer", () => {
  it("mark-paid whose kept answer cannot be written records nothing; the retry with the key pays once", async () => {
    const m = await seedMember(env, { membership_end: addDays(todayUtc(), 40) });
    const key = refusing("pay-once");
    const failed = await markPaid(m.id, key);
    expect(failed.status).toBe(500);
    expect(await paymentsOf(env, m.id)).toEqual([]);
    expect((await memberRow(env, m.id)).membership_end).toBe(m.membership_end);

    await withoutRefusal();
    try {
      const paid = await markPaid(m.id, key);
      expect(paid.status).toBe(200);
      const again = await markPaid(m.id, key);
      expect([again.status, again.headers.get("idempotent-replayed"), again.text]).toEqual([200, "true", paid.text]);
      expect((await paymentsOf(env, m.id)).map((p) => p.amount_cents)).toEqual([4200]);
      expect((await memberRow(env, m.id)).membership_end).toBe(paid.body.membership_end);
    } finally {
      await restoreRefusal();
    }
  });

  it("the answer leaves once its write and its kept answer are both stored", async () => {
    const m = await seedMember(env);
    const res = await markPaid(m.id, "stored-together");
    expect(res.status).toBe(200);
    const [kept] = await env.db.read.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, "stored-together"));
    expect(JSON.parse(Buffer.from(kept.body as Buffer).toString())).toEqual(res.body);
    expect((await paymentsOf(env, m.id)).map((p) => p.amount_cents)).toEqual([4200]);
    const audited = await env.db.read
      .select()
      .from(auditLog)
      .where(eq(auditLog.request_id, res.headers.get("x-request-id") as string));
    expect(audited.map((r) => r.status)).toEqual([200]);
  });

  it("a member import whose kept answer cannot be written: its retry undoes it first, creates each member once, and is kept", async () => {
    const csv = "first name,last name,email,membership_end\nIna,Imp,ina.imp@test.org,2031-01-01\nIgo,Imp,igo.imp@test.org,2031-01-01\n";
    const send = () =>
      env.call("POST", `/api/clubs/${env.clubId}/members/import`, {
        rawBody: csv,
        headers: { "content-type": "text/csv", "idempotency-key": refusing("import") },
      });
    const failed = await send();
    expect(failed.status).toBe(500);
    await withoutRefusal();
    try {
      const done = await send();
      expect([done.status, done.body.created, done.body.written]).toEqual([200, 2, true]);
      const again = await send();
      expect([again.status, again.headers.get("idempotent-replayed"), again.text]).toEqual([200, "true", done.text]);
      for (const email of ["ina.imp@test.org", "igo.imp@test.org"]) {
        expect([email, (await env.db.read.select().from(members).where(eq(members.email, email))).length]).toEqual([email, 1]);
      }
    } finally {
      await restoreRefusal();
    }
  });

  it("an MCP call whose kept result cannot be written records nothing; the retry pays once", async () => {
    const m = await seedMember(env, { membership_end: addDays(todayUtc(), 40) });
    const client = await mcpClient(env);
    try {
      const args = { member_id: m.id, amount_cents: 3100, idempotency_key: refusing("mcp-pay") };
      const failed = await callTool(client, "mark_member_paid", args);
      expect([failed.isError, failed.body.code]).toEqual([true, "INTERNAL"]);
      expect(await paymentsOf(env, m.id)).toEqual([]);
      await withoutRefusal();
      try {
        const paid = await callTool(client, "mark_member_paid", args);
        expect(paid.isError).toBeFalsy();
        const again = await client.callTool({ name: "mark_member_paid", arguments: args });
        expect(again._meta).toMatchObject({ idempotent_replayed: true });
        expect((await paymentsOf(env, m.id)).map((p) => p.amount_cents)).toEqual([3100]);
      } finally {
        await restoreRefusal();
      }
    } finally {
      await client.close();
    }
  });
});

describe("after a member's erasure", () => {
  it("the create's key, retried, is 409 IDEMPOTENCY_ANSWER_ERASED: nobody is created again, and the answer names nobody", async () => {
    const email = "zoe.erased@test.org";
    const body = { first_name: "Zoé", last_name: "Effacée", email, membership_end: addDays(todayUtc(), 100) };
    const created = await env.call("POST", `/api/clubs/${env.clubId}/members/manual`, { body, headers: { "idempotency-key": "create-zoe" } });
    expect(created.status).toBe(201);
    const paid = await markPaid(created.body.id, "pay-zoe");
    expect(paid.status).toBe(200);
    expect((await env.call("DELETE", `/api/clubs/${env.clubId}/members/${created.body.id}`)).status).toBe(204);

    const retried = await env.call("POST", `/api/clubs/${env.clubId}/members/manual`, {
      body,
      headers: { "idempotency-key": "create-zoe", "accept-language": "en" },
    });
    expect([retried.status, retried.body.code]).toEqual([409, "IDEMPOTENCY_ANSWER_ERASED"]);
    expect(retried.body.detail).toContain("effacé");
    expect(retried.text).not.toContain("Zo");
    expect(retried.text).not.toContain(created.body.id);
    expect(await env.db.read.select().from(members).where(eq(members.email, email))).toEqual([]);
    // The payment's key is done too: its retry records nothing more (the payment stays, anonymous).
    const repaid = await markPaid(created.body.id, "pay-zoe");
    expect([repaid.status, repaid.body.code]).toEqual([409, "IDEMPOTENCY_ANSWER_ERASED"]);
    expect((await env.db.read.select().from(payments).where(eq(payments.member_id, created.body.id))).length).toBe(1);
    // The rows stay, their answers gone.
    const kept = await env.db.read.select().from(idempotencyKeys).where(eq(idempotencyKeys.club_id, env.clubId));
    const rows = kept.filter((r) => r.key === "create-zoe" || r.key === "pay-zoe");
    expect(rows.map((r) => [r.key, r.status, r.body, r.headers]).sort()).toEqual([
      ["create-zoe", 201, null, {}],
      ["pay-zoe", 200, null, {}],
    ]);
    // Without the key the same body is a new request: a new member, as the client asked.
    const anew = await env.call("POST", `/api/clubs/${env.clubId}/members/manual`, { body });
    expect(anew.status).toBe(201);
  });

  it("a check-in's kept answer, which names the member's registration and not the member, goes too", async () => {
    const m = await seedMember(env, { first_name: "Xavière", last_name: "Scannée" });
    const event = await createEventVia(env, { tickets: [{ name: "Entry", member_price_cents: 0, non_member_price_cents: 0 }] });
    const base = `/api/clubs/${env.clubId}/events/${event.id}`;
    const reg = await env.call("POST", `${base}/registrations`, {
      body: { ticket_id: event.tickets[0].id, first_name: "Xavière", last_name: "Scannée", member_id: m.id },
    });
    expect(reg.status).toBe(201);
    const scan = () => env.call("POST", `${base}/checkin`, { body: { code: reg.body.qr_token }, headers: { "idempotency-key": "scan-xaviere" } });
    const first = await scan();
    expect([first.status, first.body.verdict, first.text.includes("Xavière")]).toEqual([200, "valid", true]);
    expect((await env.call("DELETE", `/api/clubs/${env.clubId}/members/${m.id}`)).status).toBe(204);
    const [kept] = await env.db.read.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, "scan-xaviere"));
    expect([kept.status, kept.body]).toEqual([200, null]);
    const again = await scan();
    expect([again.status, again.body.code]).toEqual([409, "IDEMPOTENCY_ANSWER_ERASED"]);
  });

  it("over MCP too: the add_member call's key, retried, is refused, and nobody is added", async () => {
    const email = "yann.erased@test.org";
    const client = await mcpClient(env);
    try {
      const args = { first_name: "Yann", last_name: "Effacé", email, membership_end: addDays(todayUtc(), 100), idempotency_key: "mcp-add-yann" };
      const added = await callTool(client, "add_member", args);
      expect(added.isError).toBeFalsy();
      const erased = await callTool(client, "delete_member", { member_id: added.body.id, confirm: true });
      expect(erased.isError).toBeFalsy();
      const again = await callTool(client, "add_member", args);
      expect([again.isError, again.body.code]).toEqual([true, "IDEMPOTENCY_ANSWER_ERASED"]);
      expect(JSON.stringify(again.body)).not.toContain("Yann");
      expect(await env.db.read.select().from(members).where(eq(members.email, email))).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
