// The OpenAPI tells every answer (issue 18 item 10): the statuses the pipeline gives every route
// (400 where a body is read, 413 wherever a body may be sent) and the routes' own (the login's
// 401, the check-in's 409) are documented, the export and the .ics list their answers, and a
// route that takes no body never answers 400 for a stray one. The fuzzer's strict-status mode
// (test/reliability/openapi-fuzz.rel.ts) checks every answered status against the document.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
let paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, { content?: Record<string, unknown> }> }>>;
beforeAll(async () => {
  env = await setup();
  paths = (await env.call("GET", "/api/public/openapi.json", { key: null })).body.paths;
});
afterAll(() => env.close());

const ops = () => Object.entries(paths).flatMap(([path, byMethod]) => Object.entries(byMethod).map(([method, op]) => ({ path, method, op })));

describe("documented statuses", () => {
  it("every operation that reads a body documents 400; every one that may carry a body documents 413", () => {
    for (const { path, method, op } of ops()) {
      const statuses = Object.keys(op.responses);
      if (op.requestBody) expect([method, path, statuses.includes("400")]).toEqual([method, path, true]);
      if (method !== "get") expect([method, path, statuses.includes("413")]).toEqual([method, path, true]);
    }
  });

  it("the login documents 401, the check-in 409; the export and the .ics list their media types", () => {
    expect(Object.keys(paths["/api/auth/login"].post.responses)).toContain("401");
    expect(Object.keys(paths["/api/clubs/{club_id}/events/{event_id}/checkin"].post.responses)).toContain("409");
    expect(Object.keys(paths["/api/clubs/{club_id}/members/export"].get.responses["200"].content ?? {}).sort()).toEqual(["application/pdf", "text/csv"]);
    expect(Object.keys(paths["/api/public/registrations/{qr_token}/ics"].get.responses["200"].content ?? {})).toEqual(["text/calendar"]);
  });

  it("a check-in at a cancelled event answers the documented 409", async () => {
    const e = await env.call("POST", `/api/clubs/${env.clubId}/events`, { body: { title: "Annulé", starts_at: "2031-01-01T18:00:00Z" } });
    expect((await env.call("PATCH", `/api/clubs/${env.clubId}/events/${e.body.id}`, { body: { status: "cancelled" } })).status).toBe(200);
    const res = await env.call("POST", `/api/clubs/${env.clubId}/events/${e.body.id}/checkin`, { body: { code: "ABCDEFGH" } });
    expect(res.status).toBe(409);
  });

  it("a route without a body ignores a malformed one (no 400)", async () => {
    const res = await env.call("POST", `/api/clubs/${env.clubId}/members/${crypto.randomUUID()}/send-card-email`, {
      rawBody: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("MEMBER_NOT_FOUND");
  });
});
