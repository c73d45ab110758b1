// Hand-written baseline for GET /api/clubs/<club_id>/members (default sort: registered, newest
// first; optional `search`, `page`, `limit`): Bun.serve + bun:sqlite on the same database file
// as the server (WAL, synchronous = FULL). Per request: the key looked up by SHA-256, the path's
// club compared with the key's (403), the same two statements as ours (count, then the page of
// members with their tier, pending tier and referrer names through three left joins), items
// shaped as MemberAdminItem (derived status, booleans, custom fields), one audit row inserted in
// its own transaction (one disk sync per request), JSON answer. Anything else is a 404.
//
// `sort=name` orders by the folded last-then-first name (sort_name), newest-first otherwise.
// With BARE=1 it is the bare page: no key, no count, no audit row, only the page of 50 and its
// items (`{items}`), the floor a page of members can cost on this machine.
//
// Run by scripts/bench/members.ts: `DATABASE_URL=... PORT=... [BARE=1] bun scripts/bench/baseline-members.ts`.
import { json, openBaseline } from "./baseline-server";

const base = openBaseline();
const { db } = base;

const PAGE_SQL = `SELECT m.*, t.name AS tier_name, pt.name AS pending_tier_name, r.first_name AS ref_first, r.last_name AS ref_last
  FROM members m
  LEFT JOIN tiers t ON t.id = m.tier_id
  LEFT JOIN tiers pt ON pt.id = m.pending_tier_id
  LEFT JOIN members r ON r.id = m.referred_by_member_id`;
const BARE = process.env.BARE === "1";
const ORDER = "ORDER BY m.created_at DESC, m.id DESC LIMIT ? OFFSET ?";
const BY_NAME = "ORDER BY m.sort_name DESC, m.id DESC LIMIT ? OFFSET ?";
const countAll = db.query<{ n: number }, [string]>("SELECT count(*) AS n FROM members WHERE club_id = ?");
const countSearch = db.query<{ n: number }, [string, string]>("SELECT count(*) AS n FROM members WHERE club_id = ? AND search_text LIKE ? ESCAPE '\\'");
const pageAll = db.query<Record<string, unknown>, [string, number, number]>(`${PAGE_SQL} WHERE m.club_id = ? ${ORDER}`);
const pageByName = db.query<Record<string, unknown>, [string, number, number]>(`${PAGE_SQL} WHERE m.club_id = ? ${BY_NAME}`);
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

const ROUTE = /^\/api\/clubs\/([0-9a-f-]{36})\/members$/;

base.serve((request, srv) => {
  const started = performance.now();
  const url = new URL(request.url);
  const match = ROUTE.exec(url.pathname);
  if (!match) return json(404, { detail: "not found" });
  if (BARE) {
    const pageOf = url.searchParams.get("sort") === "name" ? pageByName : pageAll;
    const today = new Date().toISOString().slice(0, 10);
    return json(200, { items: pageOf.all(match[1], 50, 0).map((r) => item(r, today)) });
  }
  const key = base.keyOf(request);
  if (!key) return json(401, { detail: "unauthorized" });
  let answer: Response;
  if (match[1] !== key.club_id) answer = json(403, { detail: "forbidden" });
  else {
    const page = Math.max(1, Number(url.searchParams.get("page") ?? 1) || 1);
    const limit = Math.min(1000, Math.max(1, Number(url.searchParams.get("limit") ?? 50) || 50));
    const search = fold((url.searchParams.get("search") ?? "").trim());
    const today = new Date().toISOString().slice(0, 10);
    const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const total = (search ? countSearch.get(key.club_id, like) : countAll.get(key.club_id))?.n ?? 0;
    const pageOf = url.searchParams.get("sort") === "name" ? pageByName : pageAll;
    const rows = search ? pageSearch.all(key.club_id, like, limit, (page - 1) * limit) : pageOf.all(key.club_id, limit, (page - 1) * limit);
    answer = json(200, { total, page, limit, items: rows.map((r) => item(r, today)) });
  }
  base.audit({
    key,
    method: request.method,
    path: url.pathname,
    status: answer.status,
    started,
    ip: srv.requestIP(request)?.address ?? null,
    at: new Date().toISOString(),
  });
  return answer;
});
