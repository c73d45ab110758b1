// The club is described twice: its columns in db/schema.ts (what SQLite stores) and what the API
// does with each in lib/clubs/fields.ts (shown, writable, scope, default, checks). The two must
// name the same fields with the same types, as the migrated database has them, and a new club
// must hold every stated default. db/ is the bottom layer: it imports nothing from the rest.
import { afterAll, describe, expect, it } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { eq, getTableColumns } from "drizzle-orm";
import { openDb } from "../../db";
import { columnKind } from "../../db/dialect";
import { dropDatabase, freshDatabaseUrl, onPostgres } from "../databases";
import { clubs } from "../../db/schema";
import { createClub } from "../../lib/clubs";
import { CLUB_FIELDS, type ClubField, defaultOf, type FieldKind, UPDATE_ONLY_FIELDS } from "../../lib/clubs/fields";

const FIELDS = [...CLUB_FIELDS, ...UPDATE_ONLY_FIELDS];
/** Columns added once clubs existed (issues 14 and 18), with the SQL default the migration gave the rows already there. */
const ADDED_WITH_SQL_DEFAULT: Record<string, string> = {
  renewal_reminder_days: onPostgres ? "'[30,7]'::text" : "'[30,7]'",
  grace_period_days: "0",
  expiry_notice: "true",
  pending_hold_hours: "48",
  dunning_days: onPostgres ? "'[10,30]'::text" : "'[10,30]'",
  dunning_fee_cents: "0",
  suspend_after_dunning: "false",
  renewal_invoices: "false",
};
const NOT_FIELDS = ["id", "created_at", "updated_at"];
const dir = mkdtempSync(join(tmpdir(), "club-columns-"));
const url = await freshDatabaseUrl(dir);
const db = await openDb(url);
afterAll(async () => {
  await db.close();
  await dropDatabase(url);
  rmSync(dir, { recursive: true, force: true });
});

type ColumnInfo = { name: string; type: string; notnull: number; dflt_value: string | null };
/** The clubs table as the migrations made it, as each engine describes it. */
const table = await db.query<ColumnInfo>(
  onPostgres
    ? "SELECT column_name AS name, data_type AS type, (is_nullable = 'NO')::int AS notnull, column_default AS dflt_value FROM information_schema.columns WHERE table_name = 'clubs' ORDER BY ordinal_position"
    : "SELECT name, type, \"notnull\", dflt_value FROM pragma_table_info('clubs')",
);

/** The SQL type each kind of field is stored as (db/dialect.ts). */
const SQL_TYPE: Record<FieldKind, string> = onPostgres
  ? { string: "text", datetime: "text", date: "text", json: "text", integer: "bigint", boolean: "boolean", number: "double precision" }
  : { string: "text", datetime: "text", date: "text", json: "text", integer: "integer", boolean: "integer", number: "real" };
const DRIZZLE_TYPE: Record<FieldKind, "string" | "number" | "boolean" | "json"> = {
  string: "string",
  datetime: "string",
  date: "string",
  json: "json",
  integer: "number",
  boolean: "boolean",
  number: "number",
};

describe("the club's fields and columns", () => {
  it("name the columns of db/schema.ts, which are those of the migrated table", () => {
    const schemaColumns = Object.keys(getTableColumns(clubs));
    expect(table.map((c) => c.name)).toEqual(schemaColumns);
    // The fields keep the Club's order (SPEC), not the table's.
    const fieldNames: string[] = FIELDS.map((f) => f.name);
    expect(fieldNames.toSorted()).toEqual(schemaColumns.filter((n) => !NOT_FIELDS.includes(n)).toSorted());
    expect(new Set(fieldNames).size).toBe(fieldNames.length);
  });

  it("give each field the kind and nullability of its column", () => {
    const columns = getTableColumns(clubs);
    const byName = new Map(table.map((c) => [c.name, c]));
    for (const field of FIELDS) {
      const column = byName.get(field.name);
      expect({ field: field.name, sql: column?.type.toLowerCase(), notnull: column?.notnull === 1 }).toEqual({
        field: field.name,
        sql: SQL_TYPE[field.kind],
        notnull: !field.nullable,
      });
      // PostgreSQL's JSON-as-text column is a custom one (db/dialect.ts): its kind says json.
      const dataType = columnKind(columns[field.name]) === "json" ? "json" : columns[field.name].dataType;
      expect({ field: field.name, drizzle: dataType }).toEqual({ field: field.name, drizzle: DRIZZLE_TYPE[field.kind] });
      // Defaults are written by createClub, never by SQL; a column added to the existing table
      // carries one for the clubs already there, the same as the field's.
      const added = ADDED_WITH_SQL_DEFAULT[field.name] ?? null;
      expect({ field: field.name, sqlDefault: column?.dflt_value ?? null }).toEqual({ field: field.name, sqlDefault: added });
    }
  });

  it("state a default of the column's type, and one for every non-null field but those creation sets", () => {
    const fits: Record<FieldKind, (v: unknown) => boolean> = {
      string: (v) => typeof v === "string",
      datetime: (v) => typeof v === "string",
      date: (v) => typeof v === "string",
      integer: Number.isInteger,
      number: (v) => typeof v === "number",
      boolean: (v) => typeof v === "boolean",
      json: Array.isArray,
    };
    for (const field of FIELDS.filter((f) => f.default !== undefined))
      expect({ field: field.name, fits: fits[field.kind](defaultOf(field)) }).toEqual({ field: field.name, fits: true });
    const withoutDefault = FIELDS.filter((f) => !f.nullable && f.default === undefined).map((f) => f.name);
    expect(withoutDefault).toEqual(["name", "slug"]);
  });

  it("check writes only of the kind the check is made for", () => {
    const kindOfCheck: Record<NonNullable<ClubField["check"]>, FieldKind> = {
      color: "string",
      url: "string",
      email: "string",
      currency: "string",
      country: "string",
      locale: "string",
      barcode: "string",
      latitude: "number",
      longitude: "number",
      percent: "integer",
      nonnegative: "integer",
      months: "integer",
      card_back_fields: "json",
      card_locations: "json",
      reminder_days: "json",
      dunning_days: "json",
      grace_days: "integer",
      hold_hours: "integer",
      iban: "string",
      account: "string",
      membership_mode: "string",
    };
    for (const field of FIELDS.filter((f) => f.check)) {
      expect({ field: field.name, kind: field.kind }).toEqual({ field: field.name, kind: kindOfCheck[field.check as keyof typeof kindOfCheck] });
    }
  });

  it("store every default in a new club, as the Club shows it", async () => {
    const created = await db.tx((t) => createClub(t, { name: "Defaults" }));
    const [row] = await db.read.select().from(clubs).where(eq(clubs.id, created.id));
    for (const field of FIELDS.filter((f) => f.name !== "name" && f.name !== "slug")) {
      const stored: unknown = row[field.name];
      expect({ field: field.name, stored }).toEqual({ field: field.name, stored: defaultOf(field) });
    }
  });
});

/** Every module a TypeScript file names in an import, export ... from, dynamic import or require. */
function specifiers(source: string): string[] {
  const found = source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["']([^"']+)["']/g);
  return [...found].map((m) => m[1]);
}

describe("db/", () => {
  const root = resolve(import.meta.dir, "../..");
  const dbDir = join(root, "db");
  const files = readdirSync(dbDir, { recursive: true, encoding: "utf8" }).filter((f) => /\.[cm]?[jt]s$/.test(f));

  it("finds the specifiers of every import form", () => {
    const names = specifiers(
      `import a from "./a";\nimport type { B } from '../b';\nexport { c } from "./c";\nimport "./d";\nawait import("./e");\nrequire("./f");`,
    );
    expect(names).toEqual(["./a", "../b", "./c", "./d", "./e", "./f"]);
  });

  it("imports nothing of the project outside db/ (lib/, routes/, server/...)", () => {
    expect(files).toContain("schema.ts");
    const outside: string[] = [];
    for (const file of files) {
      const path = join(dbDir, file);
      for (const spec of specifiers(readFileSync(path, "utf8"))) {
        if (!spec.startsWith(".")) continue;
        const target = relative(dbDir, resolve(dirname(path), spec));
        if (target.startsWith("..")) outside.push(`db/${file} imports ${spec}`);
      }
    }
    expect(outside).toEqual([]);
  });
});
