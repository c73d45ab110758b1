// A database that cannot serve after the start (issue 18, item 6): held busy by another process
// past the busy timeout, turned read-only, full, failing with an I/O error. Each is a 503 with
// Retry-After from the one place errors become answers, for HTTP and MCP alike, never a 500.
import { Database } from "bun:sqlite";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "bun:test";
import { errorAnswer } from "../../http/errors";
import { setup, type TestEnv } from "../helpers";
import { onPostgres } from "../databases";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());
afterEach(() => {
  if (onPostgres) return;
  env.db.raw.exec("PRAGMA query_only = 0");
  env.db.raw.exec("PRAGMA busy_timeout = 5000");
});

const member = (email: string) => ({ first_name: "Ada", last_name: "Lovelace", email, membership_end: "2030-01-01" });

// SQLite's own ways of failing; PostgreSQL going away is test/server/postgres.test.ts.
describe.skipIf(onPostgres)("the database held by another process past the busy timeout", () => {
  it("answers 503 DATABASE_BUSY with Retry-After, in the caller's language, then serves again", async () => {
    // Another process (the CLI, a backup) holds the write lock; the server waits 20 ms, not 5 s.
    env.db.raw.exec("PRAGMA busy_timeout = 20");
    const other = new Database(env.db.path);
    other.exec("BEGIN IMMEDIATE");
    try {
      const read = await env.call("GET", "/api/auth/me", { headers: { "accept-language": "en" } });
      expect(read.status).toBe(503);
      expect(read.headers.get("retry-after")).toBe("1");
      expect(read.body.code).toBe("DATABASE_BUSY");
      const write = await env.call("POST", `/api/clubs/${env.clubId}/members/manual`, { body: member("busy@example.org") });
      expect(write.status).toBe(503);
      expect(write.body).toEqual({
        detail: "La base de données est occupée : réessayez dans un instant.",
        code: "DATABASE_BUSY",
        request_id: expect.any(String),
      });
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    expect((await env.call("GET", "/api/auth/me")).status).toBe(200);
  });
});

describe.skipIf(onPostgres)("the database turned read-only", () => {
  it("answers a write 503 DATABASE_CANNOT_WRITE with Retry-After, and stores nothing", async () => {
    env.db.raw.exec("PRAGMA query_only = 1");
    const res = await env.call("POST", `/api/clubs/${env.clubId}/members/manual`, { body: member("readonly@example.org") });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("30");
    expect(res.body.code).toBe("DATABASE_CANNOT_WRITE");
    env.db.raw.exec("PRAGMA query_only = 0");
    const list = await env.call("GET", `/api/clubs/${env.clubId}/members?search=readonly@`);
    expect(list.body.total).toBe(0);
  });

  it("answers an MCP request 503 with Retry-After (its audit row cannot be written)", async () => {
    env.db.raw.exec("PRAGMA query_only = 1");
    const res = await env.app.handle(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: { authorization: `Bearer ${env.key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_club", arguments: {} } }),
      }),
    );
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("30");
    expect(((await res.json()) as { code: string }).code).toBe("DATABASE_CANNOT_WRITE");
  });
});

describe("errorAnswer, the one mapping for HTTP and MCP tool errors", () => {
  const sqlite = (code: string) => Object.assign(new Error(code), { code });
  // Drizzle wraps the driver's error; the code is found in the chain.
  const wrapped = (code: string) => Object.assign(new Error("Failed query"), { cause: sqlite(code) });

  it("a full disk, an I/O error, a read-only file: 503 DATABASE_CANNOT_WRITE, Retry-After 30", () => {
    for (const code of ["SQLITE_FULL", "SQLITE_IOERR_WRITE", "SQLITE_READONLY"]) {
      const answer = errorAnswer(wrapped(code), "en");
      expect(answer.status).toBe(503);
      expect(answer.headers).toEqual({ "retry-after": "30" });
      expect(answer.body.code).toBe("DATABASE_CANNOT_WRITE");
    }
  });

  it("busy: 503 DATABASE_BUSY, Retry-After 1; any other database error stays a 500", () => {
    expect(errorAnswer(sqlite("SQLITE_BUSY"), "de")).toEqual({
      status: 503,
      body: { detail: "Die Datenbank ist belegt: bitte gleich noch einmal versuchen.", code: "DATABASE_BUSY" },
      headers: { "retry-after": "1" },
    });
    expect(errorAnswer(wrapped("SQLITE_CONSTRAINT_UNIQUE"), "en").status).toBe(500);
  });
});
