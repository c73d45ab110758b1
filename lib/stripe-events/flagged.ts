// Payments to check (issue 32): what a payment provider reported paying that is not what the
// product asked for (another currency or amount than its Checkout, a refund beyond its payment).
// Such a payment is recorded here, in the transaction of the provider's event, and NOT applied: no
// renewal, no confirmed ticket, no row in `payments` (which every total, receipt and export
// reads). The treasurer sees it in the list below (and a member's in their history), and decides:
// refund it at the provider, or record it by hand (mark-paid, confirm).
import { and, count, desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Queryable } from "../../db";
import { flaggedPayments, members } from "../../db/schema";
import { type Ctx, verb } from "../context";
import { newId, nowIso } from "../ids";
import { namingRead } from "../../db/locks";
import { writeHistory } from "../members/internal";

/** An amount in a currency (ISO 4217, upper case). */
export type Money = { amount: number; currency: string };

/** What was asked: its amount may be unknown (a Checkout opened before the product wrote it down), never its currency. */
export type Expected = { amount: number | null; currency: string };

/** Whether `paid` is what was `expected`: the same currency, and the same amount when it is known. */
export const paidAsAsked = (paid: Money, expected: Expected): boolean =>
  paid.currency === expected.currency.toUpperCase() && (expected.amount === null || paid.amount === expected.amount);

export type FlaggedPaymentInput = {
  clubId: string;
  event: { id: string; type: string };
  purpose: "membership" | "event" | "refund";
  memberId?: string | null;
  registrationId?: string | null;
  paid: Money;
  expected: Expected;
  providerPaymentId?: string | null;
};

/**
 * Records, inside `t`, a provider's payment that is not what was asked; a member's is written in
 * their history too (`payment_flagged`), where the dashboard shows it. Answers the outcome its
 * event is stored with.
 */
export async function flagPayment(t: Queryable, author: Ctx, input: FlaggedPaymentInput): Promise<string> {
  // Read and locked first (namingRead): the row names the member only if they are still there.
  // One gone (erased, or created by an import undone since) is named by no new row: the row
  // keeps the provider's payment and registration, which say what it was.
  const [m] = input.memberId
    ? await namingRead(
        t
          .select({ id: members.id, payment_status: members.payment_status, membership_end: members.membership_end })
          .from(members)
          .where(and(eq(members.club_id, input.clubId), eq(members.id, input.memberId)))
          .limit(1),
      )
    : [];
  await t.insert(flaggedPayments).values({
    id: newId(),
    club_id: input.clubId,
    provider_event_id: input.event.id,
    event_type: input.event.type,
    purpose: input.purpose,
    member_id: m?.id ?? null,
    registration_id: input.registrationId ?? null,
    amount_cents: input.paid.amount,
    currency: input.paid.currency,
    expected_amount_cents: input.expected.amount,
    expected_currency: input.expected.currency.toUpperCase(),
    provider_payment_id: input.providerPaymentId ?? null,
    created_at: nowIso(),
  });
  const details = {
    amount_cents: input.paid.amount,
    currency: input.paid.currency,
    expected_amount_cents: input.expected.amount,
    expected_currency: input.expected.currency.toUpperCase(),
    provider_payment_id: input.providerPaymentId ?? null,
  };
  // Nothing of the membership changes: from and to are the same.
  if (m) await writeHistory(author.db, t, author, { memberId: m.id, action: "payment_flagged", from: m, to: m, details });
  const asked = `${input.expected.amount ?? "?"} ${input.expected.currency.toUpperCase()}`;
  return `flagged: paid ${input.paid.amount} ${input.paid.currency}, asked ${asked}`;
}

export const FlaggedPaymentQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

export const FlaggedPayment = z
  .object({
    id: z.string(),
    provider_event_id: z.string().meta({ description: "The provider's event that reported it (Stripe's `evt_...`)." }),
    event_type: z.string().meta({ description: "Its type (`checkout.session.completed`, `invoice.paid`, `charge.refunded`)." }),
    purpose: z.enum(["membership", "event", "refund"]),
    member_id: z.string().nullable(),
    registration_id: z.string().nullable(),
    amount_cents: z.int().meta({ description: "What the provider says was paid (refunded, for a `refund`), in `currency`." }),
    currency: z.string(),
    expected_amount_cents: z.int().nullable().meta({ description: "What was asked; null when not known (a Checkout opened before the amount was recorded)." }),
    expected_currency: z.string().nullable(),
    provider_payment_id: z.string().nullable().meta({ description: "The provider's payment (Stripe's PaymentIntent `pi_...`), to refund or look up." }),
    created_at: z.string(),
  })
  .meta({ id: "FlaggedPayment" });

export const FlaggedPaymentList = z
  .object({ total: z.int(), page: z.int(), limit: z.int(), items: z.array(FlaggedPayment) })
  .meta({ id: "FlaggedPaymentList" });

/** The club's payments to check, newest first. */
export const listFlaggedPayments = verb("finances:view", async function listFlaggedPayments(ctx: Ctx, q: z.infer<typeof FlaggedPaymentQuery>): Promise<
  z.infer<typeof FlaggedPaymentList>
> {
  const where = eq(flaggedPayments.club_id, ctx.clubId);
  const [{ total }] = await ctx.db.read.select({ total: count() }).from(flaggedPayments).where(where);
  const rows = await ctx.db.read
    .select()
    .from(flaggedPayments)
    .where(where)
    .orderBy(desc(flaggedPayments.created_at), desc(flaggedPayments.id))
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  return { total, page: q.page, limit: q.limit, items: rows.map(({ club_id: _, ...r }) => r as z.infer<typeof FlaggedPayment>) };
});
