// A payment provider's payouts to the club's bank (DESIGN.md section 21): recorded from Stripe's
// `payout.paid` (lib/stripe-events), read by the journal, which books each from the passage
// account to the bank. A payout is the installation's Stripe account's, so it may carry several
// clubs' payments: each club's share is the net of its own payments and refunds in it, found by
// their PaymentIntents; what names none of ours (an adjustment) is no club's. Also a payout seen
// on the club's bank statement: told apart from members' payments, matched to the payout
// recorded, or recorded from the line when it names the payout (lib/bank/import.ts calls these).
import { and, asc, eq, gte, inArray, isNull, lte } from "drizzle-orm";
import type { Db, Queryable } from "../../db";
import { payments, payouts } from "../../db/schema";
import type { Ctx } from "../context";
import { newId, nowIso } from "../ids";
import type { PayoutPart } from "../stripe";
import { periodWhere } from "./ledger";

export type PayoutRow = typeof payouts.$inferSelect;

/** Each club's share of a payout's parts (cents, by club id), from the payments their PaymentIntents recorded. */
export async function payoutShares(db: Db, parts: PayoutPart[]): Promise<Map<string, number>> {
  const intents = [...new Set(parts.map((p) => p.paymentIntent))];
  const clubOf = new Map<string, string>();
  for (let i = 0; i < intents.length; i += 500) {
    const rows = await db.read
      .selectDistinct({ club_id: payments.club_id, intent: payments.provider_payment_id })
      .from(payments)
      .where(inArray(payments.provider_payment_id, intents.slice(i, i + 500)));
    for (const r of rows) if (r.intent) clubOf.set(r.intent, r.club_id);
  }
  const shares = new Map<string, number>();
  for (const p of parts) {
    const club = clubOf.get(p.paymentIntent);
    if (club) shares.set(club, (shares.get(club) ?? 0) + p.netCents);
  }
  return shares;
}

export type NewPayout = {
  clubId: string;
  providerPayoutId: string;
  amount: number;
  currency: string;
  paidAt: string;
  /** Recorded from the bank statement line `key` quoting the payout (lib/bank/import.ts): its amount is what reached the bank. */
  key?: string;
};

/**
 * Inside the caller's transaction: the club's share of a payout, once: the unique keys (club and
 * payout id; club and statement line) hold it should two copies race, and keep a payout recorded
 * from the bank's line from being recorded again by a later `payout.paid`. False when taken.
 */
export async function recordPayout(t: Queryable, input: NewPayout): Promise<boolean> {
  const rows = await t
    .insert(payouts)
    .values({
      id: newId(),
      club_id: input.clubId,
      provider_payout_id: input.providerPayoutId,
      amount_cents: input.amount,
      currency: input.currency.toUpperCase(),
      paid_at: input.paidAt,
      created_at: nowIso(),
      statement_line_key: input.key ?? null,
    })
    .onConflictDoNothing()
    .returning({ id: payouts.id });
  return rows.length > 0;
}

/** The club's payouts of a period (a few a week at most: read at once), in the order of (paid_at, id). */
export function payoutsOf(ctx: Ctx, from: string, to: string): Promise<PayoutRow[]> {
  return ctx.db.read
    .select()
    .from(payouts)
    .where(and(eq(payouts.club_id, ctx.clubId), ...periodWhere(payouts.paid_at, from, to)))
    .orderBy(asc(payouts.paid_at), asc(payouts.id));
}

/**
 * Whether a statement line is a Stripe payout, from its text (case kept) and counterparty: `id`
 * when it quotes the payout's id (`po_...`), else null when it only names Stripe (the payout's
 * statement descriptor, STRIPE by default, or Stripe as the payer). Undefined: not a payout.
 */
export function payoutOfLine(line: { text: string; counterparty: string | null }): { id: string | null } | undefined {
  const id = /\bpo_[A-Za-z0-9]{8,}\b/.exec(line.text)?.[0];
  if (id) return { id };
  return /\bstripe\b/i.test(`${line.text} ${line.counterparty ?? ""}`) ? { id: null } : undefined;
}

/** Days between a payout's arrival date and the bank's booking of it that still match (weekends, a bank's delay). */
export const PAYOUT_DAYS = 5;

/** The club's payouts a statement's payout lines may be: those they name by id, and those not yet seen on a line arriving within the file's days (± PAYOUT_DAYS). */
export async function payoutCandidates(q: Queryable, clubId: string, ids: string[], from: string | null, to: string | null): Promise<PayoutRow[]> {
  const byId = ids.length
    ? await q
        .select()
        .from(payouts)
        .where(and(eq(payouts.club_id, clubId), inArray(payouts.provider_payout_id, ids)))
    : [];
  const unseen =
    from && to
      ? await q
          .select()
          .from(payouts)
          .where(
            and(
              eq(payouts.club_id, clubId),
              isNull(payouts.statement_line_key),
              gte(payouts.paid_at, `${shiftDay(from, -PAYOUT_DAYS)}T00:00:00.000Z`),
              lte(payouts.paid_at, `${shiftDay(to, PAYOUT_DAYS)}T23:59:59.999Z`),
            ),
          )
          .orderBy(asc(payouts.paid_at), asc(payouts.id))
      : [];
  const seen = new Set(byId.map((p) => p.id));
  return [...byId, ...unseen.filter((p) => !seen.has(p.id))];
}

const shiftDay = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Days between two YYYY-MM-DD days, whatever their order. */
export const daysApart = (a: string, b: string) => Math.abs(Date.parse(`${a.slice(0, 10)}T00:00:00Z`) - Date.parse(`${b.slice(0, 10)}T00:00:00Z`)) / 86_400_000;

/**
 * Inside the caller's transaction: the statement line `key` is the payout `id`'s arrival, once
 * (a conditional write: a payout another line or import took meanwhile is left, false).
 */
export async function matchPayoutLine(t: Queryable, clubId: string, id: string, key: string): Promise<boolean> {
  const rows = await t
    .update(payouts)
    .set({ statement_line_key: key })
    .where(and(eq(payouts.club_id, clubId), eq(payouts.id, id), isNull(payouts.statement_line_key)))
    .returning({ id: payouts.id });
  return rows.length > 0;
}
