// Idempotency-Key on every write and X-Request-Id on every answer (DESIGN.md section 12): a
// repeat answers the kept status and body and does nothing; another request under the key is
// 422, a key still running 409; a validation 422 is not kept; a malformed key is 422 naming the
// header; keys expire after 24 h and a job purges them; a key left running by a dead process is
// taken over; error bodies and audit rows carry the request's id.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { and, eq, sql } from "drizzle-orm";
import { auditLog, idempotencyKeys, jobs, members } from "../../db/schema";
import { createApiKey } from "../../lib/auth/keys";
import { allScopes } from "../../lib/access";
import { IDEMPOTENCY_PURGE, idempotencyPurge, IdempotencyStore, idempotencyStore, KEEP_MS, PURGE_EVERY_MS, sha256Hex } from "../../lib/idempotency";
import { runDueJobs } from "../../lib/jobs";
import { JOB_KINDS } from "../../server/jobs";
import { setup, type TestEnv } from "../helpers";
import { addDays, todayUtc } from "../members-fixtures";

let env: TestEnv;
/** A key whose id the tests know (the store's rows are per API key). */
let keyed: { id: string; api_key: string };
beforeAll(async () => {
  env = await setup();
  keyed = await createApiKey(env.db, { adminId: env.adminId, scopes: allScopes("edit") });
});
afterAll(() => env.close());

const manualPath = () => `/api/clubs/${env.clubId}/members/manual`;
let n = 0;
const newMember = () => ({
  first_name: "Ada",
  last_name: "Idem",
  email: `idem-${++n}-${crypto.randomUUID().slice(0, 8)}@test.org`,
  membership_end: addDays(todayUtc(), 200),
});
const add = (body: unknown, headers: Record<string, string> = {}) => env.call("POST", manualPath(), { key: keyed.api_key, body, headers });
const membersWith = async (email: string) => (await env.db.read.select().from(members).where(eq(members.email, email))).length;
const keyRow = async (key: string) =>
  (
    await env.db.read
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.owner, `key:${keyed.id}`), eq(idempotencyKeys.key, key)))
  )[0];

describe("Idempotency-Key", () => {
  it("the same request again answers the kept status and body, marked Idempotent-Replayed, and does nothing", async () => {
    const body = newMember();
    const first = await add(body, { "idempotency-key": "create-ada-1" });
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await add(body, { "idempotency-key": "create-ada-1" });
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("content-type")).toBe(first.headers.get("content-type"));
    // Each answer has its own request id.
    expect(again.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    expect(await membersWith(body.email)).toBe(1);
  });

  it("without the header the same body runs again (409 MEMBER_EMAIL_TAKEN): the replay above came from the key", async () => {
    const body = newMember();
    expect((await add(body)).status).toBe(201);
    const again = await add(body);
    expect([again.status, again.body.code]).toEqual([409, "MEMBER_EMAIL_TAKEN"]);
  });

  it("the key is per API key: another key with the same Idempotency-Key runs its own request", async () => {
    const other = await env.makeKey(allScopes("edit"));
    const body = newMember();
    expect((await add(body, { "idempotency-key": "shared-name" })).status).toBe(201);
    const theirs = await env.call("POST", manualPath(), { key: other, body: newMember(), headers: { "idempotency-key": "shared-name" } });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
  });

  it("the key with another body, path or method is 422 IDEMPOTENCY_KEY_REUSED, and nothing is done", async () => {
    const body = newMember();
    expect((await add(body, { "idempotency-key": "reuse-1" })).status).toBe(201);
    const other = newMember();
    const reused = await add(other, { "idempotency-key": "reuse-1" });
    expect([reused.status, reused.body.code]).toEqual([422, "IDEMPOTENCY_KEY_REUSED"]);
    expect(reused.body.request_id).toBe(reused.headers.get("x-request-id"));
    expect(await membersWith(other.email)).toBe(0);
    const elsewhere = await env.call("POST", `/api/clubs/${env.clubId}/tiers`, {
      key: keyed.api_key,
      body: { name: "Reused", price_cents: 100 },
      headers: { "idempotency-key": "reuse-1" },
    });
    expect([elsewhere.status, elsewhere.body.code]).toEqual([422, "IDEMPOTENCY_KEY_REUSED"]);
  });

  it("while the first request runs, the same key is 409 IDEMPOTENCY_KEY_IN_USE (another request 422); once answered, it replays", async () => {
    const body = newMember();
    const bytes = JSON.stringify(body);
    const store = idempotencyStore(env.db);
    const asked = { clubId: env.clubId, method: "POST", path: manualPath(), hash: sha256Hex(bytes) };
    const claim = await store.claim(`key:${keyed.id}`, "running-1", asked);
    if (claim.kind !== "run") throw new Error("expected to run");
    const send = (raw: string) =>
      env.call("POST", manualPath(), { key: keyed.api_key, rawBody: raw, headers: { "content-type": "application/json", "idempotency-key": "running-1" } });
    const busy = await send(bytes);
    expect([busy.status, busy.body.code]).toEqual([409, "IDEMPOTENCY_KEY_IN_USE"]);
    const other = await send(JSON.stringify(newMember()));
    expect([other.status, other.body.code]).toEqual([422, "IDEMPOTENCY_KEY_REUSED"]);
    expect(await membersWith(body.email)).toBe(0);
    await store.keep(claim.running, { status: 201, headers: { "content-type": "application/json" }, body: new TextEncoder().encode('{"kept":true}') });
    const replay = await send(bytes);
    expect([replay.status, replay.text, replay.headers.get("idempotent-replayed")]).toEqual([201, '{"kept":true}', "true"]);
  });

  it("a running key is held by its process only: another process (a restart after kill -9) finds it free", async () => {
    const body = newMember();
    const bytes = JSON.stringify(body);
    // The store of a process that died with the request running: nothing of it is on disk.
    const dead = new IdempotencyStore(env.db);
    await dead.claim(`key:${keyed.id}`, "died-1", { clubId: env.clubId, method: "POST", path: manualPath(), hash: sha256Hex(bytes) });
    expect(await keyRow("died-1")).toBeUndefined();
    const res = await add(body, { "idempotency-key": "died-1" });
    expect(res.status).toBe(201);
    expect(await membersWith(body.email)).toBe(1);
  });

  it("a validation 422 is not kept: the client fixes the body and retries with the same key", async () => {
    const body = newMember();
    const bad = await add({ ...body, email: "not-an-email" }, { "idempotency-key": "fix-me" });
    expect([bad.status, bad.body.code]).toEqual([422, "VALIDATION_FAILED"]);
    expect(await keyRow("fix-me")).toBeUndefined();
    const fixed = await add(body, { "idempotency-key": "fix-me" });
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get("idempotent-replayed")).toBeNull();
    expect(await membersWith(body.email)).toBe(1);
  });

  it("a malformed JSON body (400) is not kept either", async () => {
    const bad = await env.call("POST", manualPath(), {
      key: keyed.api_key,
      rawBody: "{oops",
      headers: { "content-type": "application/json", "idempotency-key": "malformed-1" },
    });
    expect(bad.status).toBe(400);
    expect(await keyRow("malformed-1")).toBeUndefined();
  });

  it("a business refusal is kept: the retry gets the same 409 without running again", async () => {
    const body = newMember();
    expect((await add(body)).status).toBe(201);
    const refused = await add(body, { "idempotency-key": "taken-1" });
    expect([refused.status, refused.body.code]).toEqual([409, "MEMBER_EMAIL_TAKEN"]);
    const again = await add(body, { "idempotency-key": "taken-1" });
    expect([again.status, again.text, again.headers.get("idempotent-replayed")]).toEqual([409, refused.text, "true"]);
  });

  it("a dashboard session's writes take it too: a DELETE replays its answer; a new API key's secret is never kept", async () => {
    const login = await env.call("POST", "/api/auth/login", { key: null, body: { email: "owner@test.org", password: "owner-password" } });
    const session = login.body.token as string;
    expect(typeof session).toBe("string");
    const created = await env.call("POST", "/api/account/api-keys", {
      key: session,
      body: { name: "Once", scopes: { members: "view" } },
      headers: { "idempotency-key": "new-key-1" },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("cache-control")).toBe("no-store");
    const stored = await env.db.read.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, "new-key-1"));
    expect(stored).toEqual([]);
    const path = `/api/account/api-keys/${created.body.id}`;
    const first = await env.call("DELETE", path, { key: session, headers: { "idempotency-key": "revoke-1" } });
    expect(first.status).toBe(200);
    const again = await env.call("DELETE", path, { key: session, headers: { "idempotency-key": "revoke-1" } });
    expect([again.status, again.text, again.headers.get("idempotent-replayed")]).toEqual([200, first.text, "true"]);
    // Without the key, the same DELETE runs again and is refused: the replay above did nothing.
    expect((await env.call("DELETE", path, { key: session })).status).toBe(409);
  });

  it("a malformed Idempotency-Key is 422 naming the header, and nothing is done", async () => {
    for (const key of ["", "a b", "x".repeat(256), "tab\there", "clé"]) {
      const body = newMember();
      const res = await add(body, { "idempotency-key": key });
      expect([res.status, res.body.code, res.body.detail?.[0]?.loc]).toEqual([422, "VALIDATION_FAILED", ["header", "Idempotency-Key"]]);
      expect(await membersWith(body.email)).toBe(0);
    }
    const longest = await add(newMember(), { "idempotency-key": "x".repeat(255) });
    expect(longest.status).toBe(201);
  });

  it("a GET ignores the header, whatever it holds", async () => {
    const res = await env.call("GET", `/api/clubs/${env.clubId}/members`, { key: keyed.api_key, headers: { "idempotency-key": "a b" } });
    expect(res.status).toBe(200);
  });

  it("a key older than 24 h is forgotten: the request runs again", async () => {
    const body = newMember();
    expect((await add(body, { "idempotency-key": "old-1" })).status).toBe(201);
    const past = new Date(Date.now() - KEEP_MS - 60_000).toISOString();
    await env.db.tx((t) => t.update(idempotencyKeys).set({ created_at: past }).where(eq(idempotencyKeys.key, "old-1")));
    const again = await add(body, { "idempotency-key": "old-1" });
    expect([again.status, again.body.code, again.headers.get("idempotent-replayed")]).toEqual([409, "MEMBER_EMAIL_TAKEN", null]);
  });
});

describe("the purge job", () => {
  it("deletes the keys past 24 h, keeps the others, and queues the next purge an hour on, only once", async () => {
    const owner = `key:${keyed.id}`;
    const now = new Date(Date.now() + 10 * 60_000);
    const row = (key: string, ageMs: number) => ({
      owner,
      key,
      club_id: env.clubId,
      method: "POST",
      path: "/x",
      request_hash: "h",
      status: 201,
      created_at: new Date(now.getTime() - ageMs).toISOString(),
    });
    await env.db.tx((t) => t.insert(idempotencyKeys).values([row("purge-old", KEEP_MS + 1000), row("purge-young", KEEP_MS - 60_000)]));
    await idempotencyPurge.ensure(env.db);
    await idempotencyPurge.ensure(env.db);
    const pending = () =>
      env.db.read
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, IDEMPOTENCY_PURGE), eq(jobs.status, "pending")));
    expect((await pending()).length).toBe(1);
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config, now });
    const left = await env.db.read.select({ key: idempotencyKeys.key }).from(idempotencyKeys).where(sql`${idempotencyKeys.key} like 'purge-%'`);
    expect(left.map((r) => r.key)).toEqual(["purge-young"]);
    const [done] = await env.db.read
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, IDEMPOTENCY_PURGE), eq(jobs.status, "done")));
    expect(done.outcome).toMatch(/^\d+ purged$/);
    const next = await pending();
    expect(next.length).toBe(1);
    expect(next[0].run_after).toBe(new Date(now.getTime() + PURGE_EVERY_MS).toISOString());
  });
});

describe("X-Request-Id", () => {
  it("the client's sane id is echoed, in the header, the error body and the audit row", async () => {
    const res = await env.call("POST", manualPath(), { key: keyed.api_key, body: { first_name: "" }, headers: { "x-request-id": "trace-idem-42" } });
    expect(res.status).toBe(422);
    expect(res.headers.get("x-request-id")).toBe("trace-idem-42");
    expect(res.body.request_id).toBe("trace-idem-42");
    await env.app.audit.drain();
    const rows = await env.db.read.select().from(auditLog).where(eq(auditLog.request_id, "trace-idem-42"));
    expect(rows.map((r) => [r.method, r.path, r.status])).toEqual([["POST", manualPath(), 422]]);
  });

  it("an insane id (a quote, a space, too long, not ASCII) is replaced by a new one, used everywhere", async () => {
    for (const sent of ['a "quoted" id', "has space", "y".repeat(129), "naïve"]) {
      const res = await env.call("GET", `/api/clubs/${env.clubId}/members/${crypto.randomUUID()}/nothing`, { headers: { "x-request-id": sent } });
      const id = res.headers.get("x-request-id") as string;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.status).toBe(404);
      expect(res.body.request_id).toBe(id);
    }
  });

  it("every error body carries the answer's id: 401, 403, 404, 405, 409, 422 and a business refusal", async () => {
    const cases: [string, string, Parameters<TestEnv["call"]>[2]][] = [
      ["GET", `/api/clubs/${env.clubId}/members`, { key: null }],
      ["GET", `/api/clubs/${crypto.randomUUID()}/members`, {}],
      ["GET", "/api/nowhere", {}],
      ["DELETE", `/api/clubs/${env.clubId}/stats`, {}],
      ["POST", manualPath(), { body: {} }],
      ["GET", `/api/clubs/${env.clubId}/members/${crypto.randomUUID()}/history`, {}],
    ];
    for (const [method, path, opts] of cases) {
      const res = await env.call(method, path, opts);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.body.request_id).toBe(res.headers.get("x-request-id"));
    }
  });

  it("the audit log lists a row's request_id and finds a request by it", async () => {
    const res = await env.call("GET", `/api/auth/me`, { headers: { "x-request-id": "find-me-7" } });
    expect(res.status).toBe(200);
    await env.app.audit.drain();
    const log = await env.call("GET", `/api/clubs/${env.clubId}/audit-log?request_id=find-me-7`);
    expect(log.status).toBe(200);
    expect(log.body.items.map((i: { path: string; request_id: string }) => [i.path, i.request_id])).toEqual([["/api/auth/me", "find-me-7"]]);
  });
});

describe("the OpenAPI description", () => {
  it("documents Idempotency-Key on every write by a caller, X-Request-Id in and out everywhere, Idempotent-Replayed and the new codes", async () => {
    const doc = (await env.call("GET", "/api/public/openapi.json", { key: null })).body;
    expect(doc.components.parameters.IdempotencyKey).toMatchObject({ name: "Idempotency-Key", in: "header", schema: { minLength: 1, maxLength: 255 } });
    expect(doc.components.parameters.RequestId).toMatchObject({ name: "X-Request-Id", in: "header" });
    expect(doc.components.schemas.ErrorResponse.required).toContain("request_id");
    let writes = 0;
    type Op = { parameters?: { $ref?: string }[]; security: unknown[]; responses: Record<string, { description: string; headers?: Record<string, unknown> }> };
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Op>>)) {
      for (const [method, op] of Object.entries(ops)) {
        const refs = (op.parameters ?? []).map((p) => p.$ref);
        expect([path, method, refs.includes("#/components/parameters/RequestId")]).toEqual([path, method, true]);
        const isWrite = ["post", "put", "patch", "delete"].includes(method) && op.security.length > 0;
        expect([path, method, refs.includes("#/components/parameters/IdempotencyKey")]).toEqual([path, method, isWrite]);
        for (const answer of Object.values(op.responses)) {
          expect(answer.headers?.["X-Request-Id"]).toEqual({ $ref: "#/components/headers/RequestId" });
          expect(!!answer.headers?.["Idempotent-Replayed"]).toBe(isWrite);
        }
        if (!isWrite) continue;
        writes++;
        expect(op.responses["409"].description).toContain("IDEMPOTENCY_KEY_IN_USE");
        expect(op.responses["422"].description).toContain("IDEMPOTENCY_KEY_REUSED");
      }
    }
    expect(writes).toBeGreaterThan(10);
  });
});
