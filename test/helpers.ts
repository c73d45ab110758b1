// Test fixtures: a real database (a SQLite file in a temp folder, or a PostgreSQL database when
// the run says so: test/databases.ts) with the migrations applied, the real app
// behind `app.handle`, a club with its owner and all-edit key, and helpers to call the API as a
// client would and to make more keys, admins and clubs.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { openDb } from "../db";
import { apiKeys } from "../db/schema";
import { createAdmin } from "../lib/auth/admins";
import { createApiKey } from "../lib/auth/keys";
import { allScopes, type Scopes } from "../lib/access";
import { initClub } from "../lib/auth/init";
import { loadConfig } from "../lib/config";
import { createApp } from "../app";
import { dropDatabase, freshDatabaseUrl } from "./databases";

export type CallOptions = { key?: string | null; body?: unknown; rawBody?: BodyInit; headers?: Record<string, string> };
export type CallResult = { status: number; body: any; headers: Headers; text: string };

export async function setup(env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "club-test-"));
  // No form challenge unless a test asks for one (test/routes/bots.test.ts does): the suites
  // register through the public route as an API client would with the check turned off.
  const config = loadConfig({
    DATABASE_URL: await freshDatabaseUrl(dir),
    OUTBOX_DIR: join(dir, "outbox"),
    BASE_URL: "http://localhost",
    LOG_LEVEL: "silent",
    PUBLIC_FORM_POW_BITS: "0",
    CHECK_RESPONSES: "true",
    ...env,
  });
  const db = await openDb(config.databaseUrl);
  const app = await createApp(db, config);
  const first = await initClub(db, { clubName: "Club de test", email: "owner@test.org", password: "owner-password" });

  async function call(method: string, path: string, opts: CallOptions = {}): Promise<CallResult> {
    const headers: Record<string, string> = { ...opts.headers };
    const key = opts.key === undefined ? first.api_key : opts.key;
    if (key) headers.authorization = `Bearer ${key}`;
    let body: BodyInit | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await app.handle(new Request(`http://localhost${path}`, { method, headers, body }));
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: res.status, body: parsed, headers: res.headers, text };
  }

  /** A key of the first club's owner (or of `adminId`) with exactly these scopes. */
  async function makeKey(scopes: Scopes, opts: { adminId?: string; expiresAt?: string } = {}) {
    const none = !Object.keys(scopes).length;
    const created = await createApiKey(db, { adminId: opts.adminId ?? first.admin_id, scopes: none ? { members: "view" } : scopes });
    // Written after: a key cannot be created already expired, nor without an area (KEY_SCOPES_EMPTY),
    // and tests need both (a database from before that rule may hold a key of no area).
    if (opts.expiresAt) await db.tx((t) => t.update(apiKeys).set({ expires_at: opts.expiresAt }).where(eq(apiKeys.id, created.id)));
    if (none) await db.tx((t) => t.update(apiKeys).set({ scopes: {} }).where(eq(apiKeys.id, created.id)));
    return created.api_key;
  }

  async function makeAdmin(opts: { readOnly?: boolean; accessExpiresAt?: string; email?: string } = {}) {
    return db.tx((t) =>
      createAdmin(t, {
        clubId: first.club_id,
        email: opts.email ?? `admin-${crypto.randomUUID()}@test.org`,
        readOnly: opts.readOnly,
        accessExpiresAt: opts.accessExpiresAt,
        password: "admin-password",
      }),
    );
  }

  /** A second club with its own owner and key, to prove nothing crosses clubs. */
  async function otherClub() {
    return initClub(db, { clubName: "Autre club", email: `other-${crypto.randomUUID()}@test.org` });
  }

  async function close() {
    await app.audit.drain();
    await db.close();
    await dropDatabase(config.databaseUrl);
    rmSync(dir, { recursive: true, force: true });
  }

  return {
    dir,
    config,
    db,
    app,
    clubId: first.club_id,
    adminId: first.admin_id,
    key: first.api_key,
    call,
    makeKey,
    makeAdmin,
    otherClub,
    close,
    allEdit: allScopes("edit"),
  };
}

export type TestEnv = Awaited<ReturnType<typeof setup>>;
