// The admin CLI (scripts/cli.ts), run as a real subprocess on a temporary database file: its
// JSON output, its exit codes (0 done, 1 refused, 2 wrong command line), and what the database
// holds afterwards (keys resolve through the same code the API uses).
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { type Db, openDb } from "../db";
import { admins, apiKeys, clubs, eventRegistrations, members } from "../db/schema";
import { CallerRefused, resolveCaller } from "../lib/auth/caller";
import { allScopes } from "../lib/access";
import { sha256Hex } from "../lib/ids";
import { operatorCtx } from "../lib/auth/operator";
import { loadConfig } from "../lib/config";
import { createTier } from "../lib/tiers";
import { freshDatabaseUrl, onPostgres } from "./databases";

const ROOT = join(import.meta.dir, "..");
let dir: string;
let dbPath: string;

// biome-ignore lint/suspicious/noExplicitAny: the parsed JSON of every command's answer
type Run = { code: number; stdout: string; stderr: string; json: any };

/** Runs `bun scripts/cli.ts ...args` on `database` (default: the suite's file). */
async function cli(args: string[], database = dbPath): Promise<Run> {
  const proc = Bun.spawn(["bun", "scripts/cli.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: database },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  let json: unknown;
  if (args.includes("--json")) {
    // Exactly one JSON object and nothing else: one line that parses as an object.
    expect(stdout.endsWith("\n")).toBe(true);
    expect(stdout.trimEnd().includes("\n")).toBe(false);
    json = JSON.parse(stdout);
    expect(typeof json).toBe("object");
    expect(Array.isArray(json)).toBe(false);
  }
  return { code, stdout, stderr, json };
}

/** A refusal: the exit code, one line on stderr, and with --json the error object on stdout. */
function expectError(run: Run, exitCode: number, code: string) {
  expect(run.code).toBe(exitCode);
  expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(run.stderr.startsWith("error: ")).toBe(true);
  if (run.json !== undefined) {
    expect(Object.keys(run.json)).toEqual(["error"]);
    expect(run.json.error.code).toBe(code);
    expect(run.stderr).toBe(`error: ${run.json.error.detail}\n`);
  }
}

/** Opens the suite's database as the server would, for one check. */
async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const db = await openDb(dbPath);
  try {
    return await fn(db);
  } finally {
    db.close();
  }
}

let club: { club_id: string; admin_id: string; api_key: string; sign_in_url?: string };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "club-cli-"));
  dbPath = await freshDatabaseUrl(dir);
  const run = await cli(["init", "--club-name", "Club Alpin", "--email", "Owner@Alpin.test", "--locale", "en", "--currency", "eur", "--json"]);
  expect(run.code).toBe(0);
  club = run.json;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("cli init", () => {
  it("creates the club, its owner and an all-edit key that the API accepts", async () => {
    // No --password: the owner gets a one-time link to choose one in the dashboard.
    expect(Object.keys(club).sort()).toEqual(["admin_id", "api_key", "club_id", "sign_in_url"]);
    expect(club.sign_in_url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/admin\/welcome\?token=[0-9A-Za-z]{43}$/);
    expect(club.api_key).toMatch(/^mk_live_[0-9A-Za-z]{32,}$/);
    await withDb(async (db) => {
      const [row] = await db.read.select().from(clubs).where(eq(clubs.id, club.club_id));
      expect(row.slug).toBe("club-alpin");
      expect(row.name).toBe("Club Alpin");
      expect(row.locale).toBe("en");
      expect(row.currency).toBe("EUR");
      const [admin] = await db.read.select().from(admins).where(eq(admins.id, club.admin_id));
      expect(admin).toMatchObject({ club_id: club.club_id, email: "owner@alpin.test", role: "owner", read_only: false });
      // Only the hash is stored.
      const keys = await db.read.select().from(apiKeys).where(eq(apiKeys.club_id, club.club_id));
      expect(keys).toHaveLength(1);
      expect(keys[0].key_hash).toBe(sha256Hex(club.api_key));
      expect(JSON.stringify(keys)).not.toContain(club.api_key);
      const caller = await resolveCaller(db, `Bearer ${club.api_key}`);
      expect(caller).toMatchObject({ kind: "key", clubId: club.club_id, adminId: club.admin_id, locale: "en", scopes: allScopes("edit") });
    });
  });

  it("prints readable lines without --json", async () => {
    const run = await cli(["init", "--club-name", "Club Lisible", "--email", "owner@lisible.test"], join(dir, "other.db"));
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^Club created: [0-9a-f-]{36}$/m);
    expect(run.stdout).toMatch(/^API key: +mk_live_\w+$/m);
    expect(run.stdout).toMatch(/^Sign in: +http:\/\/\S+\/admin\/welcome\?token=\w+$/m);
    expect(() => JSON.parse(run.stdout)).toThrow();
  });

  it("gives no sign-in link to an owner given a password", async () => {
    const run = await cli(
      ["init", "--club-name", "Club Secret", "--email", "owner@secret.test", "--password", "a long owner password", "--json"],
      join(dir, "secret.db"),
    );
    expect(run.code).toBe(0);
    expect(Object.keys(run.json).sort()).toEqual(["admin_id", "api_key", "club_id"]);
  });

  it("refuses an email already in use (exit 1) and creates nothing", async () => {
    const run = await cli(["init", "--club-name", "Doublon", "--email", "owner@alpin.test", "--json"]);
    expectError(run, 1, "EMAIL_TAKEN");
    expect(run.json.error.detail).toBe("The address owner@alpin.test is already in use.");
    const n = await withDb(async (db) => (await db.read.select().from(clubs)).length);
    expect(n).toBe(1);
  });
});

describe("cli command line errors (exit 2)", () => {
  const fresh = () => join(dir, `untouched-${crypto.randomUUID()}.db`);
  const cases: [string, string[]][] = [
    ["no command", ["--json"]],
    ["an unknown command", ["frobnicate", "--json"]],
    ["an unknown subcommand", ["keys", "rotate", "--json"]],
    ["an unknown flag", ["init", "--club-name", "X", "--email", "a@b.test", "--colour", "red", "--json"]],
    ["a missing flag", ["init", "--club-name", "X", "--json"]],
    ["a flag without its value", ["init", "--club-name", "X", "--email", "--json"]],
    ["a bad email", ["init", "--club-name", "X", "--email", "not-an-email", "--json"]],
    ["an unknown locale", ["init", "--club-name", "X", "--email", "a@b.test", "--locale", "es", "--json"]],
    ["a bad currency", ["init", "--club-name", "X", "--email", "a@b.test", "--currency", "EURO", "--json"]],
    ["an unknown role", ["admins", "create", "--club", "x", "--email", "a@b.test", "--role", "king", "--json"]],
    ["a bad date", ["admins", "create", "--club", "x", "--email", "a@b.test", "--access-expires-at", "tomorrow", "--json"]],
    ["bad scopes", ["keys", "create", "--email", "a@b.test", "--scopes", "members:admin", "--json"]],
    ["an unknown scope area", ["keys", "create", "--email", "a@b.test", "--scopes", "bank:view", "--json"]],
    ["a missing argument", ["keys", "revoke", "--json"]],
    ["an extra argument", ["backup", "a.db", "b.db", "--json"]],
  ];
  for (const [what, args] of cases) {
    it(`answers ${what} with one line and exit 2, without touching the database`, async () => {
      const database = fresh();
      const run = await cli(args, database);
      expectError(run, 2, "USAGE");
      expect(existsSync(database)).toBe(false);
    });
  }

  it("without --json prints nothing on stdout", async () => {
    const run = await cli(["frobnicate"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe('error: unknown command "frobnicate"; see "bun run cli help"\n');
  });

  it("help lists every command and exits 0", async () => {
    const run = await cli(["help"]);
    expect(run.code).toBe(0);
    for (const c of ["init", "admins create", "keys create", "keys list", "keys revoke", "backup"]) expect(run.stdout).toContain(`  ${c} `);
  });
});

describe("cli admins create", () => {
  it("adds a read-only admin with an end date to the club (found by id or slug)", async () => {
    const run = await cli([
      "admins",
      "create",
      "--club",
      "club-alpin",
      "--email",
      "ro@alpin.test",
      "--read-only",
      "--access-expires-at",
      "2099-01-31",
      "--json",
    ]);
    expect(run.code).toBe(0);
    expect(Object.keys(run.json)).toEqual(["admin_id"]);
    const row = await withDb(async (db) => (await db.read.select().from(admins).where(eq(admins.id, run.json.admin_id)))[0]);
    expect(row).toMatchObject({ club_id: club.club_id, email: "ro@alpin.test", role: "admin", read_only: true, access_expires_at: "2099-01-31T00:00:00.000Z" });
    expect(row.password_hash).toBeNull();
  });

  it("stores a password hash and a role", async () => {
    const run = await cli(["admins", "create", "--club", club.club_id, "--email", "staff@alpin.test", "--role", "staff", "--password", "s3cret!", "--json"]);
    expect(run.code).toBe(0);
    const row = await withDb(async (db) => (await db.read.select().from(admins).where(eq(admins.id, run.json.admin_id)))[0]);
    expect(row.role).toBe("staff");
    expect(await Bun.password.verify("s3cret!", row.password_hash!)).toBe(true);
  });

  it("refuses a taken email and an unknown club (exit 1)", async () => {
    expectError(await cli(["admins", "create", "--club", club.club_id, "--email", "RO@alpin.test", "--json"]), 1, "EMAIL_TAKEN");
    const unknown = await cli(["admins", "create", "--club", "no-such-club", "--email", "new@alpin.test", "--json"]);
    expectError(unknown, 1, "CLUB_NOT_FOUND");
    expect(unknown.stderr).toBe("error: Club not found.\n");
    const emails = await withDb(async (db) => (await db.read.select({ email: admins.email }).from(admins)).map((a) => a.email));
    expect(emails).not.toContain("new@alpin.test");
  });
});

describe("cli keys", () => {
  it("creates a key with the given scopes, name and expiry; the API resolves it", async () => {
    const run = await cli([
      "keys",
      "create",
      "--email",
      "owner@alpin.test",
      "--club",
      "club-alpin",
      "--scopes",
      "members:edit,events:view",
      "--expires-at",
      "2099-06-01T12:00:00Z",
      "--name",
      "door scanner",
      "--json",
    ]);
    expect(run.code).toBe(0);
    expect(Object.keys(run.json).sort()).toEqual(["api_key", "id", "prefix"]);
    expect(run.json.prefix).toBe(run.json.api_key.slice(0, 12));
    await withDb(async (db) => {
      const [row] = await db.read.select().from(apiKeys).where(eq(apiKeys.id, run.json.id));
      expect(row).toMatchObject({ name: "door scanner", expires_at: "2099-06-01T12:00:00.000Z", key_hash: sha256Hex(run.json.api_key) });
      const caller = await resolveCaller(db, `Bearer ${run.json.api_key}`);
      expect(caller.scopes).toEqual({ members: "edit", events: "view" });
      expect(caller.keyId).toBe(run.json.id);
    });
  });

  it("gives a read-only admin a view-only key by default, and refuses edit (exit 1)", async () => {
    const ok = await cli(["keys", "create", "--email", "ro@alpin.test", "--json"]);
    expect(ok.code).toBe(0);
    const before = await withDb(async (db) => {
      expect((await resolveCaller(db, `Bearer ${ok.json.api_key}`)).scopes).toEqual(allScopes("view"));
      return (await db.read.select().from(apiKeys)).length;
    });
    const refused = await cli(["keys", "create", "--email", "ro@alpin.test", "--scopes", "members:edit", "--json"]);
    expectError(refused, 1, "SCOPES_EXCEED_ADMIN");
    expect(refused.stderr).toBe("error: A read-only admin can only create view keys.\n");
    expect(await withDb(async (db) => (await db.read.select().from(apiKeys)).length)).toBe(before);
  });

  it("refuses an --expires-at that has passed (exit 1, nothing stored), and a --name that is not one line (exit 2)", async () => {
    const before = await withDb(async (db) => (await db.read.select().from(apiKeys)).length);
    const past = await cli(["keys", "create", "--email", "owner@alpin.test", "--expires-at", "2020-01-01T00:00:00Z", "--json"]);
    expectError(past, 1, "VALIDATION_FAILED");
    expect(past.stderr).toContain("2020-01-01T00:00:00.000Z has already passed");
    const name = await cli(["keys", "create", "--email", "owner@alpin.test", "--name", "door\nscanner", "--json"]);
    expect(name.code).toBe(2);
    expect(await withDb(async (db) => (await db.read.select().from(apiKeys)).length)).toBe(before);
  });

  it("refuses an unknown admin, or an admin of another club (exit 1)", async () => {
    expectError(await cli(["keys", "create", "--email", "nobody@alpin.test", "--json"]), 1, "ADMIN_NOT_FOUND");
    const other = await cli(["init", "--club-name", "Autre", "--email", "owner@autre.test", "--json"]);
    expect(other.code).toBe(0);
    expectError(await cli(["keys", "create", "--email", "owner@alpin.test", "--club", other.json.club_id, "--json"]), 1, "ADMIN_NOT_FOUND");
  });

  it("lists the club's keys without secrets or hashes, and only that club's", async () => {
    const run = await cli(["keys", "list", "--club", club.club_id, "--json"]);
    expect(run.code).toBe(0);
    // Beside the keys, the OAuth grants (none here; test/mcp/oauth.test.ts lists one).
    expect(Object.keys(run.json)).toEqual(["keys", "grants"]);
    expect(run.json.grants).toEqual([]);
    const names = run.json.keys.map((k: { name: string }) => k.name);
    expect(names).toContain("door scanner");
    expect(names).toContain("owner (created at init)");
    for (const k of run.json.keys) {
      expect(Object.keys(k).sort()).toEqual(["admin_id", "created_at", "expires_at", "id", "last_used_at", "name", "prefix", "revoked_at", "scopes"]);
    }
    const count = await withDb(async (db) => (await db.read.select().from(apiKeys).where(eq(apiKeys.club_id, club.club_id))).length);
    expect(run.json.keys).toHaveLength(count);
    expect(run.stdout).not.toContain(club.api_key);
    const human = await cli(["keys", "list", "--club", "club-alpin"]);
    expect(human.stdout).toContain("door scanner");
    expect(human.stdout.trimEnd().split("\n")).toHaveLength(count);
  });

  it("revokes a key by prefix: resolveCaller refuses it from then on; twice is exit 1", async () => {
    const created = await cli(["keys", "create", "--email", "owner@alpin.test", "--json"]);
    await withDb((db) => resolveCaller(db, `Bearer ${created.json.api_key}`));
    const run = await cli(["keys", "revoke", created.json.prefix, "--json"]);
    expect(run.code).toBe(0);
    expect(run.json).toEqual({ revoked: true });
    await withDb(async (db) => {
      const err = await resolveCaller(db, `Bearer ${created.json.api_key}`).catch((e) => e);
      expect(err).toBeInstanceOf(CallerRefused);
      expect(err.code).toBe("KEY_REVOKED");
      // The other keys still work.
      await resolveCaller(db, `Bearer ${club.api_key}`);
    });
    expectError(await cli(["keys", "revoke", created.json.prefix, "--json"]), 1, "KEY_ALREADY_REVOKED");
  });

  it("a revocation by the CLI is seen by a database the server already holds open", async () => {
    const created = await cli(["keys", "create", "--email", "owner@alpin.test", "--json"]);
    const db = await openDb(dbPath);
    try {
      // The key lookup is a prepared statement kept by the open database: it must not see a stale snapshot.
      expect((await resolveCaller(db, `Bearer ${created.json.api_key}`)).keyId).toBe(created.json.id);
      expect((await cli(["keys", "revoke", created.json.id, "--json"])).code).toBe(0);
      const err = await resolveCaller(db, `Bearer ${created.json.api_key}`).catch((e) => e);
      expect(err.code).toBe("KEY_REVOKED");
    } finally {
      db.close();
    }
  });

  it("revokes a key by id, and answers exit 1 for an unknown one", async () => {
    const created = await cli(["keys", "create", "--email", "owner@alpin.test", "--json"]);
    const run = await cli(["keys", "revoke", created.json.id]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Key revoked.\n");
    const err = await withDb((db) => resolveCaller(db, `Bearer ${created.json.api_key}`).catch((e) => e));
    expect(err.code).toBe("KEY_REVOKED");
    expectError(await cli(["keys", "revoke", "mk_live_none", "--json"]), 1, "KEY_NOT_FOUND");
  });
});

describe("cli backup", () => {
  it.skipIf(onPostgres)("writes a valid copy of the database while another connection holds a write transaction", async () => {
    const target = join(dir, "backups", "club-backup.db");
    // A writer in the middle of a transaction: the backup neither waits for it nor sees it.
    const db = await openDb(dbPath);
    let run: Run;
    try {
      db.raw.exec("BEGIN IMMEDIATE");
      db.raw.prepare("UPDATE clubs SET slug = 'uncommitted' WHERE id = ?").run(club.club_id);
      run = await cli(["backup", target, "--json"]);
      db.raw.exec("ROLLBACK");
    } finally {
      db.close();
    }
    expect(run.code).toBe(0);
    expect(run.json).toEqual({ path: target, bytes: statSync(target).size });
    expect(run.json.bytes).toBeGreaterThan(0);
    const copy = new Database(target, { readonly: true });
    try {
      expect(copy.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
      expect(copy.query("SELECT id, slug FROM clubs WHERE id = ?").get(club.club_id)).toEqual({ id: club.club_id, slug: "club-alpin" });
      expect(copy.query("SELECT count(*) AS n FROM api_keys WHERE key_hash = ?").get(sha256Hex(club.api_key))).toEqual({ n: 1 });
    } finally {
      copy.close();
    }
    // No temporary file is left beside it.
    expect([...new Bun.Glob("*").scanSync(join(dir, "backups"))]).toEqual(["club-backup.db"]);
    // The copy's member search index (FTS5, rebuilt in the copy) agrees with its members.
    const restored = new Database(target);
    try {
      expect(() => restored.exec("INSERT INTO members_search(members_search) VALUES ('integrity-check')")).not.toThrow();
    } finally {
      restored.close();
    }
  });

  it.skipIf(!onPostgres)("on PostgreSQL: a pg_dump archive of the committed state, which pg_restore brings back", async () => {
    const target = join(dir, "pg-backups", "club.dump");
    const db = await openDb(dbPath);
    const writer = new (await import("pg")).default.Client({ connectionString: dbPath });
    await writer.connect();
    let run: Run;
    try {
      // A writer in the middle of a transaction: the dump does not see it.
      await writer.query("BEGIN");
      await writer.query("UPDATE clubs SET slug = 'uncommitted' WHERE id = $1", [club.club_id]);
      run = await cli(["backup", target, "--json"]);
      await writer.query("ROLLBACK");
    } finally {
      await writer.end();
      await db.close();
    }
    expect(run.code).toBe(0);
    expect(run.json).toEqual({ path: target, bytes: statSync(target).size });
    expect((await Bun.file(target).text()).startsWith("PGDMP")).toBe(true);
    expect([...new Bun.Glob("*").scanSync(join(dir, "pg-backups"))]).toEqual(["club.dump"]);
    // Restored into an empty database, as the README says.
    const restored = new URL(dbPath);
    restored.pathname = `/restored_${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;
    const admin = new (await import("pg")).default.Client({ connectionString: dbPath });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${restored.pathname.slice(1)}"`);
    await admin.end();
    const restore = Bun.spawnSync(["pg_restore", "--no-owner", `--dbname=${restored}`, target], { stderr: "pipe" });
    expect(restore.stderr.toString()).toBe("");
    const copy = await openDb(restored.toString());
    try {
      const [row] = await copy.read.select().from(clubs).where(eq(clubs.id, club.club_id));
      expect(row.slug).toBe("club-alpin");
      expect(
        await copy.read
          .select()
          .from(apiKeys)
          .where(eq(apiKeys.key_hash, sha256Hex(club.api_key))),
      ).toHaveLength(1);
    } finally {
      await copy.close();
    }
  });

  it("refuses to overwrite an existing file (exit 1)", async () => {
    const target = join(dir, "existing.db");
    writeFileSync(target, "keep me");
    const run = await cli(["backup", target, "--json"]);
    expectError(run, 1, "BACKUP_TARGET_EXISTS");
    expect(await Bun.file(target).text()).toBe("keep me");
    const human = await cli(["backup", target]);
    expect(human.code).toBe(1);
    expect(human.stdout).toBe("");
    expect(human.stderr).toBe(`error: The file ${target} already exists: choose another name for the backup.\n`);
  });
});

describe("cli import members", () => {
  it("imports a spreadsheet with French headings, reports line errors, and writes nothing on error unless --partial", async () => {
    const csv = join(dir, "saison.csv");
    writeFileSync(csv, "prénom,nom,courriel,fin abonnement\nAnne,Martin,anne@example.org,2027-06-30\nBruno,Keller,not-an-email,2027-06-30\n");
    const refused = await cli(["import", "members", csv, "--club", club.club_id, "--json"]);
    expect(refused.code).toBe(0);
    expect(refused.json.errors).toHaveLength(1);
    expect(refused.json.errors[0].line).toBe(3);
    expect(refused.json.written).toBe(false);
    const count = () => withDb(async (db) => (await db.read.select().from(members).where(eq(members.club_id, club.club_id))).length);
    expect(await count()).toBe(0);

    const dry = await cli(["import", "members", csv, "--club", club.club_id, "--partial", "--dry-run", "--json"]);
    expect(dry.json.created).toBe(1);
    expect(await count()).toBe(0);

    const partial = await cli(["import", "members", csv, "--club", club.club_id, "--partial", "--json"]);
    expect(partial.json.created).toBe(1);
    expect(partial.json.written).toBe(true);
    expect(await count()).toBe(1);
  });

  it("imports a 5,000-line file: the right JSON and counts, nothing on stderr when it is not a terminal", async () => {
    const csv = join(dir, "big.csv");
    const lines = Array.from({ length: 5000 }, (_, i) => `Membre,Nom${i},big${i}@alpin.test,2030-12-31`);
    writeFileSync(csv, `first name,last name,email,membership end\n${lines.join("\n")}\n`);
    const run = await cli(["import", "members", csv, "--club", club.club_id, "--json"]);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ created: 5000, updated: 0, skipped: 0, errors: [], warnings: [], mode: "create", dry_run: false, written: true });
    expect(run.stderr).toBe("");
    const imported = await withDb(async (db) =>
      (await db.read.select().from(members).where(eq(members.club_id, club.club_id))).filter((m) => m.email.startsWith("big")),
    );
    expect(imported).toHaveLength(5000);
    // Again: every member is already there, left untouched and reported (create mode).
    const again = await cli(["import", "members", csv, "--club", club.club_id, "--json"]);
    expect(again.json).toMatchObject({ created: 0, updated: 0, skipped: 5000, errors: [] });
    expect(again.json.warnings).toHaveLength(5000);
    expect(again.json.warnings[0]).toMatchObject({ line: 2, email: "big0@alpin.test", code: "MEMBER_EXISTS" });
  });

  it("draws a progress bar on stderr when it is a terminal (run under script(1)), and none with --json", async () => {
    const csv = join(dir, "tty.csv");
    const lines = Array.from({ length: 2000 }, (_, i) => `Membre,Tty${i},tty${i}@alpin.test,2030-12-31`);
    writeFileSync(csv, `first name,last name,email,membership end\n${lines.join("\n")}\n`);
    const underTerminal = async (args: string[]) => {
      const command = ["bun", "scripts/cli.ts", ...args].map((a) => `'${a}'`).join(" ");
      const proc = Bun.spawn(["script", "-qec", command, "/dev/null"], { cwd: ROOT, env: { ...process.env, DATABASE_URL: dbPath }, stdout: "pipe" });
      const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
      return { out, code };
    };
    const json = await underTerminal(["import", "members", csv, "--club", club.club_id, "--dry-run", "--json"]);
    expect(json.code).toBe(0);
    expect(json.out).not.toContain("%");
    expect(JSON.parse(json.out.trim()).created).toBe(2000);
    const human = await underTerminal(["import", "members", csv, "--club", club.club_id]);
    expect(human.code).toBe(0);
    expect(human.out).toMatch(/import {2}\[#+\] 100% {2}2,000\/2,000 lines/);
    expect(human.out).toContain("Created 2000, updated 0, skipped 0");
  });

  it("reads a Windows-1252 file; --mode update --dry-run shows field: old -> new and writes nothing; --mode update writes", async () => {
    const csv = join(dir, "excel.csv");
    // What Excel saves as "CSV (separator: semicolon)" on a Western Windows: one byte per accented letter.
    const text = "E-Mail;Vorname;Nachname;Mitglied bis\r\nanne@example.org;Anne-Zoé;Martin;31.12.2031\r\n";
    writeFileSync(csv, Uint8Array.from([...text].map((c) => c.charCodeAt(0))));
    const dry = await cli(["import", "members", csv, "--club", club.club_id, "--mode", "update", "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("Dry run: would create 0, update 1, skipped 0");
    expect(dry.stdout).toContain("line 2: update anne@example.org: first_name: Anne -> Anne-Zoé; membership_end: 2027-06-30 -> 2031-12-31");
    const anne = () =>
      withDb(async (db) => (await db.read.select().from(members).where(eq(members.club_id, club.club_id))).find((m) => m.email === "anne@example.org"));
    expect(await anne()).toMatchObject({ first_name: "Anne", membership_end: "2027-06-30" });
    const run = await cli(["import", "members", csv, "--club", club.club_id, "--mode", "update", "--json"]);
    expect(run.json).toMatchObject({ mode: "update", updated: 1, written: true, file: { encoding: "windows-1252", delimiter: ";" } });
    expect(await anne()).toMatchObject({ first_name: "Anne-Zoé", membership_end: "2031-12-31" });
    expectError(await cli(["import", "members", csv, "--club", club.club_id, "--mode", "upsert", "--json"]), 2, "USAGE");
  });

  it("answers a missing file with exit 2", async () => {
    expectError(await cli(["import", "members", join(dir, "nope.csv"), "--club", club.club_id, "--json"]), 2, "USAGE");
  });

  it("--tier gives the lines without a tier the one named (name or id, accents and case ignored); an unknown one is exit 2, nothing written", async () => {
    const tierId = await withDb(async (db) => {
      const ctx = await operatorCtx(db, club.club_id, loadConfig({ DATABASE_URL: dbPath, LOG_LEVEL: "silent" }));
      return (await createTier(ctx, { name: "Séniors", price_cents: 5000 })).id;
    });
    const csv = join(dir, "tiers.csv");
    writeFileSync(csv, "first name,last name,email,membership end\nAnne,Tier,tier-a@example.org,2031-06-30\n");
    const tierOf = (email: string) =>
      withDb(async (db) => (await db.read.select().from(members).where(eq(members.club_id, club.club_id))).find((m) => m.email === email)?.tier_id);
    const unknown = await cli(["import", "members", csv, "--club", club.club_id, "--tier", "Gold", "--json"]);
    expectError(unknown, 2, "USAGE");
    expect(unknown.stderr).toContain("Séniors");
    expect(await tierOf("tier-a@example.org")).toBeUndefined();
    const run = await cli(["import", "members", csv, "--club", club.club_id, "--tier", "seniors", "--json"]);
    expect(run.json).toMatchObject({ created: 1, written: true });
    expect(await tierOf("tier-a@example.org")).toBe(tierId);
  });
});

describe("cli seed demo", () => {
  it("fills an empty club with tiers, members in every state, an event with registrations and a promo code; refuses a club with members", async () => {
    const database = await freshDatabaseUrl(dir, "demo.db");
    const init = await cli(["init", "--club-name", "Démo", "--email", "owner@demo.test", "--json"], database);
    const run = await cli(["seed", "demo", "--club", init.json.club_id, "--json"], database);
    expect(run.code).toBe(0);
    expect(run.json).toEqual({ tiers: 3, members: 20, events: 1, registrations: 5, promo_codes: 1 });
    const db = await openDb(database);
    try {
      const rows = await db.read.select().from(members).where(eq(members.club_id, init.json.club_id));
      expect(rows).toHaveLength(20);
      expect(new Set(rows.map((m) => m.payment_status))).toEqual(new Set(["paid", "pending", "suspended"]));
      expect(rows.some((m) => m.membership_end < new Date().toISOString().slice(0, 10))).toBe(true);
      expect(rows.map((m) => m.last_name)).toContain("Żółć");
      const registrations = await db.read
        .select({ status: eventRegistrations.status })
        .from(eventRegistrations)
        .where(eq(eventRegistrations.club_id, init.json.club_id));
      expect(registrations.map((r) => r.status)).toEqual(Array(5).fill("confirmed"));
    } finally {
      db.close();
    }
    expectError(await cli(["seed", "demo", "--club", init.json.club_id, "--json"], database), 1, "CLUB_NOT_EMPTY");
  });
});
