// Rows the events tests need from other areas (members, tiers, payments), inserted directly,
// plus a registration inserted without the public route.
import { asc, eq } from "drizzle-orm";
import { eventRegistrations, members, payments, tiers } from "../db/schema";
import { newId, randomBase62 } from "../lib/ids";
import type { TestEnv } from "./helpers";

const today = () => new Date().toISOString().slice(0, 10);
export const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A date-time `days` from today at `time` UTC ("2027-05-20T18:00:00Z"): tests stay true whatever year they run in. */
export const inDaysAt = (days: number, time = "18:00:00") => `${inDays(days)}T${time}Z`;

export async function insertTier(env: TestEnv, opts: { clubId?: string; name?: string } = {}) {
  const now = new Date().toISOString();
  const [row] = await env.db.tx((t) =>
    t
      .insert(tiers)
      .values({
        id: newId(),
        club_id: opts.clubId ?? env.clubId,
        name: opts.name ?? "Gold",
        price_cents: 10000,
        currency: "CHF",
        duration_months: 12,
        created_at: now,
        updated_at: now,
      })
      .returning(),
  );
  return row;
}

export async function insertMember(
  env: TestEnv,
  opts: {
    clubId?: string;
    code?: string;
    tierId?: string | null;
    paymentStatus?: string;
    end?: string;
    start?: string;
    createdAt?: string;
    first?: string;
  } = {},
) {
  const now = opts.createdAt ?? new Date().toISOString();
  const code = opts.code ?? randomBase62(8).toUpperCase();
  const [row] = await env.db.tx((t) =>
    t
      .insert(members)
      .values({
        id: newId(),
        club_id: opts.clubId ?? env.clubId,
        first_name: opts.first ?? "Ada",
        last_name: "Lovelace",
        email: `${code.toLowerCase()}-${newId()}@test.org`,
        membership_start: opts.start ?? today(),
        membership_end: opts.end ?? inDays(300),
        payment_status: opts.paymentStatus ?? "paid",
        pass_serial_number: randomBase62(20),
        referral_code: code,
        tier_id: opts.tierId ?? null,
        search_text: "ada",
        created_at: now,
        updated_at: now,
      })
      .returning(),
  );
  return row;
}

export async function insertRegistration(
  env: TestEnv,
  opts: {
    eventId: string;
    ticketId: string;
    status?: string;
    memberId?: string | null;
    amount?: number;
    first?: string;
    email?: string;
    checkedInAt?: string | null;
  },
) {
  const now = new Date().toISOString();
  const [row] = await env.db.tx((t) =>
    t
      .insert(eventRegistrations)
      .values({
        id: newId(),
        club_id: env.clubId,
        event_id: opts.eventId,
        ticket_id: opts.ticketId,
        member_id: opts.memberId ?? null,
        is_member: !!opts.memberId,
        first_name: opts.first ?? "Grace",
        last_name: "Hopper",
        email: opts.email ?? "grace@test.org",
        qr_token: randomBase62(24),
        status: opts.status ?? "confirmed",
        amount_cents: opts.amount ?? 0,
        currency: "CHF",
        checked_in_at: opts.checkedInAt ?? null,
        created_at: now,
        updated_at: now,
      })
      .returning(),
  );
  return row;
}

export async function insertPayment(
  env: TestEnv,
  opts: {
    kind: "membership" | "event";
    amount: number;
    paidAt: string;
    fee?: number;
    commission?: number;
    registrationId?: string;
    memberId?: string;
    clubId?: string;
    /** Default: `provider` with a fee, else `manual`. */
    source?: "manual" | "provider";
    method?: string;
  },
) {
  const source = opts.source ?? (opts.fee ? "provider" : "manual");
  const [row] = await env.db.tx((t) =>
    t
      .insert(payments)
      .values({
        id: newId(),
        club_id: opts.clubId ?? env.clubId,
        member_id: opts.memberId ?? null,
        kind: opts.kind,
        registration_id: opts.registrationId ?? null,
        amount_cents: opts.amount,
        currency: "CHF",
        method: opts.method ?? (source === "provider" ? "card" : "bank_transfer"),
        source,
        provider_fee_cents: opts.fee ?? 0,
        platform_commission_cents: opts.commission ?? 0,
        paid_at: opts.paidAt,
        created_at: opts.paidAt,
      })
      .returning(),
  );
  return row;
}

/**
 * A POST as a client at address `ip` sends it, through the real app (`key`: the all-edit key
 * unless given; null: none, a public route). For many requests at once: the races' tests.
 */
export async function postAs<B = Record<string, any>>(env: TestEnv, path: string, body: unknown, opts: { key?: string | null; ip?: string } = {}) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  const key = opts.key === undefined ? env.key : opts.key;
  if (key) headers.authorization = `Bearer ${key}`;
  const res = await env.app.handle(new Request(`http://localhost${path}`, { method: "POST", headers, body: JSON.stringify(body) }), opts.ip ?? null);
  return { status: res.status, body: (await res.json()) as B };
}

/** An event made through the API (the all-edit key), answering its EventAdminDetail; it starts in 180 days unless told. */
export async function createEventVia(env: TestEnv, body: Record<string, unknown> = {}) {
  const res = await env.call("POST", `/api/clubs/${env.clubId}/events`, { body: { title: "Soirée", starts_at: inDaysAt(180), ...body } });
  if (res.status !== 201) throw new Error(`create event: ${res.status} ${res.text}`);
  return res.body;
}

/** The registration row as stored now. */
export async function registrationRow(env: TestEnv, id: string) {
  const [row] = await env.db.read.select().from(eventRegistrations).where(eq(eventRegistrations.id, id));
  return row;
}

/** The payment rows of a registration, oldest first. */
export async function registrationPayments(env: TestEnv, registrationId: string) {
  return env.db.read.select().from(payments).where(eq(payments.registration_id, registrationId)).orderBy(asc(payments.created_at));
}

/** Statuses of an event's registrations by first name (what the waiting-list tests read). */
export async function statusesOf(env: TestEnv, eventId: string): Promise<Record<string, string>> {
  const rows = await env.db.read.select().from(eventRegistrations).where(eq(eventRegistrations.event_id, eventId));
  return Object.fromEntries(rows.map((r) => [r.first_name, r.status]));
}

/** A public registration's answer, or its refusal's `code`. */
export type PublicAnswer = { id: string; status: string; qr_token: string; amount_cents: number; discount_cents: number; code?: string };

/** A public registration (no key), answering status and body; by a mailbox of its own unless `body` names one. */
export async function registerPublic(env: TestEnv, eventId: string, body: Record<string, unknown>, ip = "10.0.0.1") {
  const res = await env.app.handle(
    new Request(`http://localhost/api/public/events/${eventId}/registrations`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ first_name: "Ana", last_name: "Silva", email: `ana-${crypto.randomUUID().slice(0, 8)}@example.org`, ...body }),
    }),
    ip,
  );
  return { status: res.status, body: (await res.json()) as PublicAnswer };
}
