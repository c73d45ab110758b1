// A fresh database for each test environment, on the engine this run uses: a SQLite file in the
// test's folder, or, when the suite runs with DATABASE_URL=postgres://... (an admin connection to
// a throw-away cluster: .ci/run starts one with scripts/ci/pg-cluster.sh), a new PostgreSQL
// database copied from a template migrated once per migrations version.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { openDb } from "../db";
import { onPostgres } from "../db/dialect";

export { onPostgres };

/** The admin connection the run was given (DATABASE_URL), on PostgreSQL. */
const adminUrl = onPostgres ? (process.env.DATABASE_URL as string) : "";

function urlOf(database: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${database}`;
  return u.toString();
}

/** The template's name follows the migrations' content: a changed migration makes a new one. */
function templateName(): string {
  const dir = join(import.meta.dir, "..", "db", "pg-migrations");
  const hash = createHash("sha1");
  for (const f of readdirSync(dir).sort()) if (f.endsWith(".sql")) hash.update(readFileSync(join(dir, f)));
  return `club_template_${hash.digest("hex").slice(0, 12)}`;
}

let template: Promise<string> | undefined;

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates and migrates the template once (several test processes at once: one does it). */
function ensureTemplate(): Promise<string> {
  template ??= admin(async (c) => {
    const name = templateName();
    await c.query("SELECT pg_advisory_lock(7261002)");
    try {
      const found = await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
      if (!found.rowCount) {
        await c.query(`CREATE DATABASE "${name}_wip"`);
        const db = await openDb(urlOf(`${name}_wip`));
        await db.close();
        await c.query(`ALTER DATABASE "${name}_wip" RENAME TO "${name}"`);
      }
    } finally {
      await c.query("SELECT pg_advisory_unlock(7261002)");
    }
    return name;
  });
  return template;
}

/** A new, empty, migrated database: its DATABASE_URL. `dir` holds the SQLite file. */
export async function freshDatabaseUrl(dir: string, file = "club.db"): Promise<string> {
  if (!onPostgres) return join(dir, file);
  const from = await ensureTemplate();
  const name = `club_test_${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`;
  await admin((c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${from}"`));
  return urlOf(name);
}

/** Drops a database made by freshDatabaseUrl (SQLite: the caller removes its folder). */
export async function dropDatabase(url: string): Promise<void> {
  if (!onPostgres) return;
  const name = new URL(url).pathname.slice(1);
  await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
