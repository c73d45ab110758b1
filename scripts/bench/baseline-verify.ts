// Hand-written baseline for GET /api/verify/<serial>: Bun.serve + bun:sqlite on the same database
// file as the server (WAL, synchronous = FULL). Per request: the key looked up by SHA-256, the
// member of the key's club whose pass serial is the code, else whose referral code is the code in
// upper case, with its tier's name (the same SQL as ours), the derived status, then ONE
// transaction inserting the scan row (every call records a scan, an unknown code too) and the
// audit row (one disk sync). Answer: `{valid, status, member, scanned_at}` as ours. Anything
// else is a 404.
//
// Run by scripts/bench/verify.ts: `DATABASE_URL=... PORT=... bun scripts/bench/baseline-verify.ts`.
import { type AuditEntry, json, openBaseline } from "./baseline-server";

const base = openBaseline();
const { db } = base;

type Member = {
  id: string;
  first_name: string;
  last_name: string;
  membership_end: string;
  payment_status: string;
  pass_serial_number: string;
  tier_name: string | null;
};
const findMember = db.query<Member, [string, string, string]>(
  `SELECT m.id, m.first_name, m.last_name, m.membership_end, m.payment_status, m.pass_serial_number, t.name AS tier_name
   FROM members m LEFT JOIN tiers t ON t.id = m.tier_id AND t.club_id = m.club_id
   WHERE m.club_id = ? AND (m.pass_serial_number = ? OR m.referral_code = ?) LIMIT 2`,
);
const insertScan = db.query("INSERT INTO scans (id, club_id, member_id, code, status, key_prefix, admin_id, scanned_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");

function status(m: Member | null, today: string): string {
  if (!m) return "unknown";
  if (m.payment_status === "suspended") return "suspended";
  if (m.membership_end < today) return "expired";
  return m.payment_status === "pending" ? "pending" : "active";
}

const record = db.transaction((scan: unknown[], audit: AuditEntry) => {
  insertScan.run(...(scan as never[]));
  base.audit(audit);
});

const PREFIX = "/api/verify/";

base.serve((request, srv) => {
  const started = performance.now();
  const url = new URL(request.url);
  if (!url.pathname.startsWith(PREFIX)) return json(404, { detail: "not found" });
  const serial = decodeURIComponent(url.pathname.slice(PREFIX.length));
  if (!serial || serial.length > 100 || serial.includes("/")) return json(422, { detail: [{ loc: ["path", "serial"], msg: "invalid", type: "invalid" }] });
  const key = base.keyOf(request);
  if (!key) return json(401, { detail: "unauthorized" });
  const code = serial.trim();
  const rows = findMember.all(key.club_id, code, code.toUpperCase());
  const member = rows.find((r) => r.pass_serial_number === code) ?? rows[0] ?? null;
  const now = new Date();
  const scannedAt = now.toISOString();
  const verdict = status(member, scannedAt.slice(0, 10));
  const body = {
    valid: verdict === "active",
    status: verdict,
    member: member
      ? { id: member.id, first_name: member.first_name, last_name: member.last_name, tier_name: member.tier_name, membership_end: member.membership_end }
      : null,
    scanned_at: scannedAt,
  };
  record.immediate([Bun.randomUUIDv7(), key.club_id, member?.id ?? null, serial.slice(0, 100), verdict, key.prefix, key.admin_id, scannedAt], {
    key,
    method: request.method,
    path: url.pathname,
    status: 200,
    started,
    ip: srv.requestIP(request)?.address ?? null,
    at: scannedAt,
  });
  return json(200, body);
});
