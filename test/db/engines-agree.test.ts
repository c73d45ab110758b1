// One schema, two engines (DESIGN.md section 19): db/schema.ts builds both dialects' tables
// (db/dialect.ts) and each engine has its own migrations. Here the migrated databases are
// compared, table by table: columns with their types, nulls and defaults, unique keys
// and indexes. And each engine's migrations hold exactly what db/schema.ts says (drizzle-kit
// finds nothing to generate). The comparison needs both engines: it runs when the suite runs
// on PostgreSQL, reading SQLite's side from a fresh file in a child process.
import { afterAll, describe, expect, it } from "bun:test";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { openDb } from "../../db";
import { dropDatabase, freshDatabaseUrl, onPostgres } from "../databases";

const ROOT = join(import.meta.dir, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "club-engines-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Column = { name: string; type: string; notnull: boolean; default: string | null };
type Index = { name: string; unique: boolean; columns: string[]; partial: boolean };
type Catalog = Record<string, { columns: Column[]; indexes: Index[] }>;

/** SQLite's catalog of a freshly migrated file, read by a child process (this one is on PostgreSQL). */
async function sqliteCatalog(): Promise<Catalog> {
  const script = join(dir, "sqlite-catalog.ts");
  writeFileSync(
    script,
    `import { openDb } from ${JSON.stringify(join(ROOT, "db"))};
const db = await openDb(${JSON.stringify(join(dir, "club.db"))});
const tables = await db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' AND name NOT LIKE 'members_search%' ORDER BY name");
const out = {};
for (const { name } of tables) {
  const columns = (await db.query("SELECT name, type, \\"notnull\\", dflt_value FROM pragma_table_info(?) ORDER BY cid", [name]))
    .map((c) => ({ name: c.name, type: c.type.toLowerCase(), notnull: c.notnull === 1, default: c.dflt_value }));
  const indexes = [];
  for (const ix of await db.query("SELECT name, \\"unique\\", partial, origin FROM pragma_index_list(?)", [name])) {
    if (ix.origin === "pk") continue;
    // An expression (lower(email)) has no column name: said alike on both engines.
    const cols = (await db.query("SELECT name FROM pragma_index_info(?) ORDER BY seqno", [ix.name])).map((c) => c.name ?? "(expression)");
    indexes.push({ name: ix.name.startsWith("sqlite_autoindex_") ? name + "_" + cols.join("_") + "_unique" : ix.name, unique: ix.unique === 1, columns: cols, partial: ix.partial === 1 });
  }
  out[name] = { columns, indexes: indexes.sort((a, b) => a.name.localeCompare(b.name)) };
}
await db.close();
console.log(JSON.stringify(out));
`,
  );
  const env = { ...process.env };
  delete env.DATABASE_URL;
  const proc = Bun.spawn(["bun", script], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  expect({ code, err }).toEqual({ code: 0, err: "" });
  return JSON.parse(out);
}

/** PostgreSQL's catalog of a freshly migrated database. */
async function postgresCatalog(url: string): Promise<Catalog> {
  const db = await openDb(url);
  try {
    const columns = await db.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string; column_default: string | null }>(
      "SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position",
    );
    const indexes = await db.query<{ table: string; name: string; unique: boolean; partial: boolean; columns: string[]; primary: boolean }>(
      `SELECT t.relname AS table, i.relname AS name, ix.indisunique AS unique, ix.indpred IS NOT NULL AS partial, ix.indisprimary AS primary,
              array(SELECT coalesce(a.attname, '(expression)') FROM unnest(ix.indkey) WITH ORDINALITY AS k(attnum, n) LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.n)::text[] AS columns
         FROM pg_index ix JOIN pg_class t ON t.oid = ix.indrelid JOIN pg_class i ON i.oid = ix.indexrelid JOIN pg_namespace ns ON ns.oid = t.relnamespace
        WHERE ns.nspname = 'public'`,
    );
    const out: Catalog = {};
    for (const c of columns) {
      out[c.table_name] ??= { columns: [], indexes: [] };
      out[c.table_name].columns.push({ name: c.column_name, type: c.data_type, notnull: c.is_nullable === "NO", default: c.column_default });
    }
    for (const ix of indexes) {
      // The primary key is a constraint on both sides (compared with the columns); the trigram
      // index of member search is PostgreSQL's own, as the FTS5 table members_search is SQLite's.
      if (ix.primary || ix.name === "members_search_trgm_idx") continue;
      out[ix.table].indexes.push({ name: ix.name.replace(/_key$/, "_unique"), unique: ix.unique, columns: ix.columns, partial: ix.partial });
    }
    for (const t of Object.values(out)) t.indexes.sort((a, b) => a.name.localeCompare(b.name));
    return out;
  } finally {
    await db.close();
  }
}

/** SQLite's declared type, as PostgreSQL stores the same values (db/dialect.ts). */
const SAME_TYPE: Record<string, string[]> = {
  text: ["text"],
  integer: ["bigint", "boolean"],
  real: ["double precision"],
  blob: ["bytea"],
};

/** A default as both write it: PostgreSQL adds a cast to text literals. */
const normalDefault = (value: string | null) => value?.replace(/::text$/, "").replace(/^'(true|false)'$/, "$1") ?? null;

describe.skipIf(!onPostgres)("the two engines' migrated schemas", () => {
  it("have the same tables, columns (type, null, default), unique keys and indexes", async () => {
    const url = await freshDatabaseUrl(dir, "pg");
    try {
      const [lite, pg] = await Promise.all([sqliteCatalog(), postgresCatalog(url)]);
      expect(Object.keys(pg).sort()).toEqual(Object.keys(lite).sort());
      for (const [table, { columns, indexes }] of Object.entries(lite)) {
        const other = pg[table];
        // The same columns; their order differs where SQLite appended columns added later.
        expect({ table, columns: other.columns.map((c) => c.name).sort() }).toEqual({ table, columns: columns.map((c) => c.name).sort() });
        for (const c of columns) {
          const p = other.columns.find((o) => o.name === c.name) as Column;
          expect({ table, column: c.name, type: SAME_TYPE[c.type]?.includes(p.type) ? c.type : p.type }).toEqual({ table, column: c.name, type: c.type });
          expect({ table, column: c.name, notnull: p.notnull }).toEqual({ table, column: c.name, notnull: c.notnull });
          // An identity column (the import journal's seq) has no default to compare.
          if (!p.default?.startsWith("nextval"))
            expect({ table, column: c.name, default: normalDefault(p.default) }).toEqual({ table, column: c.name, default: normalDefault(c.default) });
        }
        expect({ table, indexes: other.indexes }).toEqual({ table, indexes });
      }
    } finally {
      await dropDatabase(url);
    }
  }, 60_000);
});

/** Runs drizzle-kit generate for `dialect` against a copy of its migrations: what it printed. */
async function generateOnCopy(dialect: "sqlite" | "postgresql", folder: string): Promise<string> {
  const copy = join(dir, `copy-${folder}`);
  cpSync(join(ROOT, "db", folder), copy, { recursive: true });
  const env = { ...process.env };
  // db/dialect.ts builds PostgreSQL's columns when DATABASE_URL names PostgreSQL.
  if (dialect === "postgresql") env.DATABASE_URL = "postgres://drizzle-kit";
  else delete env.DATABASE_URL;
  const proc = Bun.spawn(["bunx", "drizzle-kit", "generate", `--dialect=${dialect}`, "--schema=./db/schema.ts", `--out=${relative(ROOT, copy)}`], {
    cwd: ROOT,
    env,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return out + err;
}

describe("each engine's migrations", () => {
  it("hold exactly what db/schema.ts describes, on SQLite", async () => {
    expect(await generateOnCopy("sqlite", "migrations")).toContain("No schema changes");
  }, 60_000);
  it("hold exactly what db/schema.ts describes, on PostgreSQL", async () => {
    expect(await generateOnCopy("postgresql", "pg-migrations")).toContain("No schema changes");
  }, 60_000);
});
