// Which errors mean the database cannot serve right now, for either engine: http/errors.ts
// answers 503 with Retry-After for them, and the request changed nothing.

/** The SQLite result codes of `err` and of the errors it wraps (Drizzle wraps the driver's). */
export function sqliteCodes(err: unknown): string[] {
  return codesOf(err).filter((code) => code.startsWith("SQLITE_"));
}

/** The `code` of `err` and of the errors it wraps (Drizzle wraps the driver's as `cause`). */
export function codesOf(err: unknown): string[] {
  const codes: string[] = [];
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") codes.push(code);
  }
  return codes;
}

/** Node's errors for a connection that cannot be made or was cut. */
const NETWORK = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);

/** A message node-postgres gives, without a code, when the server went away or the pool is cut. */
const PG_GONE =
  /Connection terminated|connection timeout|Client has encountered a connection error|Connection ended|terminating connection|the database system is (starting up|shutting down|in recovery mode)/i;

/**
 * Whether `err` is the database being unable to serve, not a fault of the request or of our code:
 * `busy` (SQLite's write lock held past the busy timeout, PostgreSQL out of connections or a
 * conflict that outlived its retries: try again in a moment), or `down` (the file turned
 * read-only, the disk is full, an I/O error, the PostgreSQL server unreachable or restarting).
 * Null for anything else.
 */
export function unavailability(err: unknown): "busy" | "down" | null {
  for (const code of codesOf(err)) {
    if (code.startsWith("SQLITE_BUSY")) return "busy";
    if (code.startsWith("SQLITE_READONLY") || code.startsWith("SQLITE_FULL") || code.startsWith("SQLITE_IOERR")) return "down";
    // PostgreSQL's SQLSTATE: 53 insufficient resources (53300 too many connections), 40001 and
    // 40P01 conflicts; 08 connection exceptions, 57P01-57P03 shutdown and start-up.
    if (code === "53300" || code === "40001" || code === "40P01" || code === "55P03") return "busy";
    if (code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03" || code.startsWith("53")) return "down";
    if (NETWORK.has(code)) return "down";
  }
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof Error && PG_GONE.test(e.message)) return "down";
  }
  return null;
}
