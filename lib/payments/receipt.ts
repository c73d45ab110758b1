// The mail a payer gets for each payment recorded (DESIGN.md section 13, "every payment mails a
// receipt"): amount, date, what it paid for and its reference, in the club's language; a refund
// (a negative payment) gets a refund note instead. Queued in the payment's transaction by
// lib/payments/record.ts, so it goes out if and only if the payment is stored.
import { eq } from "drizzle-orm";
import type { Queryable } from "../../db";
import { type clubs, eventRegistrations, events, eventTickets, members, type payments, tiers } from "../../db/schema";
import type { Locale } from "../i18n";
import { RECEIPT_TEXTS, type ReceiptTexts } from "../i18n/receipts";
import { queueMail } from "../mail";
import { clubMailLook, mailDay, mailMoney } from "../mail/look";
import { brandedBody, fillText } from "../mail/layout";
import { creditorReference, receiptNumber, registrationReference } from "./reference";

type PaymentRow = typeof payments.$inferSelect;

/** Who paid (the address the receipt goes to) and what for, as the rows stand after the payment. */
type Payer = { email: string | null; first_name: string; reference: string; what: (tx: ReceiptTexts, locale: Locale) => string };

async function memberPayer(t: Queryable, memberId: string): Promise<Payer | null> {
  const [m] = await t
    .select({ email: members.email, first_name: members.first_name, code: members.referral_code, end: members.membership_end, tier: tiers.name })
    .from(members)
    .leftJoin(tiers, eq(tiers.id, members.tier_id))
    .where(eq(members.id, memberId))
    .limit(1);
  if (!m) return null;
  return {
    email: m.email,
    first_name: m.first_name,
    reference: creditorReference(m.code),
    what: (tx, locale) => fillText(m.tier ? tx.membershipTier : tx.membership, { tier: m.tier ?? "", end: mailDay(m.end, locale) }),
  };
}

async function registrationPayer(t: Queryable, registrationId: string): Promise<Payer | null> {
  const [r] = await t
    .select({
      email: eventRegistrations.email,
      member_email: members.email,
      first_name: eventRegistrations.first_name,
      event: events.title,
      ticket: eventTickets.name,
    })
    .from(eventRegistrations)
    .innerJoin(events, eq(events.id, eventRegistrations.event_id))
    .innerJoin(eventTickets, eq(eventTickets.id, eventRegistrations.ticket_id))
    .leftJoin(members, eq(members.id, eventRegistrations.member_id))
    .where(eq(eventRegistrations.id, registrationId))
    .limit(1);
  if (!r) return null;
  return {
    email: r.email ?? r.member_email,
    first_name: r.first_name,
    reference: registrationReference(registrationId),
    what: (tx) => fillText(tx.event, { event: r.event, ticket: r.ticket }),
  };
}

/** Queues the receipt (or, for a negative amount, the refund note) of `payment` to its payer; nothing when the payer has no address (an erased member, an attendee added without one). */
export async function queueReceipt(t: Queryable, baseUrl: string, club: typeof clubs.$inferSelect, payment: PaymentRow): Promise<void> {
  const payer = payment.registration_id
    ? await registrationPayer(t, payment.registration_id)
    : payment.member_id
      ? await memberPayer(t, payment.member_id)
      : null;
  if (!payer?.email) return;
  const { locale, sender, brand } = clubMailLook(baseUrl, club);
  const tx = RECEIPT_TEXTS[locale];
  const mail = payment.amount_cents < 0 ? tx.refund : tx.receipt;
  const p = {
    first: payer.first_name,
    club: brand.name,
    amount: mailMoney(Math.abs(payment.amount_cents), payment.currency, locale),
    date: mailDay(payment.paid_at, locale),
    what: payer.what(tx, locale),
    reference: payer.reference,
    receipt: receiptNumber(payment.id),
  };
  const lines = [tx.lines.amount, tx.lines.date, tx.lines.what, tx.lines.reference, tx.lines.receipt].map((line) => fillText(line, p));
  await queueMail(t, club.id, {
    ...sender,
    to: payer.email,
    subject: fillText(mail.subject, p),
    ...brandedBody(brand, { paragraphs: [fillText(tx.hello, p), fillText(mail.body, p), lines.join("\n")], bye: tx.bye }),
  });
}
