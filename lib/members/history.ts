// What the club knows about one member, as the member's history (every transition, correction
// and payment, with who did it) and as the GDPR art. 15/20 document (DESIGN.md section 12).
// `actor` is read, not stored: the history row keeps the admin's id and the key's prefix, so
// rows written before this existed show who did them too (docs/decisions.md, "members' other half").
import { and, desc, eq, or, sql } from "drizzle-orm";
import type { Db, Queryable } from "../../db";
import { admins, eventRegistrations, events, eventTickets, invoices, mailingRecipients, mailings, memberHistory, payments, scans } from "../../db/schema";
import { type Ctx, verb } from "../context";
import { nowIso } from "../ids";
import { getMemberItem, getMemberRow } from "./internal";
import type { MemberDataExport, MemberHistory, MemberHistoryItem } from "./schemas";

/** `ana@example.org (mk_live_Ab12)` for a key, the email alone for a session, `member` from the member's page, `system` without an admin. */
function actorOf(email: string | null, keyPrefix: string | null, adminId: string | null, actor: string | null = null): string {
  if (actor === "member") return "member";
  if (!adminId) return "system";
  const who = email ?? adminId;
  return keyPrefix ? `${who} (${keyPrefix})` : who;
}

const num = (v: unknown) => (typeof v === "number" ? v : null);
const str = (v: unknown) => (typeof v === "string" ? v : null);

/**
 * The member's history rows and payments, newest first. A payment made by a transition
 * (mark-paid names it in its row's details) is that row; any other payment of the member (an
 * event ticket, a refund) is an item of kind `payment`.
 */
async function historyItems(q: Queryable, clubId: string, memberId: string): Promise<MemberHistoryItem[]> {
  const rows = await q
    .select({ h: memberHistory, email: admins.email })
    .from(memberHistory)
    .leftJoin(admins, eq(admins.id, memberHistory.admin_id))
    .where(and(eq(memberHistory.club_id, clubId), eq(memberHistory.member_id, memberId)));
  const pays = await q
    .select({ p: payments, email: admins.email })
    .from(payments)
    .leftJoin(admins, eq(admins.id, payments.admin_id))
    .where(and(eq(payments.club_id, clubId), eq(payments.member_id, memberId)));
  const inRows = new Set(rows.map((r) => str(r.h.details?.payment_id)).filter(Boolean));
  const items: MemberHistoryItem[] = rows.map(({ h, email }) => ({
    id: h.id,
    kind: h.action,
    from_status: h.from_status,
    to_status: h.to_status,
    membership_end_before: h.from_end,
    membership_end_after: h.to_end,
    amount_cents: num(h.details?.amount_cents),
    payment_method: str(h.details?.payment_method),
    reason: h.reason,
    actor: actorOf(email, h.key_prefix, h.admin_id, h.actor),
    created_at: h.created_at,
  }));
  for (const { p, email } of pays) {
    if (inRows.has(p.id)) continue;
    items.push({
      id: p.id,
      kind: "payment",
      from_status: null,
      to_status: null,
      membership_end_before: null,
      membership_end_after: null,
      amount_cents: p.amount_cents,
      payment_method: p.method,
      reason: p.reason,
      actor: actorOf(email, null, p.admin_id),
      created_at: p.created_at,
    });
  }
  // Newest first; rows of one instant (an import's) by id, so the order is stable.
  return items.sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
}

/** The member's history, newest first (404 MEMBER_NOT_FOUND for an unknown id or another club's). */
export const getMemberHistory = verb("members:view", async function getMemberHistory(ctx: Ctx, input: { member_id: string }): Promise<MemberHistory> {
  await getMemberRow(ctx.db.read, ctx.clubId, input.member_id);
  return { items: await historyItems(ctx.db.read, ctx.clubId, input.member_id) };
});

/**
 * Everything stored about the member, as one document (GDPR art. 15 and 20): the member, its
 * history, payments, event registrations (its own and those made with its email) and card scans.
 */
export const exportMemberData = verb("members:view", async function exportMemberData(ctx: Ctx, input: { member_id: string }): Promise<MemberDataExport> {
  return memberDataDocument(ctx.db, ctx.clubId, input.member_id);
});

/** The art. 15/20 document of a member of `clubId` (404 MEMBER_NOT_FOUND): for the admin's export and the member's own page. */
export async function memberDataDocument(db: Db, clubId: string, memberId: string): Promise<MemberDataExport> {
  const ctx = { clubId };
  const q = db.read;
  const member = await getMemberItem(db, ctx.clubId, memberId);
  const [history, pays, regs, scanRows, invoiceRows, mailingRows] = await Promise.all([
    historyItems(q, ctx.clubId, member.id),
    q
      .select()
      .from(payments)
      .where(and(eq(payments.club_id, ctx.clubId), eq(payments.member_id, member.id)))
      .orderBy(desc(payments.paid_at)),
    q
      .select({ r: eventRegistrations, event_title: events.title, event_starts_at: events.starts_at, ticket_name: eventTickets.name })
      .from(eventRegistrations)
      .leftJoin(events, eq(events.id, eventRegistrations.event_id))
      .leftJoin(eventTickets, eq(eventTickets.id, eventRegistrations.ticket_id))
      .where(memberRegistrations(ctx.clubId, member))
      .orderBy(desc(eventRegistrations.created_at)),
    q
      .select({ id: scans.id, status: scans.status, scanned_at: scans.scanned_at })
      .from(scans)
      .where(and(eq(scans.club_id, ctx.clubId), eq(scans.member_id, member.id)))
      .orderBy(desc(scans.scanned_at)),
    q
      .select()
      .from(invoices)
      .where(and(eq(invoices.club_id, ctx.clubId), eq(invoices.member_id, member.id)))
      .orderBy(desc(invoices.created_at)),
    q
      .select({ r: mailingRecipients, subject: mailings.subject })
      .from(mailingRecipients)
      .innerJoin(mailings, eq(mailings.id, mailingRecipients.mailing_id))
      .where(memberMailings(ctx.clubId, member.id))
      .orderBy(desc(mailingRecipients.created_at)),
  ]);
  return {
    exported_at: nowIso(),
    member,
    history,
    payments: pays.map((p) => ({
      id: p.id,
      kind: p.kind,
      amount_cents: p.amount_cents,
      currency: p.currency,
      method: p.method,
      source: p.source,
      reason: p.reason,
      invoice_id: p.invoice_id,
      paid_at: p.paid_at,
    })),
    registrations: regs.map(({ r, event_title, event_starts_at, ticket_name }) => ({
      id: r.id,
      event_id: r.event_id,
      event_title,
      event_starts_at,
      ticket_name,
      first_name: r.first_name,
      last_name: r.last_name,
      email: r.email,
      status: r.status,
      amount_cents: r.amount_cents,
      currency: r.currency,
      checked_in_at: r.checked_in_at,
      custom_fields: r.custom_fields,
      created_at: r.created_at,
    })),
    scans: scanRows,
    invoices: invoiceRows.map((i) => ({
      id: i.id,
      number: i.number,
      kind: i.kind,
      registration_id: i.registration_id,
      lines: i.lines,
      amount_cents: i.amount_cents,
      currency: i.currency,
      issued_on: i.issued_on,
      due_on: i.due_on,
      status: i.status,
      paid_cents: i.paid_cents,
      reference: i.reference,
      dunning_level: i.dunning_level,
      last_reminded_at: i.last_reminded_at,
      cancelled_at: i.cancelled_at,
      created_at: i.created_at,
    })),
    mailings: mailingRows.map(({ r, subject }) => ({
      mailing_id: r.mailing_id,
      subject,
      email: r.email,
      state: r.state,
      error: r.error,
      sent_at: r.sent_at,
      created_at: r.created_at,
    })),
  };
}

/** The member's mailing deliveries in the club (found by mailing_recipients_member_idx). */
export const memberMailings = (clubId: string, memberId: string) => and(eq(mailingRecipients.club_id, clubId), eq(mailingRecipients.member_id, memberId));

/** The member's event registrations in the club: linked to it, or made with its email. */
export function memberRegistrations(clubId: string, member: { id: string; email: string }) {
  // lower(): an address typed in another case by whoever registered is still theirs.
  return and(
    eq(eventRegistrations.club_id, clubId),
    or(eq(eventRegistrations.member_id, member.id), sql`lower(${eventRegistrations.email}) = ${member.email}`),
  );
}
