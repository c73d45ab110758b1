// What every hand-written baseline server shares, kept as plain as the baselines themselves
// (Bun.serve + bun:sqlite, nothing of ours): the database file opened like the server opens it
// (WAL, synchronous = FULL), the API key looked up by its SHA-256, the audit row, JSON answers,
// and a clean stop. Each baseline adds only the work of its own endpoint.
import { Database } from "bun:sqlite";

export type Key = { id: string; club_id: string; admin_id: string; prefix: string; revoked_at: string | null; expires_at: string | null };

/** What one audited request was: written as the server writes it (via `http`, no tool). */
export type AuditEntry = { key: Key; method: string; path: string; status: number; started: number; ip: string | null; at: string };

export function openBaseline() {
  const path = process.env.DATABASE_URL ?? "data/club.db";
  const db = new Database(path, { strict: true });
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec("PRAGMA foreign_keys = ON");
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = FULL");

  const findKey = db.query<Key, [string]>("SELECT id, club_id, admin_id, prefix, revoked_at, expires_at FROM api_keys WHERE key_hash = ?");
  const insertAudit = db.query(
    "INSERT INTO audit_log (id, club_id, admin_id, key_prefix, method, path, status, duration_ms, ip, via, tool, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'http', NULL, ?)",
  );

  return {
    db,
    /** The valid key of the request's `Authorization: Bearer`, or null (the caller answers 401). */
    keyOf(request: Request): Key | null {
      const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
      const key = token ? findKey.get(new Bun.CryptoHasher("sha256").update(token).digest("hex")) : null;
      if (!key || key.revoked_at || (key.expires_at && Date.parse(key.expires_at) <= Date.now())) return null;
      return key;
    },
    /** Inserts the audit row (inside the caller's transaction when it runs in one). */
    audit(e: AuditEntry): void {
      insertAudit.run(
        Bun.randomUUIDv7(),
        e.key.club_id,
        e.key.admin_id,
        e.key.prefix,
        e.method,
        e.path,
        e.status,
        Math.round((performance.now() - e.started) * 100) / 100,
        e.ip,
        e.at,
      );
    },
    /** Serves `fetch` on PORT/HOST, says "Listening on" (what the harness waits for), stops on signals. */
    serve(fetch: (request: Request, server: Bun.Server<undefined>) => Response | Promise<Response>): void {
      const host = process.env.HOST ?? "127.0.0.1";
      const server = Bun.serve({ port: Number(process.env.PORT ?? 3001), hostname: host, fetch });
      console.log(`Listening on http://${host}:${server.port} (baseline)`);
      const shutdown = () => {
        server.stop(true);
        db.close();
        process.exit(0);
      };
      process.on("SIGINT", shutdown);
      process.on("SIGTERM", shutdown);
    },
  };
}

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8" } });
