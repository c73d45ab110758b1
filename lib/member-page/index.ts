// The member's own page (DESIGN.md section 14): /m/<manage_token> and its JSON twin
// /api/public/manage/<manage_token>. No credentials: the unguessable token is the key, and a wrong
// one is a plain 404. What a member may do there (correct their name, change their email through
// a link mailed to the new address, renew, turn the automatic renewal off and on, download their
// data, ask to be erased) is written to their history with `actor: member`.
import { timingSafeEqual } from "node:crypto";
import { and, eq, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { z } from "zod";
import { type Db, type Queryable, withinTx } from "../../db";
import { invoices, members, remindersSent, tiers } from "../../db/schema";
import { clubCardView } from "../cards/view";
import { type ClubRow, getClubRow } from "../clubs/internal";
import { type Ctx, type PublicCtx, systemCtx, verb } from "../context";
import { Conflict, NotFound, ValidationFailed } from "../errors";
import { asLocale } from "../i18n";
import { REMINDER_MAIL_TEXTS } from "../i18n/reminders";
import { newId, nowIso, randomBase62, sha256Hex } from "../ids";
import { queueJoinMail } from "./mails";
import { memberPageInvoices } from "./invoices";
import { invoiceDocument } from "../invoices/pdf";
import type { FileReply } from "../reply";
import { clubSender, queueMail } from "../mail";
import { brandedBody, fillText } from "../mail/layout";
import { queuePassUpdate, walletUrls } from "../passes";
import { memberDataDocument } from "../members/history";
import { assertEmailFree } from "../members/index";
import { type PaymentMethod, paymentMethods } from "../clubs/payments";
import { cancelAtPeriodEnd, createCheckout, MAX_SUBSCRIPTION_MONTHS, type StripeSettings } from "../stripe";
import { markMemberPaid } from "../members/index";
import {
  addDays,
  emitMemberChange,
  getMemberItem,
  getMemberRow,
  lockMember,
  lockMemberEmail,
  type MemberRow,
  memberAuthor,
  manageTokenHash,
  memberPageUrl,
  newManageToken,
  normalizeEmail,
  searchTextOf,
  sortNameOf,
  writeHistory,
} from "../members/internal";
import { type BankTransfer, EmailChangeRequest, type MemberPage, MemberNameUpdate, type RenewAnswer } from "./schemas";
import { creditorReference } from "../payments/reference";
import { memberDues } from "../members/dues";
import type { MemberDataExport } from "../members/schemas";
import { statusOn, todayUtc } from "../members/status";
import { emitter } from "../webhooks/emit";

/** How long the link that confirms a new address works. */
export const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60 * 1000;

/** The rate of the member's page, HTML and JSON together: 20 a minute per address (DESIGN.md section 13). */
export const MEMBER_PAGE_RATE = { scope: "member-page", perMinute: 20 } as const;

/** The member whose page token is `token`, with their club; 404 MEMBER_PAGE_NOT_FOUND otherwise. */
async function memberOf(ctx: PublicCtx, q: Queryable, token: string): Promise<{ m: MemberRow; club: ClubRow }> {
  const [m] =
    token.length >= 20 && token.length <= 100
      ? await q
          .select()
          .from(members)
          .where(or(eq(members.manage_token, manageTokenHash(token)), eq(members.admin_page_token, manageTokenHash(token))))
          .limit(1)
      : [];
  if (!m) throw new NotFound("MEMBER_PAGE_NOT_FOUND");
  return { m, club: await getClubRow(ctx.db, m.club_id) };
}

/**
 * The member whose page token is `token`, locked for a change of their email, in the one order
 * every writer of members takes its locks: the club's email lock (shared), then the member's row,
 * then (assertEmailFree) the email's own. An admin's change of the member (lib/members transition)
 * takes them in this order, an import's batch the club's lock then its rows: so none waits on
 * another in a circle. The page took the email's lock before the row (its UPDATE) and deadlocked
 * beside an admin moving the same member to the same address (PostgreSQL detects it after a
 * second and db.tx runs the loser again: slow, not wrong, but a wait for both).
 */
async function memberForEmailChange(ctx: PublicCtx, t: Queryable, token: string): Promise<{ m: MemberRow; club: ClubRow }> {
  const { m } = await memberOf(ctx, t, token);
  await lockMemberEmail(t, m.club_id);
  await lockMember(t, m.id);
  // Read again under the row's lock: a change committed meanwhile (a confirmation, a new token) is seen.
  return memberOf(ctx, t, token);
}

/** Stripe's settings of a public call; null: card payments are off. */
export const stripeOf = (ctx: PublicCtx): StripeSettings | null => ctx.site?.stripe ?? null;

const onSubscription = (m: MemberRow) => m.payment_mode === "subscription";

async function pageOf(ctx: PublicCtx, token: string, m: MemberRow, club: ClubRow, tierName: string | null): Promise<MemberPage> {
  const view = clubCardView(club);
  const wallets = walletUrls(ctx, m.pass_serial_number);
  return {
    member: {
      first_name: m.first_name,
      last_name: m.last_name,
      email: m.email,
      status: statusOn(m, todayUtc(), club.grace_period_days),
      membership_start: m.membership_start,
      membership_end: m.membership_end,
      tier_name: tierName,
      referral_code: m.referral_code,
      auto_renewal: onSubscription(m) ? m.renewal_opt_out_at === null : null,
      mailings: m.mailing_opt_out_at === null,
      pending_email: m.pending_email && m.pending_email_expires_at && m.pending_email_expires_at > nowIso() ? m.pending_email : null,
      erasure_requested_at: m.erasure_requested_at,
    },
    club: {
      name: view.clubName,
      locale: view.locale,
      primary_color: view.colors.primary,
      secondary_color: view.colors.secondary,
      logo_url: view.logoUrl,
      contact_email: club.contact_email,
    },
    card: { web: wallets.web, apple: wallets.apple, google: wallets.google },
    invoices: await memberPageInvoices(ctx.db.read, ctx.baseUrl, token, m, club),
    payment_methods: paymentMethods(club, !!stripeOf(ctx)),
  };
}

async function tierNameOf(q: Queryable, m: MemberRow): Promise<string | null> {
  if (!m.tier_id) return null;
  const [tier] = await q.select({ name: tiers.name }).from(tiers).where(eq(tiers.id, m.tier_id)).limit(1);
  return tier?.name ?? null;
}

/** The member's page. */
export async function getMemberPage(ctx: PublicCtx, token: string): Promise<MemberPage> {
  return (await memberPageView(ctx, token)).page;
}

/** The member's page and the club's country, whose style its HTML writes dates in, as the card does. */
export async function memberPageView(ctx: PublicCtx, token: string): Promise<{ page: MemberPage; country: string | null }> {
  const { m, club } = await memberOf(ctx, ctx.db.read, token);
  return { page: await pageOf(ctx, token, m, club, await tierNameOf(ctx.db.read, m)), country: club.country };
}

/** Corrects the member's first and last name (a history row `update` naming the fields, by the member). */
/**
 * `input` as `schema` reads it, or the 422 the JSON route gives: the HTML form's fields come here
 * unchecked, and one schema keeps both transports to one rule (no control character in a name...).
 */
function checked<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const read = schema.safeParse(input);
  if (read.success) return read.data;
  throw new ValidationFailed(
    read.error.issues.map((i) => ({
      loc: ["body", ...i.path.map((p) => (typeof p === "symbol" ? String(p) : p))],
      code: i.message === "TEXT_CONTROL_CHARACTER" ? "TEXT_CONTROL_CHARACTER" : "VALIDATION_FAILED",
    })),
  );
}

/** A change the member made is a `member.updated` for the club's webhooks, as an admin's is. */
async function toldToWebhooks(ctx: PublicCtx, t: Queryable, before: MemberRow, after: MemberRow): Promise<void> {
  await emitMemberChange(await emitter(ctx.db, t, before.club_id), before, after, () => getMemberItem(withinTx(ctx.db, t), before.club_id, before.id));
}

export async function updateMemberName(ctx: PublicCtx, token: string, given: MemberNameUpdate): Promise<MemberPage> {
  const input = checked(MemberNameUpdate, given);
  const { m, club, after } = await ctx.db.tx(async (t) => {
    const { m, club } = await memberOf(ctx, t, token);
    const set: Partial<MemberRow> = {};
    // An empty name is no correction (the HTML form sends every field).
    if (input.first_name && input.first_name !== m.first_name) set.first_name = input.first_name;
    if (input.last_name && input.last_name !== m.last_name) set.last_name = input.last_name;
    if (!Object.keys(set).length) return { m, club, after: m };
    const names = { ...m, ...set };
    const [after] = await t
      .update(members)
      .set({ ...set, search_text: searchTextOf(names), sort_name: sortNameOf(names), updated_at: nowIso() })
      .where(eq(members.id, m.id))
      .returning();
    await writeHistory(ctx.db, t, memberAuthor(m.club_id), { memberId: m.id, action: "update", from: m, to: after, details: { fields: Object.keys(set) } });
    await toldToWebhooks(ctx, t, m, after);
    // The name is on the wallet card.
    await queuePassUpdate(t, m.club_id, [m.id], "member_page");
    return { m, club, after };
  });
  return pageOf(ctx, token, after ?? m, club, await tierNameOf(ctx.db.read, m));
}

/**
 * Starts a change of address: a confirmation link (with a one-time code) is mailed to the new
 * address; nothing changes until it is followed. 409 MEMBER_EMAIL_TAKEN for another member's
 * address, EMAIL_UNCHANGED for the member's own. Asking again replaces the pending change.
 */
export async function requestEmailChange(ctx: PublicCtx, token: string, input: { email: string }): Promise<{ pending_email: string; expires_at: string }> {
  const email = normalizeEmail(checked(EmailChangeRequest, input).email);
  return ctx.db.tx(async (t) => {
    const { m, club } = await memberForEmailChange(ctx, t, token);
    if (email === m.email) throw new Conflict("EMAIL_UNCHANGED");
    await assertEmailFree(ctx.db, t, m.club_id, email, m.id);
    const code = randomBase62(32);
    const expires_at = new Date(Date.now() + EMAIL_CHANGE_TTL_MS).toISOString();
    await t
      .update(members)
      .set({ pending_email: email, pending_email_code_hash: sha256Hex(code), pending_email_expires_at: expires_at })
      .where(eq(members.id, m.id));
    const view = clubCardView(club);
    const tx = REMINDER_MAIL_TEXTS[view.locale];
    const p = { first: m.first_name, club: view.clubName, code };
    const link = `${memberPageUrl(ctx.baseUrl, token)}/email/confirm?code=${code}`;
    const { primary, onPrimary, secondary, onSecondary } = view.colors;
    await queueMail(t, m.club_id, {
      ...clubSender(ctx.baseUrl, club),
      to: email,
      subject: fillText(tx.emailChange.subject, p),
      ...brandedBody(
        { name: view.clubName, primary, onPrimary, secondary, onSecondary, logoUrl: view.logoUrl },
        {
          paragraphs: [fillText(tx.hello, p), fillText(tx.emailChange.body, p)],
          action: { label: tx.emailChange.action, url: link },
          after: [fillText(tx.emailChange.code, p), tx.emailChange.expires],
          bye: tx.bye,
        },
      ),
    });
    return { pending_email: email, expires_at };
  });
}

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Confirms the pending change of address with the code mailed to it: the email changes, and so
 * does the page's token (the old link, and the code, no longer work). 409 EMAIL_CHANGE_NOT_PENDING
 * (none, or already used), EMAIL_CHANGE_EXPIRED, EMAIL_CODE_INVALID, MEMBER_EMAIL_TAKEN.
 */
export async function confirmEmailChange(ctx: PublicCtx, token: string, input: { code: string }): Promise<{ email: string; manage_url: string }> {
  return ctx.db.tx(async (t) => {
    const { m } = await memberForEmailChange(ctx, t, token);
    if (!m.pending_email || !m.pending_email_code_hash || !m.pending_email_expires_at) throw new Conflict("EMAIL_CHANGE_NOT_PENDING");
    if (!sameHash(sha256Hex(input.code), m.pending_email_code_hash)) throw new Conflict("EMAIL_CODE_INVALID");
    if (m.pending_email_expires_at <= nowIso()) throw new Conflict("EMAIL_CHANGE_EXPIRED");
    await assertEmailFree(ctx.db, t, m.club_id, m.pending_email, m.id);
    const next = newManageToken();
    const [after] = await t
      .update(members)
      .set({
        email: m.pending_email,
        search_text: searchTextOf({ ...m, email: m.pending_email }),
        manage_token: next.hash,
        // The address an admin opened ends too: the page moves to its new address only.
        admin_page_token: null,
        pending_email: null,
        pending_email_code_hash: null,
        pending_email_expires_at: null,
        updated_at: nowIso(),
      })
      .where(eq(members.id, m.id))
      .returning();
    await writeHistory(ctx.db, t, memberAuthor(m.club_id), { memberId: m.id, action: "update", from: m, to: after, details: { fields: ["email"] } });
    await toldToWebhooks(ctx, t, m, after);
    return { email: after.email, manage_url: memberPageUrl(ctx.baseUrl, next.token) };
  });
}

/**
 * How to pay a renewal: the amount (lib/members/dues: what is owed since joining, else the tier's
 * price, else the club's fee, less the member's referral credit, never below 0) and, for a bank
 * transfer, the club's payout details with the member's creditor reference; for `stripe`, the
 * address of a Stripe Checkout page (a subscription when the club allows it and it is asked, or
 * the club has only subscriptions; DESIGN.md section 13). 409 PAYMENT_METHOD_UNAVAILABLE for a
 * method the club does not offer, SUBSCRIPTION_NOT_OFFERED, MEMBER_SUSPENDED_SELF for a
 * suspended member; 502 when Stripe fails. Nothing to pay: renewed at once (renewWithoutPayment).
 */
export async function renewMembership(ctx: PublicCtx, token: string, input: { payment_method: string; subscription?: boolean | null }): Promise<RenewAnswer> {
  const { m, club } = await memberOf(ctx, ctx.db.read, token);
  if (m.payment_status === "suspended") throw new Conflict("MEMBER_SUSPENDED_SELF");
  const dues = await memberDues(ctx.db.read, m);
  const { amount, currency } = dues;
  // Nothing to pay: no payment method is needed either (a club with none still renews a free tier).
  if (amount === 0) return renewWithoutPayment(ctx, m, club, dues.credit > 0, input.payment_method, currency);
  if (!paymentMethods(club, !!stripeOf(ctx)).includes(input.payment_method as PaymentMethod)) throw new Conflict("PAYMENT_METHOD_UNAVAILABLE");
  if (input.payment_method === "stripe") {
    // A subscription bills every tier period (else the club's period); the checkout names the tier.
    const [tier] = m.tier_id
      ? await ctx.db.read
          .select()
          .from(tiers)
          .where(and(eq(tiers.id, m.tier_id), eq(tiers.club_id, m.club_id)))
          .limit(1)
      : [];
    const order = {
      amount,
      currency,
      months: tier?.duration_months ?? club.membership_duration_months,
      label: tier?.name ?? club.name,
      subscription: input.subscription,
    };
    const checkout = await memberCheckout(ctx, club, m, order, token);
    return { payment_method: "stripe", amount_cents: amount, currency, checkout_url: checkout, bank_transfer: null, renewed: false };
  }
  const transfer = bankTransferOf(club, m.referral_code, amount, currency);
  await mailTransferDetails(ctx, m, club, token, transfer);
  return { payment_method: "bank_transfer", amount_cents: amount, currency, checkout_url: null, bank_transfer: transfer, renewed: false };
}

/**
 * Mails the bank transfer details of a renewal to the member (DESIGN.md section 13: "in the
 * answer and in a mail"), at most once a day for one amount: the member may press the page's
 * button again, or the API be asked twice, which should not fill the member's mailbox. The
 * day's mark (reminders_sent, unique per member, kind and period) is written with the mail job,
 * so two requests at once mail once.
 */
async function mailTransferDetails(ctx: PublicCtx, m: MemberRow, club: ClubRow, token: string, transfer: BankTransfer): Promise<void> {
  const period = `${todayUtc()}:${transfer.reference}:${transfer.amount_cents}${transfer.currency}`;
  await ctx.db.tx(async (t) => {
    const marked = await t
      .insert(remindersSent)
      .values({ id: newId(), club_id: m.club_id, subject_id: m.id, kind: "renewal_transfer", period, created_at: nowIso() })
      .onConflictDoNothing()
      .returning({ id: remindersSent.id });
    if (marked.length) await queueJoinMail(t, ctx, club, "renewalPayment", { email: m.email, first_name: m.first_name, pageToken: token }, transfer);
  });
}

/**
 * What renewing costs the member whose page token is `token` now (lib/members/dues), read only,
 * with the bank transfer details to show when there is something to pay by transfer (a member
 * not suspended, a club that takes transfers). Mails nothing: the page's GET draws from it, and
 * the details are mailed by the renewal's POST (renewMembership).
 */
export async function renewalQuote(ctx: PublicCtx, token: string): Promise<{ amount_cents: number; currency: string; bank_transfer: BankTransfer | null }> {
  const { m, club } = await memberOf(ctx, ctx.db.read, token);
  const { amount, currency } = await memberDues(ctx.db.read, m);
  const byTransfer = amount > 0 && m.payment_status !== "suspended" && paymentMethods(club, !!stripeOf(ctx)).includes("bank_transfer");
  return { amount_cents: amount, currency, bank_transfer: byTransfer ? bankTransferOf(club, m.referral_code, amount, currency) : null };
}

/** The first day a renewal is due: the club's longest renewal reminder before the end (DESIGN.md section 14). */
export const renewalDueFrom = (m: MemberRow, club: ClubRow): string => addDays(m.membership_end, -Math.max(0, ...club.renewal_reminder_days));

/**
 * A renewal with nothing to pay (a free tier, or a referral credit that covers the price) is
 * made at once, as a free tier activates at once when joining (DESIGN.md section 13): mark-paid
 * with 0, which spends the credit and writes the history and the payment row (method
 * `referral_credit` or `free`). Only once due (from the club's longest renewal reminder before
 * the end, or once no longer active): 409 RENEWAL_NOT_DUE before, so that a free membership is
 * not carried years ahead by repeated clicks.
 */
async function renewWithoutPayment(ctx: PublicCtx, m: MemberRow, club: ClubRow, byCredit: boolean, method: string, currency: string): Promise<RenewAnswer> {
  const today = todayUtc();
  const dueFrom = renewalDueFrom(m, club);
  if (statusOn(m, today, club.grace_period_days) === "active" && today < dueFrom) throw new Conflict("RENEWAL_NOT_DUE", { date: dueFrom });
  if (!ctx.site) throw new Conflict("PAYMENT_METHOD_UNAVAILABLE");
  await markMemberPaid(systemCtx(ctx.db, ctx.site, m.club_id, asLocale(club.locale), { finances: "edit", members: "edit" }), {
    member_id: m.id,
    amount_cents: 0,
    payment_method: byCredit ? "referral_credit" : "free",
    reason: "Renewed from the member's page: nothing to pay",
  });
  return { payment_method: method, amount_cents: 0, currency, checkout_url: null, bank_transfer: null, renewed: true };
}

/**
 * Whether a card payment renews itself (DESIGN.md section 13): never where the club does not
 * allow subscriptions (409 SUBSCRIPTION_NOT_OFFERED when one is asked for), always where it
 * allows nothing else, else as asked, by default `subscription_default`. A period Stripe cannot
 * bill (over 36 months) is paid once.
 */
export function renewsItself(club: ClubRow, asked: boolean | null | undefined, months: number): boolean {
  if (!club.allow_subscription) {
    if (asked) throw new Conflict("SUBSCRIPTION_NOT_OFFERED");
    return false;
  }
  const wanted = club.subscription_only || (asked ?? club.subscription_default);
  return wanted && months >= 1 && months <= MAX_SUBSCRIPTION_MONTHS;
}

/**
 * Opens a Stripe Checkout Session for the member `m` to pay `amount` (their join or a renewal):
 * its metadata names the club, the member and the purpose; success and cancel lead back to their
 * page, at `pageToken` (the one the member came with, or was just given: only its hash is kept).
 * Answers the checkout's address. 502 when Stripe fails.
 */
export async function memberCheckout(
  ctx: PublicCtx,
  club: ClubRow,
  m: MemberRow,
  order: { amount: number; currency: string; months: number; label: string; subscription: boolean | null | undefined },
  pageToken: string,
): Promise<string> {
  const stripe = stripeOf(ctx);
  if (!stripe) throw new Conflict("PAYMENT_METHOD_UNAVAILABLE");
  const page = memberPageUrl(ctx.baseUrl, pageToken);
  const view = clubCardView(club);
  const session = await createCheckout(stripe, {
    metadata: { club_id: club.id, member_id: m.id, purpose: "membership" },
    label: `${order.label} — ${view.clubName}`,
    amountCents: order.amount,
    currency: order.currency,
    email: m.email,
    everyMonths: renewsItself(club, order.subscription, order.months) ? order.months : null,
    customerId: m.stripe_customer_id,
    locale: view.locale,
    successUrl: `${page}?checkout=success`,
    cancelUrl: `${page}?checkout=cancelled`,
  });
  return session.url;
}

/** The club's payout details for a transfer of `amount` from the member whose card code is `code` (their creditor reference). */
export function bankTransferOf(club: ClubRow, code: string, amount: number, currency: string): BankTransfer {
  return {
    beneficiary: club.payout_beneficiary_name ?? club.legal_name ?? club.name,
    iban: club.payout_iban as string,
    bic: club.payout_bic,
    reference: creditorReference(code),
    amount_cents: amount,
    currency,
  };
}

/**
 * Turns the subscription's automatic renewal off (renewal_opt_out_at set) or on again. Written
 * first, by a conditional write (of two toggles at once, one changes it); then a Stripe
 * subscription is told (cancelled, or resumed, at the end of its period). When Stripe refuses
 * (502), this change is undone, with a history row, unless another came since. 409
 * NO_SUBSCRIPTION without one.
 */
export async function setAutoRenewal(ctx: PublicCtx, token: string, input: { enabled: boolean }): Promise<MemberPage> {
  const at = nowIso();
  const action = input.enabled ? "auto_renewal_on" : "auto_renewal_off";
  const written = await ctx.db.tx(async (t) => {
    const { m, club } = await memberOf(ctx, t, token);
    if (!onSubscription(m)) throw new Conflict("NO_SUBSCRIPTION");
    const [after] =
      input.enabled === (m.renewal_opt_out_at === null)
        ? []
        : await t
            .update(members)
            .set({ renewal_opt_out_at: input.enabled ? null : at, updated_at: at })
            .where(and(eq(members.id, m.id), input.enabled ? isNotNull(members.renewal_opt_out_at) : isNull(members.renewal_opt_out_at)))
            .returning();
    // Already as asked (or made so by another toggle meanwhile): nothing to write, nothing to tell.
    if (!after) return { after: (await memberOf(ctx, t, token)).m, club, before: null };
    await writeHistory(ctx.db, t, memberAuthor(m.club_id), { memberId: m.id, action, from: m, to: after });
    return { after, club, before: m };
  });
  const { after, before, club } = written;
  const subscription = before?.stripe_subscription_id;
  if (before && subscription) {
    try {
      await cancelAtPeriodEnd(stripeOf(ctx), subscription, !input.enabled);
    } catch (err) {
      // Outside the transaction (network): the change Stripe did not take is undone, if still this one.
      await ctx.db.tx(async (t) => {
        const [back] = await t
          .update(members)
          .set({ renewal_opt_out_at: before.renewal_opt_out_at, updated_at: nowIso() })
          .where(and(eq(members.id, before.id), input.enabled ? isNull(members.renewal_opt_out_at) : eq(members.renewal_opt_out_at, at)))
          .returning();
        if (back) await writeHistory(ctx.db, t, memberAuthor(before.club_id), { memberId: before.id, action: `${action}_undone`, from: after, to: back });
      });
      throw err;
    }
  }
  return pageOf(ctx, token, after, club, await tierNameOf(ctx.db.read, after));
}

/**
 * Turns the club's mailings off (mailing_opt_out_at set, DESIGN.md section 22) or on again. Only
 * mailings: the card, receipts, invoices, reminders and event mails still come. Idempotent.
 */
export async function setMailings(ctx: PublicCtx, token: string, input: { enabled: boolean }): Promise<MemberPage> {
  const { after, club } = await ctx.db.tx(async (t) => {
    const { m, club } = await memberOf(ctx, t, token);
    if (input.enabled === (m.mailing_opt_out_at === null)) return { after: m, club };
    const now = nowIso();
    const [after] = await t
      .update(members)
      .set({ mailing_opt_out_at: input.enabled ? null : now, updated_at: now })
      .where(eq(members.id, m.id))
      .returning();
    await writeHistory(ctx.db, t, memberAuthor(m.club_id), { memberId: m.id, action: input.enabled ? "mailings_on" : "mailings_off", from: m, to: after });
    return { after, club };
  });
  return pageOf(ctx, token, after, club, await tierNameOf(ctx.db.read, after));
}

/** Everything the club holds about the member (GDPR art. 15), the document an admin's export gives. */
export async function exportMyData(ctx: PublicCtx, token: string): Promise<MemberDataExport> {
  const { m } = await memberOf(ctx, ctx.db.read, token);
  return memberDataDocument(ctx.db, m.club_id, m.id);
}

/**
 * One of the member's own invoices as a PDF (the admin's GET invoices/<id>/pdf draws the same), at
 * an address of their page: the page's token is the key. Another member's invoice, or none, is
 * the same plain 404 as a wrong token (INVOICE_NOT_FOUND).
 */
export async function myInvoicePdf(ctx: PublicCtx, token: string, invoiceId: string): Promise<FileReply> {
  const { m } = await memberOf(ctx, ctx.db.read, token);
  const [row] = await ctx.db.read
    .select()
    .from(invoices)
    .where(and(eq(invoices.club_id, m.club_id), eq(invoices.member_id, m.id), eq(invoices.id, invoiceId.toLowerCase())))
    .limit(1);
  if (!row) throw new NotFound("INVOICE_NOT_FOUND");
  const { bytes, filename } = await invoiceDocument(ctx.db, row);
  return { body: bytes, contentType: "application/pdf", filename, headers: { "cache-control": "private, no-store", "referrer-policy": "no-referrer" } };
}

/** Records the member's request to be erased (GDPR art. 17): the admin sees it and decides (DELETE members/<id>). Asking again keeps the first date. */
export async function requestErasure(ctx: PublicCtx, token: string): Promise<{ erasure_requested_at: string }> {
  return ctx.db.tx(async (t) => {
    const { m } = await memberOf(ctx, t, token);
    if (m.erasure_requested_at) return { erasure_requested_at: m.erasure_requested_at };
    const now = nowIso();
    const [after] = await t.update(members).set({ erasure_requested_at: now, updated_at: now }).where(eq(members.id, m.id)).returning();
    await writeHistory(ctx.db, t, memberAuthor(m.club_id), { memberId: m.id, action: "erasure_requested", from: m, to: after });
    await toldToWebhooks(ctx, t, m, after);
    return { erasure_requested_at: now };
  });
}

/**
 * A new address of the member's page for the admin opening it from the dashboard: a token of its
 * own (members.admin_page_token, kept as a hash), so the links the member was mailed keep
 * working; the address an admin opened before stops. members:edit, since whoever holds the
 * address acts there as the member. 404 MEMBER_NOT_FOUND.
 */
export const openMemberPage = verb("members:edit", async function openMemberPage(ctx: Ctx, input: { member_id: string }): Promise<{ url: string }> {
  const page = newManageToken();
  await ctx.db.tx(async (t) => {
    const m = await getMemberRow(t, ctx.clubId, input.member_id);
    await t.update(members).set({ admin_page_token: page.hash }).where(eq(members.id, m.id));
  });
  return { url: memberPageUrl(ctx.baseUrl, page.token) };
});

/** Page tokens hashed per transaction by hashClearPageTokens. */
const HASH_SLICE = 500;

/**
 * A slice of the page tokens an older version kept in clear. Said only as members_clear_page_token_idx
 * says it, so that it reads that index, empty once they are hashed (with an `is not null` besides,
 * SQLite read the whole unique index of tokens instead).
 * A hash is 64 hexadecimal characters, a token never was (32, or 43 from the database's own
 * backfill); a missing token's length is null, never unequal.
 */
export const clearPageTokens = (read: Queryable) =>
  read.select({ id: members.id, token: members.manage_token }).from(members).where(sql`length(${members.manage_token}) <> 64`).limit(HASH_SLICE);

/**
 * Hashes the page tokens an older version kept in clear (run at every start, after the
 * migrations; a no-op once done): a link already mailed keeps working, its token's hash being
 * what is kept now. Written only where the row still holds that clear token (a token changed
 * meanwhile is left alone). Answers how many were hashed.
 */
export async function hashClearPageTokens(db: Db): Promise<number> {
  let hashed = 0;
  for (;;) {
    const rows = await clearPageTokens(db.read);
    if (!rows.length) return hashed;
    await db.tx(async (t) => {
      for (const { id, token } of rows) {
        if (!token) continue;
        await t
          .update(members)
          .set({ manage_token: manageTokenHash(token) })
          .where(and(eq(members.id, id), eq(members.manage_token, token)));
      }
    });
    hashed += rows.length;
  }
}
