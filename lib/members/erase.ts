// Erasure of a member (GDPR art. 17, DESIGN.md section 12). The member's row is deleted; what
// the club must keep for its accounts and statistics stays, attached to the anonymous member
// the erased id now names (no row, so it is in no list, export, count, card or verify): the
// payments and their amounts, the registrations with their amounts and statuses, the history
// rows, the card scans. Everything in them that says who the member was goes: names, email,
// free-text reasons, custom fields, codes and tokens, wallet registrations, queued mail. The
// copies of the card in the member's wallets are voided (lib/passes/voided). The
// database zeroes what is deleted or overwritten (`secure_delete`, db/index.ts), so none of it
// stays readable in the file's free space.
import { endStripeSubscriptionNow, STRIPE_END_SUBSCRIPTION_JOB } from "../stripe";
import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { Queryable } from "../../db";
import { appleRegistrations, checkIns, eventRegistrations, mailingRecipients, memberHistory, members, payments, scans } from "../../db/schema";
import { type Ctx, verb } from "../context";
import { nowIso, randomBase62 } from "../ids";
import { eraseAnswersMentioning } from "../idempotency";
import { eraseTaskResultsMentioning } from "../mcp-tasks";
import { enqueueJob, forgetJobsMentioning } from "../jobs";
import { voidWalletPasses } from "../passes/voided";
import { emit, fanOutAllIn, forgetDeliveriesMentioning } from "../webhooks/emit";
import { memberMailings, memberRegistrations } from "./history";
import { getMemberRow, historyRow, lockMember, type MemberRow } from "./internal";

/** Keys of a history row's details that say nothing about who the member was (amounts, periods). */
const KEPT_DETAILS = ["amount_cents", "payment_method", "payment_id", "months", "fields"] as const;

function keptDetails(details: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!details) return null;
  const kept = Object.fromEntries(KEPT_DETAILS.filter((k) => k in details).map((k) => [k, details[k]]));
  return Object.keys(kept).length ? kept : null;
}

/** The member's registrations lose names, email, answers and ticket code; amounts and statuses stay. Answers their ids. */
async function anonymiseRegistrations(t: Queryable, ctx: Ctx, m: MemberRow): Promise<string[]> {
  const regs = await t
    .select({ id: eventRegistrations.id, qr_token: eventRegistrations.qr_token })
    .from(eventRegistrations)
    .where(memberRegistrations(ctx.clubId, m));
  const now = nowIso();
  for (const r of regs) {
    // A fresh random code: the column is unique, and the old code must no longer name anyone.
    await t
      .update(eventRegistrations)
      .set({ first_name: "", last_name: "", email: null, email_key: null, custom_fields: null, qr_token: randomBase62(24), updated_at: now })
      .where(eq(eventRegistrations.id, r.id));
  }
  // Check-in rows keep the code as scanned: the member's ticket codes and card code go too.
  const codes = [...regs.map((r) => r.qr_token), m.referral_code, m.pass_serial_number];
  const regIds = regs.map((r) => r.id);
  await t
    .update(checkIns)
    .set({ code: "" })
    .where(
      and(
        eq(checkIns.club_id, ctx.clubId),
        or(
          inArray(checkIns.code, codes),
          sql`upper(${checkIns.code}) = ${m.referral_code}`,
          regIds.length ? inArray(checkIns.registration_id, regIds) : undefined,
        ),
      ),
    );
  return regIds;
}

/**
 * Erases the member (404 MEMBER_NOT_FOUND for an unknown id or another club's). Cannot be
 * undone. Their Stripe subscription, if any, is cancelled at once (502 when Stripe refuses:
 * nothing is erased then); without Stripe's keys the erasure goes ahead and a job ends the
 * subscription once the keys are back. Stats stay true: revenue is read from the payments, which
 * stay; the member counts lose the member, who is no longer one.
 */
export const eraseMember = verb("members:edit", async function eraseMember(ctx: Ctx, input: { member_id: string }): Promise<void> {
  // A Stripe subscription would go on charging someone nobody here knows any more: it ends now,
  // before anything is erased (502 when Stripe refuses: nothing is erased then). Without the keys
  // a person's erasure does not wait for them: the subscription is ended later (a job, below).
  const seen = await getMemberRow(ctx.db.read, ctx.clubId, input.member_id);
  if (seen.stripe_subscription_id && ctx.stripe) await endStripeSubscriptionNow(ctx.stripe, seen.stripe_subscription_id);
  await ctx.db.tx(async (t) => {
    await lockMember(t, input.member_id);
    const m = await getMemberRow(t, ctx.clubId, input.member_id);
    const registrationIds = await anonymiseRegistrations(t, ctx, m);
    await t
      .update(scans)
      .set({ code: "" })
      .where(and(eq(scans.club_id, ctx.clubId), eq(scans.member_id, m.id)));
    await t
      .update(payments)
      .set({ reason: null })
      .where(and(eq(payments.club_id, ctx.clubId), eq(payments.member_id, m.id)));
    const history = await t
      .select({ id: memberHistory.id, details: memberHistory.details })
      .from(memberHistory)
      .where(and(eq(memberHistory.club_id, ctx.clubId), eq(memberHistory.member_id, m.id)));
    for (const h of history)
      await t
        .update(memberHistory)
        .set({ reason: null, details: keptDetails(h.details) })
        .where(eq(memberHistory.id, h.id));
    // The copies in the member's wallets are told they are void (the registrations move to the tombstone).
    await voidWalletPasses(t, ctx.clubId, ctx.wallets, m);
    await t.delete(appleRegistrations).where(and(eq(appleRegistrations.club_id, ctx.clubId), eq(appleRegistrations.member_id, m.id)));
    // Events not yet fanned out carry the member's data in their job: fanned out first (their
    // jobs used up), their deliveries are forgotten below as any other (still sent, as
    // `{"erased": true}`). Else forgetJobsMentioning deleted the event and nothing was sent.
    await fanOutAllIn(ctx.db, t, ctx.clubId);
    await forgetJobsMentioning(t, ctx.clubId, m.email);
    // Stripe's id only (no name, no address): what it takes to stop the charges.
    if (m.stripe_subscription_id && !ctx.stripe) {
      await enqueueJob(t, { clubId: ctx.clubId, kind: STRIPE_END_SUBSCRIPTION_JOB, payload: { subscription: m.stripe_subscription_id } });
    }
    // The member's mailing deliveries keep their states (the mailings' counts) but not the address;
    // one still to go is not sent (lib/mailings reads the member, who is gone, and fails it too).
    await t.update(mailingRecipients).set({ email: "" }).where(memberMailings(ctx.clubId, m.id));
    // A check-in's answer names the registration (with the member's names), not the member.
    await eraseAnswersMentioning(t, ctx.clubId, [m.id, m.email, ...registrationIds]);
    await eraseTaskResultsMentioning(t, ctx.clubId, [m.id, m.email]);
    await forgetDeliveriesMentioning(t, ctx.clubId, [m.email, m.id]);
    // Who erased, and when: the last row of the anonymous member's history.
    await t.insert(memberHistory).values(historyRow(ctx, { memberId: m.id, action: "erase", from: m, to: m }));
    await t.delete(members).where(and(eq(members.club_id, ctx.clubId), eq(members.id, m.id)));
    // Only the id: the member's data is what was just erased.
    await emit(ctx.db, t, ctx.clubId, "member.deleted", () => ({ id: m.id, deleted_at: nowIso() }));
  });
});
