// Hand-written baseline for GET /api/clubs/<club_id>/members (default sort: registered, newest
// first; optional `search`, `page`, `limit`): Bun.serve + bun:sqlite on the same database file
// as the server (WAL, synchronous = FULL). Per request: the key looked up by SHA-256, the path's
// club compared with the key's (403), the same two statements as ours (count, then the page of
// members with their tier, pending tier and referrer names through three left joins), items
// shaped as MemberAdminItem (derived status, booleans, custom fields), one audit row inserted in
// its own transaction (one disk sync per request), JSON answer. Anything else is a 404.
//
// Run by scripts/bench/members.ts: `DATABASE_URL=... PORT=... bun scripts/bench/baseline-members.ts`.
import { Database } from "bun:sqlite";

const path = process.env.DATABASE_URL ?? "data/club.db";
const port = Number(process.env.PORT ?? 3001);
const host = process.env.HOST ?? "127.0.0.1";

const db = new Database(path, { strict: true });
db.exec("PRAGMA busy_timeout = 5000");
db.exec("PRAGMA foreign_keys = ON");
db.exec("PRAGMA journal_mode = WAL");
db.exec("PRAGMA synchronous = FULL");

type Key = { id: string; club_id: string; admin_id: string; prefix: string; revoked_at: string | null; expires_at: string | null };
const findKey = db.query<Key, [string]>("SELECT id, club_id, admin_id, prefix, revoked_at, expires_at FROM api_keys WHERE key_hash = ?");
const insertAudit = db.query(
  "INSERT INTO audit_log (id, club_id, admin_id, key_prefix, method, path, status, duration_ms, ip, via, tool, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'http', NULL, ?)",
);

const PAGE_SQL = `SELECT m.*, t.name AS tier_name, pt.name AS pending_tier_name, r.first_name AS ref_first, r.last_name AS ref_last
  FROM members m
  LEFT JOIN tiers t ON t.id = m.tier_id
  LEFT JOIN tiers pt ON pt.id = m.pending_tier_id
  LEFT JOIN members r ON r.id = m.referred_by_member_id`;
const ORDER = "ORDER BY m.created_at DESC, m.id DESC LIMIT ? OFFSET ?";
const countAll = db.query<{ n: number }, [string]>("SELECT count(*) AS n FROM members WHERE club_id = ?");
const countSearch = db.query<{ n: number }, [string, string]>("SELECT count(*) AS n FROM members WHERE club_id = ? AND search_text LIKE ? ESCAPE '\\'");
const pageAll = db.query<Record<string, unknown>, [string, number, number]>(`${PAGE_SQL} WHERE m.club_id = ? ${ORDER}`);
const pageSearch = db.query<Record<string, unknown>, [string, string, number, number]>(
  `${PAGE_SQL} WHERE m.club_id = ? AND m.search_text LIKE ? ESCAPE '\\' ${ORDER}`,
);

const FOLD: Record<string, string> = { ł: "l", Ł: "l", ø: "o", Ø: "o", ß: "ss", æ: "ae", Æ: "ae", œ: "oe", Œ: "oe", đ: "d", Đ: "d", ı: "i" };
const fold = (s: string) =>
  s
    .replace(/[łŁøØßæÆœŒđĐı]/g, (c) => FOLD[c])
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();

function status(m: Record<string, unknown>, today: string): string {
  const end = m.membership_end as string;
  if (m.payment_status === "suspended") return "suspended";
  if (end < today) return "expired";
  return m.payment_status === "pending" ? "pending" : "active";
}

const BOOLEANS = ["is_manual", "profile_complete", "has_wallet_a", "has_wallet_b", "has_web"];
const HIDDEN = ["club_id", "search_text", "status_before_suspension", "referred_by_member_id", "updated_at", "pass_updated_at", "ref_first", "ref_last"];

function item(row: Record<string, unknown>, today: string): Record<string, unknown> {
  const out: Record<string, unknown> = { ...row, status: status(row, today) };
  for (const k of BOOLEANS) out[k] = out[k] === 1;
  out.custom_fields = typeof row.custom_fields === "string" ? JSON.parse(row.custom_fields) : null;
  out.referred_by_name = row.ref_first !== null ? `${row.ref_first} ${row.ref_last ?? ""}`.trim() : null;
  for (const k of HIDDEN) delete out[k];
  return out;
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8" } });
const ROUTE = /^\/api\/clubs\/([0-9a-f-]{36})\/members$/;

const server = Bun.serve({
  port,
  hostname: host,
  fetch(request, srv) {
    const started = performance.now();
    const url = new URL(request.url);
    const match = ROUTE.exec(url.pathname);
    if (!match) return json(404, { detail: "not found" });
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
    const key = token ? findKey.get(new Bun.CryptoHasher("sha256").update(token).digest("hex")) : null;
    if (!key || key.revoked_at || (key.expires_at && Date.parse(key.expires_at) <= Date.now())) return json(401, { detail: "unauthorized" });
    let answer: Response;
    if (match[1] !== key.club_id) answer = json(403, { detail: "forbidden" });
    else {
      const page = Math.max(1, Number(url.searchParams.get("page") ?? 1) || 1);
      const limit = Math.min(1000, Math.max(1, Number(url.searchParams.get("limit") ?? 50) || 50));
      const search = fold((url.searchParams.get("search") ?? "").trim());
      const today = new Date().toISOString().slice(0, 10);
      const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const total = (search ? countSearch.get(key.club_id, like) : countAll.get(key.club_id))?.n ?? 0;
      const rows = search ? pageSearch.all(key.club_id, like, limit, (page - 1) * limit) : pageAll.all(key.club_id, limit, (page - 1) * limit);
      answer = json(200, { total, page, limit, items: rows.map((r) => item(r, today)) });
    }
    insertAudit.run(
      Bun.randomUUIDv7(),
      key.club_id,
      key.admin_id,
      key.prefix,
      request.method,
      url.pathname,
      answer.status,
      Math.round((performance.now() - started) * 100) / 100,
      srv.requestIP(request)?.address ?? null,
      new Date().toISOString(),
    );
    return answer;
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
