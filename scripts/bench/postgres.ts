// PostgreSQL for the benchmarks: a throw-away cluster started as the tests start theirs
// (scripts/ci/pg-cluster.sh, here with fsync on: PG_DURABLE=1), a dataset's SQLite file copied
// into a database migrated by the server's own migrations (table by table, in batches, the rows
// as they are: the same ids, keys and codes on both engines), and a fresh database per measured
// run made from it as a template (CREATE DATABASE ... TEMPLATE), dropped after the run.
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { ROOT, type Store } from "./common";
import type { Dataset } from "./datasets";
import { runCapture } from "./harness";

const SCRIPT = join(ROOT, "scripts/ci/pg-cluster.sh");

/** `dir`: the cluster's folder (its data, and its log in `log`). */
export type Cluster = { adminUrl: string; dir: string; stop(): void };

/** Why the cluster cannot be started here (null: it can): PostgreSQL missing, or not root. */
export function postgresMissing(): string | null {
  const dir = "/usr/lib/postgresql";
  if (!existsSync(dir) || !readdirSync(dir).some((v) => existsSync(join(dir, v, "bin", "initdb"))))
    return "PostgreSQL is not installed (Debian: apt-get install postgresql)";
  if (process.getuid?.() !== 0) return "starting a throw-away PostgreSQL cluster needs root (it runs initdb as the postgres user)";
  return null;
}

/** Starts the cluster; it is stopped by `stop()` or when this process exits, whatever happens. */
export async function startCluster(): Promise<Cluster> {
  // Not a harness temp folder: those go at exit before this cluster would be stopped.
  const dir = mkdtempSync(join(tmpdir(), "club-bench-pg-"));
  const out = await runCapture(["env", `PG_TEST_DIR=${dir}`, "PG_DURABLE=1", "bash", SCRIPT]);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    Bun.spawnSync(["bash", SCRIPT, "stop", join(dir, "data")]);
    rmSync(dir, { recursive: true, force: true });
  };
  process.on("exit", stop);
  if (out.code !== 0) {
    stop();
    throw new Error(`scripts/ci/pg-cluster.sh failed (${out.code}): ${out.stderr || out.stdout}`);
  }
  return { adminUrl: out.stdout.trim(), dir, stop };
}

export function databaseUrl(adminUrl: string, database: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Rows per INSERT: PostgreSQL takes at most 65,535 parameters in a statement. */
const maxRows = (columns: number) => Math.max(1, Math.min(1000, Math.floor(60_000 / columns)));

/**
 * A database named `name` holding `ds`: created, migrated by the server's migrations (a `bun`
 * child with DATABASE_URL set: the schema's column types follow the engine chosen at start),
 * then every table of the SQLite file that PostgreSQL has copied in, triggers off (the copied
 * rows already hold what they maintain), then ANALYZE. Answers the rows copied per table.
 */
export async function loadDataset(adminUrl: string, name: string, ds: Dataset): Promise<Record<string, number>> {
  const url = databaseUrl(adminUrl, name);
  await withClient(adminUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  const migrate = await runCapture([
    "env",
    `DATABASE_URL=${url}`,
    "bun",
    "-e",
    `const { openDb } = await import(${JSON.stringify(join(ROOT, "db/index.ts"))}); await (await openDb(process.env.DATABASE_URL)).close();`,
  ]);
  if (migrate.code !== 0) throw new Error(`migrating ${name} failed: ${migrate.stderr}`);
  const lite = new Database(ds.path, { readonly: true });
  const copied: Record<string, number> = {};
  try {
    await withClient(url, async (c) => {
      const types = new Map<string, Map<string, string>>();
      const cols = await c.query<{ table_name: string; column_name: string; data_type: string }>(
        "SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'public'",
      );
      for (const r of cols.rows) {
        if (!types.has(r.table_name)) types.set(r.table_name, new Map());
        types.get(r.table_name)?.set(r.column_name, r.data_type);
      }
      const tables = lite
        .query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_\\_%' ESCAPE '\\' ORDER BY name")
        .all() as { name: string }[];
      await c.query("BEGIN");
      await c.query("SET LOCAL session_replication_role = replica");
      for (const { name: table } of tables) {
        const pgCols = types.get(table);
        if (!pgCols) continue;
        const columns = (lite.query(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[])
          .map((r) => r.name)
          .filter((col) => pgCols.has(col));
        const booleans = columns.map((col) => pgCols.get(col) === "boolean");
        const rows = lite.query(`SELECT ${columns.map((col) => `"${col}"`).join(", ")} FROM "${table}"`).values() as unknown[][];
        const per = maxRows(columns.length);
        for (let i = 0; i < rows.length; i += per) {
          const batch = rows.slice(i, i + per);
          const params: unknown[] = [];
          const tuples = batch.map((row) => {
            const marks = row.map((v, k) => {
              params.push(booleans[k] && v !== null ? v === 1 || v === true : v);
              return `$${params.length}`;
            });
            return `(${marks.join(", ")})`;
          });
          await c.query(`INSERT INTO "${table}" (${columns.map((col) => `"${col}"`).join(", ")}) OVERRIDING SYSTEM VALUE VALUES ${tuples.join(", ")}`, params);
        }
        if (rows.length) copied[table] = rows.length;
      }
      await c.query("COMMIT");
      await c.query("ANALYZE");
    });
  } finally {
    lite.close();
  }
  return copied;
}

/** Fresh databases made from the template `template` (closed: no connection may be open on it). */
export function postgresStore(adminUrl: string, template: string): Store {
  return {
    async fresh() {
      const name = `bench_run_${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;
      await withClient(adminUrl, async (c) => {
        await c.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        // The copy goes through the WAL (tens of MB each run): a checkpoint the copies' WAL would
        // start later (max_wal_size) is taken now, not during the measured seconds, where its disk
        // syncs held every commit for seconds (a check-in run of 17 requests/s, all at p50 2.3 s).
        await c.query("CHECKPOINT");
      });
      return databaseUrl(adminUrl, name);
    },
    count: (url, queries) =>
      withClient(url, async (c) => {
        const out: Record<string, number> = {};
        for (const [key, sql] of Object.entries(queries)) out[key] = Number((await c.query<{ n: string }>(sql)).rows[0].n);
        return out;
      }),
    async drop(url) {
      const name = new URL(url).pathname.slice(1);
      await withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}
