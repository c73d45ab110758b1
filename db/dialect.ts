// The one place that chooses the SQL dialect, once per process, from DATABASE_URL: a file path is
// SQLite (the embedded default), `postgres://` or `postgresql://` is PostgreSQL, any other scheme
// is refused. db/schema.ts is written once with the column builders below; on PostgreSQL each
// builds the PostgreSQL column that stores the same JavaScript value (a boolean as `boolean`, a
// JSON column as text holding the JSON, an integer as `bigint` read back as a number). The
// tables keep SQLite's TypeScript types: lib/ is type-checked against one surface, the subset of
// Drizzle's builders both dialects share (see Queryable in db/index.ts), and the whole test
// suite runs on both engines.
import { type Column, type SQL, sql } from "drizzle-orm";
import * as pg from "drizzle-orm/pg-core";
import * as lite from "drizzle-orm/sqlite-core";

export type Engine = "sqlite" | "postgres";

/** A DATABASE_URL the server cannot use: the message is one line for the operator. */
export class UnknownDatabaseScheme extends Error {}

/** Which engine a DATABASE_URL names; throws UnknownDatabaseScheme for another scheme. */
export function engineOf(url: string): Engine {
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(url)?.[1]?.toLowerCase();
  if (!scheme) return "sqlite";
  if (scheme === "postgres" || scheme === "postgresql") return "postgres";
  throw new UnknownDatabaseScheme(
    `DATABASE_URL has the scheme "${scheme}://", which this server does not use: give a SQLite file path (data/club.db) or a postgres:// address.`,
  );
}

function engineAtStart(): Engine {
  try {
    return engineOf(process.env.DATABASE_URL ?? "");
  } catch {
    // The server's start refuses the setting in one line (lib/config); the schema must still load.
    return "sqlite";
  }
}

/** The engine this process runs on, fixed when the process starts. */
export const ENGINE: Engine = engineAtStart();
export const onPostgres = ENGINE === "postgres";

/** JSON kept as text, as on SQLite: the same SQL (`lower(col) like ...`) reads it on both. */
const pgJsonText = pg.customType<{ data: unknown; driverData: string }>({
  dataType: () => "text",
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (value) => (typeof value === "string" ? JSON.parse(value) : value),
});

const pgBytes = pg.customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => "bytea",
  toDriver: (value) => value,
  fromDriver: (value) => Buffer.from(value),
});

type TextConfig = { mode?: "json" | "text" };
type IntegerConfig = { mode?: "boolean" | "number" | "timestamp" | "timestamp_ms" };

function pgText(name: string, config?: TextConfig) {
  return config?.mode === "json" ? pgJsonText(name) : pg.text(name);
}

function pgInteger(name: string, config?: IntegerConfig) {
  if (config?.mode === "boolean") return pg.boolean(name);
  if (config?.mode && config.mode !== "number") throw new Error(`integer column ${name}: mode ${config.mode} has no PostgreSQL twin`);
  return pg.bigint(name, { mode: "number" });
}

function pgBlob(name: string) {
  return pgBytes(name);
}

function pgReal(name: string) {
  return pg.doublePrecision(name);
}

/** An integer key the database numbers itself (SQLite's AUTOINCREMENT, PostgreSQL's identity). */
function liteSerial(name: string) {
  return lite.integer(name).primaryKey({ autoIncrement: true });
}
function pgSerial(name: string) {
  return pg.bigint(name, { mode: "number" }).primaryKey().generatedAlwaysAsIdentity();
}

const choose = <T>(sqlite: T, postgres: unknown): T => (onPostgres ? (postgres as T) : sqlite);

export const table = choose(lite.sqliteTable, pg.pgTable);
export const text = choose(lite.text, pgText);
export const integer = choose(lite.integer, pgInteger);
export const real = choose(lite.real, pgReal);
export const blob = choose(lite.blob, pgBlob);
export const serialKey = choose(liteSerial, pgSerial);
export const index = choose(lite.index, pg.index);
export const uniqueIndex = choose(lite.uniqueIndex, pg.uniqueIndex);
export const primaryKey = choose(lite.primaryKey, pg.primaryKey);
export const alias = choose(lite.alias, pg.alias);

/** What a column holds, whichever dialect built it (lib/clubs/fields reads it). */
export function columnKind(column: Column): "integer" | "number" | "boolean" | "json" | "text" | "blob" {
  switch (column.columnType) {
    case "SQLiteInteger":
    case "PgBigInt53":
      return "integer";
    case "SQLiteReal":
    case "PgDoublePrecision":
      return "number";
    case "SQLiteBoolean":
    case "PgBoolean":
      return "boolean";
    case "SQLiteTextJson":
      return "json";
    case "SQLiteText":
    case "PgText":
      return "text";
    case "SQLiteBlobBuffer":
      return "blob";
    case "PgCustomColumn":
      return column.getSQLType() === "bytea" ? "blob" : "json";
    default:
      throw new Error(`column ${column.name}: no kind for a ${column.columnType} column`);
  }
}

/** A blob column read as UTF-8 text (SQLite's cast; PostgreSQL decodes the bytea). */
export function blobAsText(column: Column | SQL): SQL {
  return onPostgres ? sql`convert_from(${column}, 'UTF8')` : sql`cast(${column} as text)`;
}

/**
 * A bound value given its column's SQL type, for statements where nothing else tells
 * PostgreSQL the type (a row of parameters in `SELECT ? AS x UNION ALL ...`). SQLite needs none.
 */
export function typedParam(value: unknown, column: Column): SQL {
  const bound = sql.param(value, column);
  return onPostgres ? sql`cast(${bound} as ${sql.raw(column.getSQLType())})` : sql`${bound}`;
}
