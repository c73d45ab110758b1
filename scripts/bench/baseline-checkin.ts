// Hand-written baseline for POST /api/clubs/<club_id>/events/<event_id>/checkin `{code}` (a
// ticket's qr token): Bun.serve + bun:sqlite on the same database file as the server (WAL,
// synchronous = FULL). Per request: the key looked up by SHA-256, the path's club compared with
// the key's (403), the JSON body read, then ONE `BEGIN IMMEDIATE` transaction: the event read in
// the club (404), the registration found by qr token at this event, on a first scan of a
// confirmed registration the single-row update `SET checked_in_at = ? WHERE id = ? AND
// checked_in_at IS NULL`, the check-in row inserted (every scan is stored), the ticket's name
// read, the audit row inserted; commit (one disk sync). Answer: `{verdict, checked_in_at,
// registration}` as ours. Anything else is a 404.
//
// Run by scripts/bench/checkin.ts: `DATABASE_URL=... PORT=... bun scripts/bench/baseline-checkin.ts`.
import { json, type Key, openBaseline } from "./baseline-server";

const base = openBaseline();
const { db } = base;

type Registration = { id: string; ticket_id: string; first_name: string; last_name: string; status: string; checked_in_at: string | null };
const findEvent = db.query<{ id: string }, [string, string]>("SELECT id FROM events WHERE id = ? AND club_id = ?");
const findRegistration = db.query<Registration, [string, string, string]>(
  "SELECT id, ticket_id, first_name, last_name, status, checked_in_at FROM event_registrations WHERE qr_token = ? AND event_id = ? AND club_id = ? LIMIT 1",
);
const checkIn = db.query<{ checked_in_at: string }, [string, string, string]>(
  "UPDATE event_registrations SET checked_in_at = ?, updated_at = ? WHERE id = ? AND checked_in_at IS NULL RETURNING checked_in_at",
);
const insertCheckIn = db.query(
  "INSERT INTO check_ins (id, club_id, event_id, registration_id, code, verdict, nonce, admin_id, key_prefix, created_at) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)",
);
const ticketName = db.query<{ name: string }, [string]>("SELECT name FROM event_tickets WHERE id = ?");

const ROUTE = /^\/api\/clubs\/([0-9a-f-]{36})\/events\/([0-9a-f-]{36})\/checkin$/;

type Outcome = { status: number; body: unknown };
type Audit = { method: string; path: string; started: number; ip: string | null };

const scan = db.transaction((key: Key, eventId: string, code: string, audit: Audit): Outcome => {
  const now = new Date().toISOString();
  let outcome: Outcome;
  if (!findEvent.get(eventId, key.club_id)) outcome = { status: 404, body: { detail: "event not found", code: "EVENT_NOT_FOUND" } };
  else {
    const reg = findRegistration.get(code, eventId, key.club_id);
    let verdict: string;
    let checkedInAt = reg?.checked_in_at ?? null;
    if (reg?.status !== "confirmed") verdict = "not_registered";
    else if (reg.checked_in_at) verdict = "already";
    else {
      verdict = "valid";
      checkedInAt = checkIn.get(now, now, reg.id)?.checked_in_at ?? null;
    }
    insertCheckIn.run(Bun.randomUUIDv7(), key.club_id, eventId, reg?.id ?? null, code.slice(0, 200), verdict, key.admin_id, key.prefix, now);
    const body =
      verdict === "not_registered" || !reg
        ? { verdict: "not_registered", checked_in_at: null, registration: null }
        : {
            verdict,
            checked_in_at: checkedInAt,
            registration: { id: reg.id, first_name: reg.first_name, last_name: reg.last_name, ticket_name: ticketName.get(reg.ticket_id)?.name ?? "" },
          };
    outcome = { status: 200, body };
  }
  base.audit({ key, method: audit.method, path: audit.path, status: outcome.status, started: audit.started, ip: audit.ip, at: now });
  return outcome;
});

base.serve(async (request, srv) => {
  const started = performance.now();
  const url = new URL(request.url);
  const match = ROUTE.exec(url.pathname);
  if (!match || request.method !== "POST") return json(404, { detail: "not found" });
  const key = base.keyOf(request);
  if (!key) return json(401, { detail: "unauthorized" });
  if (match[1] !== key.club_id) return json(403, { detail: "forbidden" });
  const body = (await request.json().catch(() => null)) as { code?: unknown } | null;
  const code = typeof body?.code === "string" ? body.code.trim() : "";
  if (!code || code.length > 200) return json(422, { detail: [{ loc: ["body", "code"], msg: "invalid", type: "invalid" }] });
  const outcome = scan.immediate(key, match[2], code, { method: request.method, path: url.pathname, started, ip: srv.requestIP(request)?.address ?? null });
  return json(outcome.status, outcome.body);
});
