// Hand-written baseline for GET /api/auth/me: the least an audited, authenticated read must do,
// with nothing of ours in the way (no framework, no ORM, no group commit). Bun.serve + bun:sqlite
// on the same database file and schema as the server (WAL, synchronous = FULL): look the key up
// by its SHA-256, read its club, insert one audit row (its own implicit transaction, so one disk
// sync per request), answer JSON. Any other path is a 404.
//
// Run by scripts/bench/auth-me.ts: `DATABASE_URL=... PORT=... bun scripts/bench/baseline-auth-me.ts`.
import { Database } from "bun:sqlite";

const path = process.env.DATABASE_URL ?? "data/club.db";
const port = Number(process.env.PORT ?? 3001);
const host = process.env.HOST ?? "127.0.0.1";

const db = new Database(path, { strict: true });
db.exec("PRAGMA busy_timeout = 5000");
db.exec("PRAGMA foreign_keys = ON");
db.exec("PRAGMA journal_mode = WAL");
db.exec("PRAGMA synchronous = FULL");

const findKey = db.query<{ id: string; club_id: string; admin_id: string; prefix: string; revoked_at: string | null; expires_at: string | null }, [string]>(
  "SELECT id, club_id, admin_id, prefix, revoked_at, expires_at FROM api_keys WHERE key_hash = ?",
);
const findClub = db.query<Record<string, unknown>, [string]>("SELECT * FROM clubs WHERE id = ?");
const insertAudit = db.query(
  "INSERT INTO audit_log (id, club_id, admin_id, key_prefix, method, path, status, duration_ms, ip, via, tool, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'http', NULL, ?)",
);

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8" } });

const server = Bun.serve({
  port,
  hostname: host,
  fetch(request, srv) {
    const started = performance.now();
    const url = new URL(request.url);
    if (url.pathname !== "/api/auth/me") return json(404, { detail: "not found" });
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
    const key = token ? findKey.get(new Bun.CryptoHasher("sha256").update(token).digest("hex")) : null;
    if (!key || key.revoked_at || (key.expires_at && Date.parse(key.expires_at) <= Date.now())) return json(401, { detail: "unauthorized" });
    const club = findClub.get(key.club_id);
    const body = { admin_id: key.admin_id, club_id: key.club_id, club };
    insertAudit.run(
      Bun.randomUUIDv7(),
      key.club_id,
      key.admin_id,
      key.prefix,
      request.method,
      url.pathname,
      200,
      Math.round((performance.now() - started) * 100) / 100,
      srv.requestIP(request)?.address ?? null,
      new Date().toISOString(),
    );
    return json(200, body);
  },
});

console.log(`Listening on http://${host}:${server.port} (baseline)`);

function shutdown() {
  server.stop(true);
  db.close();
  process.exit(0);
}
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
