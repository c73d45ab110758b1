// Rows the cards tests need, inserted directly (the member verbs live on another branch):
// tiers and members of a club, and scans at chosen times.
import { members, scans, tiers } from "../db/schema";
import { newId, randomBase62, readableCode } from "../lib/ids";
import { todayUtc } from "../lib/members/status";
import type { TestEnv } from "./helpers";

const DAY_MS = 86_400_000;
export const dayOffset = (n: number, from = new Date()) => new Date(from.getTime() + n * DAY_MS).toISOString().slice(0, 10);

export async function addTier(env: TestEnv, opts: { clubId?: string; name?: string } = {}) {
  const now = new Date().toISOString();
  const [tier] = await env.db.tx((t) =>
    t
      .insert(tiers)
      .values({
        id: newId(),
        club_id: opts.clubId ?? env.clubId,
        name: opts.name ?? "Standard",
        price_cents: 5000,
        currency: "CHF",
        duration_months: 12,
        created_at: now,
        updated_at: now,
      })
      .returning(),
  );
  return tier;
}

export type MemberOverrides = Partial<typeof members.$inferInsert>;

export async function addMember(env: TestEnv, overrides: MemberOverrides = {}) {
  const now = new Date().toISOString();
  const first = overrides.first_name ?? "Alice";
  const last = overrides.last_name ?? "Martin";
  const [member] = await env.db.tx((t) =>
    t
      .insert(members)
      .values({
        id: newId(),
        club_id: env.clubId,
        first_name: first,
        last_name: last,
        email: `m-${crypto.randomUUID()}@test.org`,
        membership_start: dayOffset(-30),
        membership_end: dayOffset(300),
        payment_status: "paid",
        pass_serial_number: randomBase62(24),
        referral_code: readableCode(8),
        search_text: `${first} ${last}`.toLowerCase(),
        created_at: now,
        updated_at: now,
        ...overrides,
      })
      .returning(),
  );
  return member;
}

export async function addScan(env: TestEnv, opts: { at: string; memberId?: string | null; status?: string; clubId?: string; code?: string }) {
  const [scan] = await env.db.tx((t) =>
    t
      .insert(scans)
      .values({
        id: newId(),
        club_id: opts.clubId ?? env.clubId,
        member_id: opts.memberId ?? null,
        code: opts.code ?? "CODE",
        status: opts.status ?? (opts.memberId ? "active" : "unknown"),
        key_prefix: null,
        admin_id: env.adminId,
        scanned_at: opts.at,
      })
      .returning(),
  );
  return scan;
}

export { todayUtc };
