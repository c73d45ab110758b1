// The waiting list under real concurrency (DESIGN.md section 12): the real server as a child
// process, and cancellations, a repeated cancellation and new public registrations sent to it at
// the same moment over HTTP. Read back from the database file: never more places held than the
// capacity, exactly one promotion (and one mail) per freed place, nobody promoted twice.
import { afterAll, beforeAll, expect, it } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ServerProcess, startServer } from "../reliability/server-process";

let dir: string;
let dbPath: string;
let server: ServerProcess;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "waitlist-race-"));
  dbPath = join(dir, "club.db");
  // Each request names its own client address (the public routes are limited per address).
  server = await startServer(dbPath, { RATE_LIMIT_PER_MINUTE: "1000000", TRUST_PROXY: "127.0.0.1", LOG_LEVEL: "silent", PUBLIC_FORM_POW_BITS: "0" });
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

let address = 0;
async function call(method: string, path: string, body?: unknown, withKey = true) {
  const headers: Record<string, string> = { "content-type": "application/json", "x-forwarded-for": `10.20.${(address >> 8) & 255}.${address++ & 255}` };
  if (withKey) headers.authorization = `Bearer ${server.key}`;
  const res = await fetch(`${server.base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as { id: string; status: string; tickets: { id: string }[] } };
}
const register = (eventId: string, ticketId: string, first: string) =>
  call(
    "POST",
    `/api/public/events/${eventId}/registrations`,
    { ticket_id: ticketId, first_name: first, last_name: "Race", email: `${first}@example.org` },
    false,
  );

const CAPACITY = 3;

it("2 cancellations (one sent twice) racing 3 registrations, 8 rounds: never over capacity, one promotion per freed place", async () => {
  const club = `/api/clubs/${server.clubId}`;
  const db = new Database(dbPath, { readonly: true });
  try {
    for (let round = 0; round < 8; round++) {
      const event = await call("POST", `${club}/events`, {
        title: `Race ${round}`,
        starts_at: "2031-06-20T18:00:00Z",
        capacity: CAPACITY,
        waitlist_enabled: true,
        tickets: [{ name: "Free", non_member_price_cents: 0 }],
      });
      expect(event.status).toBe(201);
      const eventId = event.body.id as string;
      const ticketId = event.body.tickets[0].id as string;
      const placed = [];
      for (const first of ["a", "b", "c"]) placed.push((await register(eventId, ticketId, first)).body);
      const waiting = [];
      for (const first of ["w1", "w2", "w3"]) waiting.push((await register(eventId, ticketId, first)).body);
      expect(placed.map((r) => r.status)).toEqual(["confirmed", "confirmed", "confirmed"]);
      expect(waiting.map((r) => r.status)).toEqual(["waitlisted", "waitlisted", "waitlisted"]);

      const cancel = (id: string) => call("POST", `${club}/events/${eventId}/registrations/${id}/actions/cancel`, {});
      const answers = await Promise.all([
        cancel(placed[0].id),
        register(eventId, ticketId, "n1"),
        cancel(placed[1].id),
        register(eventId, ticketId, "n2"),
        cancel(placed[0].id),
        register(eventId, ticketId, "n3"),
      ]);
      const cancels = [answers[0], answers[2], answers[4]];
      expect(cancels.map((a) => a.status).sort()).toEqual([200, 200, 409]);
      for (const a of [answers[1], answers[3], answers[5]]) expect([a.status, a.body.status]).toEqual([201, "waitlisted"]);

      const rows = db.query("SELECT first_name, status FROM event_registrations WHERE event_id = ?").all(eventId) as { first_name: string; status: string }[];
      const status = Object.fromEntries(rows.map((r) => [r.first_name, r.status]));
      expect(rows.filter((r) => r.status === "confirmed" || r.status === "pending")).toHaveLength(CAPACITY);
      // Two places freed: the two oldest waitlisted moved up, nobody else.
      expect(status).toEqual({
        a: "cancelled",
        b: "cancelled",
        c: "confirmed",
        w1: "confirmed",
        w2: "confirmed",
        w3: "waitlisted",
        n1: "waitlisted",
        n2: "waitlisted",
        n3: "waitlisted",
      });
      const mails = db
        .query("SELECT json_extract(payload, '$.message.to') AS to_address FROM jobs WHERE kind = 'mail' AND payload LIKE ?")
        .all(`%Race ${round}%`) as { to_address: string }[];
      expect(mails.map((m) => m.to_address).sort()).toEqual(["w1@example.org", "w2@example.org"]);
    }
  } finally {
    db.close();
  }
}, 120_000);
