// Errors (DESIGN.md section 5): always JSON with `detail` and `code`, in the club's language,
// never a 500 for bad input; the body-size limit; the rate limit (SPEC "Limits").
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { admins, clubs } from "../../db/schema";
import { setup, type TestEnv } from "../helpers";
import { seedMember } from "../members-fixtures";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

describe("errors", () => {
  it("400 for malformed JSON, in French by default", async () => {
    const res = await env.call("PUT", `/api/clubs/${env.clubId}`, { rawBody: "{not json", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      detail: "Le corps de la requête n'est pas du JSON valide.",
      code: "MALFORMED_BODY",
      request_id: res.headers.get("x-request-id"),
    });
  });

  it("400 for an upload's multipart body cut short: the form could not be read (not 'not valid JSON'), nothing imported", async () => {
    const cut =
      '--zzz\r\nContent-Disposition: form-data; name="file"; filename="m.csv"\r\nContent-Type: text/csv\r\n\r\nfirst_name,last_name,email\r\nAda,Lovelace,ada@example.org';
    const res = await env.call("POST", `/api/clubs/${env.clubId}/members/import`, {
      rawBody: cut,
      headers: { "content-type": "multipart/form-data; boundary=zzz" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ detail: "Le formulaire envoyé n'a pas pu être lu.", code: "MALFORMED_FORM" });
    const listed = await env.call("GET", `/api/clubs/${env.clubId}/members?search=lovelace`);
    expect(listed.body.total).toBe(0);
  });

  it("415 for a JSON route's body sent as a form or as text (SPEC: request bodies are JSON), with nothing stored", async () => {
    const before = (await env.call("GET", `/api/clubs/${env.clubId}`)).body.name;
    const form = new FormData();
    form.set("name", "Renamed by a form");
    const sent: [string, BodyInit, Record<string, string>][] = [
      ["urlencoded", "name=Renamed+by+a+form", { "content-type": "application/x-www-form-urlencoded" }],
      ["multipart", form, {}],
      ["text", JSON.stringify({ name: "Renamed by a form" }), { "content-type": "text/plain" }],
      ["no type", JSON.stringify({ name: "Renamed by a form" }), {}],
    ];
    for (const [kind, rawBody, headers] of sent) {
      const res = await env.call("PUT", `/api/clubs/${env.clubId}`, { rawBody, headers });
      expect({ kind, status: res.status, code: res.body.code }).toEqual({ kind, status: 415, code: "UNSUPPORTED_MEDIA_TYPE" });
      expect(res.body.detail).toContain("application/json");
    }
    expect((await env.call("GET", `/api/clubs/${env.clubId}`)).body.name).toBe(before);
    // JSON under its type, with a charset, is read; no body at all is the schema's to judge, whatever the type says (all optional here).
    const json = await env.call("PUT", `/api/clubs/${env.clubId}`, {
      rawBody: JSON.stringify({ name: before }),
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(json.status).toBe(200);
    const none = await env.call("PUT", `/api/clubs/${env.clubId}`, { rawBody: "", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(none.status).toBe(200);
  });

  it("401, not 400, for a malformed body sent with a bad key", async () => {
    const res = await env.call("PUT", `/api/clubs/${env.clubId}`, {
      key: "mk_live_nope",
      rawBody: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(401);
  });

  it("401 speaks the Accept-Language when no club is known yet", async () => {
    const de = await env.call("GET", "/api/auth/me", { key: null, headers: { "accept-language": "de-CH,de;q=0.9,en;q=0.5" } });
    expect(de.body.detail).toBe("API-Schlüssel fehlt oder ist ungültig.");
    const it_ = await env.call("GET", "/api/auth/me", { key: null, headers: { "accept-language": "it" } });
    expect(it_.body.detail).toBe("Chiave API mancante o non valida.");
    const unknown = await env.call("GET", "/api/auth/me", { key: null, headers: { "accept-language": "ja" } });
    expect(unknown.body.detail).toBe("Clé d'API manquante ou invalide.");
  });

  it("follows the club's locale for a known key, whatever Accept-Language says", async () => {
    await env.db.tx((t) => t.update(clubs).set({ locale: "it" }).where(eq(clubs.id, env.clubId)));
    const res = await env.call("PUT", `/api/clubs/${env.clubId}`, { rawBody: "{", headers: { "content-type": "application/json", "accept-language": "en" } });
    expect(res.body.detail).toBe("Il corpo della richiesta non è un JSON valido.");
    await env.db.tx((t) => t.update(clubs).set({ locale: "fr" }).where(eq(clubs.id, env.clubId)));
  });

  it("takes ids in upper case as the same ids (a UUID has no case)", async () => {
    const m = await seedMember(env);
    const res = await env.call("POST", `/api/clubs/${env.clubId.toUpperCase()}/members/${m.id.toUpperCase()}/actions/suspend`, { body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: m.id, status: "suspended" });
  });

  it("an id segment that is no valid UTF-8 once decoded is refused, never a 500", async () => {
    const m = await seedMember(env);
    const club = await env.call("POST", `/api/clubs/%ED%A0%80/members/${m.id}/actions/suspend`, { body: {} });
    expect(club.status).toBe(403);
    expect(club.body.code).toBe("CLUB_FORBIDDEN");
    const member = await env.call("POST", `/api/clubs/${env.clubId}/members/%ED%A0%80/actions/suspend`, { body: {} });
    expect(member.status).toBe(422);
    expect(member.body.detail[0].loc).toEqual(["path", "member_id"]);
  });

  it("404 for an unknown route, as JSON", async () => {
    const res = await env.call("GET", "/api/clubs/nothing/here");
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("ROUTE_NOT_FOUND");
    expect(res.headers.get("content-type")).toContain("application/json");
  });

  it("403 for a club_id path parameter that is not the key's club, even when not a UUID", async () => {
    const res = await env.call("PUT", "/api/clubs/not-a-uuid", { body: {} });
    expect(res.status).toBe(403);
  });

  it("422 with detail items for wrong types, and no 500 for odd input", async () => {
    for (const body of [{ name: 12 }, { latitude: "north" }, { card_locations: "here" }, { name: "x".repeat(100_000) }, [], "text", null]) {
      const res = await env.call("PUT", `/api/clubs/${env.clubId}`, { body });
      expect(res.status).toBeOneOf([400, 422]);
      if (res.status === 422) {
        expect(Array.isArray(res.body.detail)).toBe(true);
        for (const item of res.body.detail) {
          expect(item.loc[0]).toBe("body");
          expect(item.msg).toBeString();
          expect(item.type).toBeString();
        }
      }
    }
    const huge = await env.call("PUT", `/api/clubs/${env.clubId}`, {
      rawBody: '{"membership_fee_cents": 1e309}',
      headers: { "content-type": "application/json" },
    });
    expect(huge.status).toBe(422);
  });

  it("422 for JSON nested deeper than 64 levels, at once and with nothing stored, on every kind of route", async () => {
    const [before] = await env.db.read.select().from(clubs).where(eq(clubs.id, env.clubId));
    const deep = (n: number) => `{"description":"deep","x":${"[".repeat(n)}${"]".repeat(n)}}`;
    const json = { "content-type": "application/json" };
    const started = performance.now();
    for (const [method, path, key] of [
      ["PUT", `/api/clubs/${env.clubId}`, env.key],
      ["POST", "/api/auth/login", null],
      ["POST", "/mcp", env.key],
    ] as const) {
      const res = await env.call(method, path, { key, rawBody: deep(100_000), headers: { ...json, accept: "application/json, text/event-stream" } });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe("VALIDATION_FAILED");
      expect(res.body.detail[0]).toMatchObject({ loc: ["body"], type: "body_too_deep" });
      expect(res.body.detail[0].msg).toContain("64");
    }
    expect(performance.now() - started).toBeLessThan(2000);
    const [after] = await env.db.read.select().from(clubs).where(eq(clubs.id, env.clubId));
    expect(after.updated_at).toBe(before.updated_at);
    // 64 levels pass the check (and meet the route's own validation); brackets inside strings do not count.
    const ok = await env.call("PUT", `/api/clubs/${env.clubId}`, { rawBody: deep(63), headers: json });
    expect(ok.status).not.toBe(500);
    expect(ok.body.detail?.[0]?.type).not.toBe("body_too_deep");
    const quoted = await env.call("PUT", `/api/clubs/${env.clubId}`, { rawBody: JSON.stringify({ description: "[".repeat(500) }), headers: json });
    expect(quoted.status).toBe(200);
  });

  it("413 beyond 1 MB, announced or streamed", async () => {
    const big = JSON.stringify({ description: "x".repeat(1024 * 1024 + 10) });
    const res = await env.call("PUT", `/api/clubs/${env.clubId}`, { rawBody: big, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe("PAYLOAD_TOO_LARGE");
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const req = new Request(`http://localhost/api/clubs/${env.clubId}`, {
      method: "PUT",
      body: stream,
      headers: { authorization: `Bearer ${env.key}`, "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);
    req.headers.delete("content-length");
    expect((await env.app.handle(req)).status).toBe(413);
  });
});

describe("rate limit", () => {
  it("lets 300 requests a minute through per key, refuses the 301st with Retry-After, and counts every outcome", async () => {
    const key = await env.makeKey({ page: "edit" });
    let last: Awaited<ReturnType<typeof env.call>> | undefined;
    for (let i = 0; i < 300; i++) {
      // Mix successes and failures: every request counts, whatever its outcome.
      last =
        i % 3 === 0
          ? await env.call("PUT", `/api/clubs/${env.clubId}`, { key, body: { primary_color: "bad" } })
          : await env.call("GET", "/api/auth/me", { key });
      expect(last.status).not.toBe(429);
    }
    expect(last?.headers.get("ratelimit-limit")).toBe("300");
    expect(last?.headers.get("ratelimit-remaining")).toBe("0");
    const refused = await env.call("GET", "/api/auth/me", { key });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("RATE_LIMITED");
    const retry = Number(refused.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    // Another key is not affected.
    expect((await env.call("GET", "/api/auth/me")).status).toBe(200);
  });

  it("counts none of the requests a key is refused with 401: once its admin's access is given back, it has its whole minute", async () => {
    const admin = await env.makeAdmin({ accessExpiresAt: "2020-01-01T00:00:00.000Z" });
    const key = await env.makeKey({ members: "view" }, { adminId: admin.id });
    for (let i = 0; i < 5; i++) expect((await env.call("GET", "/api/auth/me", { key })).body.code).toBe("ADMIN_ACCESS_ENDED");
    await env.db.tx((t) => t.update(admins).set({ access_expires_at: null }).where(eq(admins.id, admin.id)));
    const first = await env.call("GET", "/api/auth/me", { key });
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-remaining")).toBe("299");
  });

  it("puts RateLimit headers on every answer made with a key", async () => {
    const res = await env.call("GET", "/api/auth/me");
    expect(res.headers.get("ratelimit-limit")).toBe("300");
    expect(Number(res.headers.get("ratelimit-remaining"))).toBeLessThan(300);
    expect(Number(res.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
  });
});
