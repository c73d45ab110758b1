// Hand-written baseline for GET /api/auth/me: the least an audited, authenticated read must do,
// with nothing of ours in the way (no framework, no ORM, no group commit). Bun.serve + bun:sqlite
// on the same database file and schema as the server (WAL, synchronous = FULL): look the key up
// by its SHA-256, read its club, insert one audit row (its own implicit transaction, so one disk
// sync per request), answer JSON. Any other path is a 404.
//
// Run by scripts/bench/auth-me.ts: `DATABASE_URL=... PORT=... bun scripts/bench/baseline-auth-me.ts`.
import { json, openBaseline } from "./baseline-server";

const base = openBaseline();
const { db } = base;

const findClub = db.query<Record<string, unknown>, [string]>("SELECT * FROM clubs WHERE id = ?");

base.serve((request, srv) => {
  const started = performance.now();
  const url = new URL(request.url);
  if (url.pathname !== "/api/auth/me") return json(404, { detail: "not found" });
  const key = base.keyOf(request);
  if (!key) return json(401, { detail: "unauthorized" });
  const club = findClub.get(key.club_id);
  const body = { admin_id: key.admin_id, club_id: key.club_id, club };
  base.audit({
    key,
    method: request.method,
    path: url.pathname,
    status: 200,
    started,
    ip: srv.requestIP(request)?.address ?? null,
    at: new Date().toISOString(),
  });
  return json(200, body);
});
