// Invoices (DESIGN.md section 20, issue 27): creating one for a member (lines, or a tier's fee)
// with its number and payment reference, reading and listing them, and cancelling an unpaid one.
// Owns the numbering rule (per club and year, in order, without gaps: invoice_counters) and the
// invoice's reference; the PDF is lib/invoices/pdf.ts.
import { and, count, desc, eq, gte, lt, lte, ne, or, type SQL, sql } from "drizzle-orm";
import type { Queryable } from "../../db";
import { lockRows } from "../../db/locks";
import { eventRegistrations, events, type InvoiceLine, invoiceCounters, invoices, members, tiers } from "../../db/schema";
import { type ClubRow, getClubRow } from "../clubs/internal";
import { namingRead } from "../../db/locks";
import { type Ctx, verb } from "../context";
import { Conflict, type Invalid, NotFound, ValidationFailed } from "../errors";
import { newId, nowIso } from "../ids";
import { addDays, todayUtc } from "../days";
import { isQrIban } from "../iban";
import { invoiceReference } from "../payments/reference";
import { emit } from "../webhooks/emit";
import { type Invoice, type InvoiceCreate, type InvoiceList, InvoiceListQuery } from "./schemas";

export type InvoiceRow = typeof invoices.$inferSelect;

/** Days from issue to due date when the caller names none. */
export const DEFAULT_PAYMENT_DAYS = 30;

/** The invoice's PDF (GET .../invoices/<id>/pdf). */
export const invoicePdfUrl = (baseUrl: string, row: Pick<InvoiceRow, "club_id" | "id">) => `${baseUrl}/api/clubs/${row.club_id}/invoices/${row.id}/pdf`;

/** The Invoice as every reader sees it; `today` decides `overdue`. */
export function toInvoice(row: InvoiceRow, baseUrl: string, today = todayUtc()): Invoice {
  return {
    id: row.id,
    number: row.number,
    member_id: row.member_id,
    registration_id: row.registration_id,
    tier_id: row.tier_id,
    kind: row.kind as Invoice["kind"],
    lines: row.lines,
    amount_cents: row.amount_cents,
    currency: row.currency,
    issued_on: row.issued_on,
    due_on: row.due_on,
    status: row.status as Invoice["status"],
    overdue: row.status === "open" && row.due_on < today,
    paid_cents: row.paid_cents,
    reference: row.reference,
    dunning_level: row.dunning_level,
    last_reminded_at: row.last_reminded_at,
    period_start: row.period_start,
    cancelled_at: row.cancelled_at,
    pdf_url: invoicePdfUrl(baseUrl, row),
    created_at: row.created_at,
  };
}

/**
 * The next number of `year` in club `clubId`, inside the invoice's transaction `t`. The UPDATE
 * holds the counter's row until `t` ends (PostgreSQL; SQLite's write lock already serializes),
 * so a second invoice of the same club and year waits and reads the number the first took; a
 * rolled back invoice gives its number back. The counter's first row is made by an insert that
 * does nothing when another transaction has made it (it waits for that one's commit first).
 * `count` numbers at once (the dues run's batch): the last of them is answered.
 */
export async function nextNumber(t: Queryable, clubId: string, year: number, count = 1): Promise<number> {
  await t.insert(invoiceCounters).values({ club_id: clubId, year, last: 0 }).onConflictDoNothing();
  const [row] = await t
    .update(invoiceCounters)
    .set({ last: sql`${invoiceCounters.last} + ${count}` })
    .where(and(eq(invoiceCounters.club_id, clubId), eq(invoiceCounters.year, year)))
    .returning({ last: invoiceCounters.last });
  return Number(row.last);
}

/** `YYYY-NNNN` (more digits past 9,999 invoices in a year). */
export const invoiceNumber = (year: number, seq: number) => `${year}-${String(seq).padStart(4, "0")}`;

/**
 * Creates an invoice for a member of the club: `lines`, after the tier's fee when `tier_id` is
 * given. 422 naming the field for an unknown member or tier (or an inactive tier; the body's
 * `code` is then MEMBER_NOT_FOUND or TIER_NOT_FOUND), no line at all, a total of zero or less,
 * or a due date before the issue date. Emits `invoice.created`.
 */
export const createInvoice = verb("finances:edit", async function createInvoice(ctx: Ctx, input: InvoiceCreate): Promise<Invoice> {
  const club = await getClubRow(ctx.db, ctx.clubId);
  const row = await ctx.db.tx((t) => writeInvoice(t, ctx, club, input));
  return toInvoice(row, ctx.baseUrl);
});

/** createInvoice's checks and write, inside the caller's transaction `t`. */
async function writeInvoice(t: Queryable, ctx: Ctx, club: ClubRow, input: InvoiceCreate): Promise<InvoiceRow> {
  const issuedOn = input.issued_on ?? todayUtc();
  const dueOn = input.due_on ?? addDays(issuedOn, DEFAULT_PAYMENT_DAYS);
  const problems: Invalid[] = [];
  // Locked as read (namingRead): the invoice names the member, who cannot go meanwhile.
  const [member] = await namingRead(
    t
      .select({ id: members.id })
      .from(members)
      .where(and(eq(members.club_id, ctx.clubId), eq(members.id, input.member_id)))
      .limit(1),
  );
  if (!member) problems.push({ loc: ["body", "member_id"], code: "MEMBER_NOT_FOUND" });
  let tier: typeof tiers.$inferSelect | undefined;
  if (input.tier_id) {
    [tier] = await t
      .select()
      .from(tiers)
      .where(and(eq(tiers.club_id, ctx.clubId), eq(tiers.id, input.tier_id), eq(tiers.is_active, true)))
      .limit(1);
    if (!tier) problems.push({ loc: ["body", "tier_id"], code: "TIER_NOT_FOUND" });
  }
  // A registration's invoice (kind `event`): paying it in full confirms the registration
  // (lib/registrations/admin.ts). The member's own, still awaiting payment; without lines, its
  // price under the event's title.
  let registration: { id: string; status: string; amount_cents: number; currency: string; title: string } | undefined;
  if (input.registration_id) {
    [registration] = await t
      .select({
        id: eventRegistrations.id,
        status: eventRegistrations.status,
        amount_cents: eventRegistrations.amount_cents,
        currency: eventRegistrations.currency,
        title: events.title,
      })
      .from(eventRegistrations)
      .innerJoin(events, eq(events.id, eventRegistrations.event_id))
      .where(
        and(eq(eventRegistrations.club_id, ctx.clubId), eq(eventRegistrations.id, input.registration_id), eq(eventRegistrations.member_id, input.member_id)),
      )
      .limit(1);
    if (!registration) problems.push({ loc: ["body", "registration_id"], code: "REGISTRATION_NOT_FOUND" });
    else if (registration.status !== "pending")
      problems.push({ loc: ["body", "registration_id"], code: "REGISTRATION_NOT_PENDING", params: { status: registration.status } });
    if (input.tier_id) problems.push({ loc: ["body", "tier_id"], code: "INVOICE_REGISTRATION_KIND" });
    if (input.kind && input.kind !== "event") problems.push({ loc: ["body", "kind"], code: "INVOICE_REGISTRATION_KIND" });
  }
  const asked = input.lines ?? (registration ? [{ label: registration.title, amount_cents: registration.amount_cents }] : []);
  const lines: InvoiceLine[] = [...(tier ? [{ label: tier.name, amount_cents: tier.price_cents }] : []), ...asked];
  const total = lines.reduce((sum, l) => sum + l.amount_cents, 0);
  if (!input.tier_id && !lines.length) problems.push({ loc: ["body", "lines"], code: "INVOICE_NO_LINE" });
  else if ((tier || !input.tier_id) && total <= 0)
    problems.push({ loc: ["body", input.lines?.length ? "lines" : "tier_id"], code: "INVOICE_TOTAL_NOT_POSITIVE" });
  if (dueOn < issuedOn) problems.push({ loc: ["body", "due_on"], code: "DATE_ORDER", params: { field: "due_on", other: "issued_on" } });
  // An id that is not the club's names the refusal (422 MEMBER_NOT_FOUND / TIER_NOT_FOUND, as
  // WEBHOOK_URL_NOT_ALLOWED does): a caller with another club's ids learns "not found", no more.
  const notFound = problems.find((p) => p.code === "MEMBER_NOT_FOUND" || p.code === "TIER_NOT_FOUND" || p.code === "REGISTRATION_NOT_FOUND");
  if (problems.length) throw new ValidationFailed(problems, notFound?.code);

  const year = Number(issuedOn.slice(0, 4));
  const seq = await nextNumber(t, ctx.clubId, year);
  const now = nowIso();
  const [created] = await t
    .insert(invoices)
    .values({
      id: newId(),
      club_id: ctx.clubId,
      number: invoiceNumber(year, seq),
      member_id: input.member_id,
      tier_id: tier?.id ?? null,
      registration_id: registration?.id ?? null,
      kind: registration ? "event" : (input.kind ?? (tier ? "membership" : "other")),
      lines,
      amount_cents: total,
      currency: tier?.currency ?? registration?.currency ?? club.currency,
      issued_on: issuedOn,
      due_on: dueOn,
      status: "open",
      paid_cents: 0,
      reference: invoiceReference(!!club.payout_iban && isQrIban(club.payout_iban), year, seq),
      created_at: now,
      updated_at: now,
    })
    .returning();
  await emit(ctx.db, t, ctx.clubId, "invoice.created", () => toInvoice(created, ctx.baseUrl));
  return created;
}

/** The club's invoice `id`, or 404. */
export async function invoiceRow(q: Queryable, clubId: string, id: string): Promise<InvoiceRow> {
  const [row] = await q
    .select()
    .from(invoices)
    .where(and(eq(invoices.club_id, clubId), eq(invoices.id, id)))
    .limit(1);
  if (!row) throw new NotFound("INVOICE_NOT_FOUND");
  return row;
}

export const getInvoice = verb("finances:view", async function getInvoice(ctx: Ctx, input: { invoice_id: string }): Promise<Invoice> {
  return toInvoice(await invoiceRow(ctx.db.read, ctx.clubId, input.invoice_id), ctx.baseUrl);
});

/** The club's invoices, newest first, filtered and paged like the member list. */
export const listInvoices = verb("finances:view", async function listInvoices(ctx: Ctx, input: InvoiceListQuery): Promise<InvoiceList> {
  const q = InvoiceListQuery.parse(input);
  const limit = q.limit ?? q.page_size ?? 50;
  const today = todayUtc();
  const overdue = and(eq(invoices.status, "open"), lt(invoices.due_on, today));
  const conds: (SQL | undefined)[] = [
    eq(invoices.club_id, ctx.clubId),
    q.status ? eq(invoices.status, q.status) : undefined,
    q.overdue === "true" ? overdue : q.overdue === "false" ? or(ne(invoices.status, "open"), gte(invoices.due_on, today)) : undefined,
    q.member_id ? eq(invoices.member_id, q.member_id) : undefined,
    q.from ? gte(invoices.issued_on, q.from) : undefined,
    q.to ? lte(invoices.issued_on, q.to) : undefined,
  ];
  const where = and(...conds);
  const [{ total }] = await ctx.db.read.select({ total: count() }).from(invoices).where(where);
  const rows = await ctx.db.read
    .select()
    .from(invoices)
    .where(where)
    .orderBy(desc(invoices.created_at), desc(invoices.id))
    .limit(limit)
    .offset((q.page - 1) * limit);
  return { total: Number(total), page: q.page, limit, items: rows.map((r) => toInvoice(r, ctx.baseUrl, today)) };
});

type MemberInvoicesQuery = InvoiceListQuery & { member_id: string };

/** A member's invoices (404 for a member not of the club), newest first. */
export const listMemberInvoices = verb("finances:view", async function listMemberInvoices(ctx: Ctx, input: MemberInvoicesQuery): Promise<InvoiceList> {
  const [member] = await ctx.db.read
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.club_id, ctx.clubId), eq(members.id, input.member_id)))
    .limit(1);
  if (!member) throw new NotFound("MEMBER_NOT_FOUND");
  return listInvoices(ctx, input);
});

/**
 * Cancels an open invoice nothing has been paid on: a cancelled invoice is never reminded nor
 * matched. One already cancelled is answered as it is; a paid or partly paid one needs a refund
 * first (409 INVOICE_PAID). The change is a conditional write, so a payment recorded at the same
 * moment either lands first (and the cancel is refused) or finds the invoice cancelled.
 */
export const cancelInvoice = verb("finances:edit", async function cancelInvoice(ctx: Ctx, input: { invoice_id: string }): Promise<Invoice> {
  const row = await ctx.db.tx(async (t) => {
    const now = nowIso();
    const [cancelled] = await t
      .update(invoices)
      .set({ status: "cancelled", cancelled_at: now, updated_at: now })
      .where(and(eq(invoices.club_id, ctx.clubId), eq(invoices.id, input.invoice_id), eq(invoices.status, "open"), eq(invoices.paid_cents, 0)))
      .returning();
    if (!cancelled) {
      const current = await invoiceRow(t, ctx.clubId, input.invoice_id);
      if (current.status === "cancelled") return current;
      throw new Conflict("INVOICE_PAID", { number: current.number });
    }
    await emit(ctx.db, t, ctx.clubId, "invoice.cancelled", () => toInvoice(cancelled, ctx.baseUrl));
    return cancelled;
  });
  return toInvoice(row, ctx.baseUrl);
});

/**
 * The invoice of a member's registration awaiting payment (the dashboard's registration page):
 * its open event invoice if one was made, else a new one (createInvoice with the registration,
 * its price under the event's title). 409 REGISTRATION_WITHOUT_MEMBER for a guest's registration
 * (an invoice is addressed to a member); createInvoice's refusals otherwise. The look for an open
 * invoice and the making of one are one transaction under the registration's row lock: two clicks
 * at once (two processes, two connections) make one invoice, the second finding the first's.
 */
export const invoiceRegistration = verb(
  "finances:edit",
  async function invoiceRegistration(ctx: Ctx, input: { event_id: string; registration_id: string }): Promise<Invoice> {
    const club = await getClubRow(ctx.db, ctx.clubId);
    const row = await ctx.db.tx(async (t) => {
      const ofRegistration = and(
        eq(eventRegistrations.club_id, ctx.clubId),
        eq(eventRegistrations.event_id, input.event_id),
        eq(eventRegistrations.id, input.registration_id),
      );
      await lockRows(t, eventRegistrations, eventRegistrations.id, input.registration_id, ofRegistration);
      const [reg] = await t.select({ member_id: eventRegistrations.member_id }).from(eventRegistrations).where(ofRegistration).limit(1);
      if (!reg) throw new NotFound("REGISTRATION_NOT_FOUND");
      if (!reg.member_id) throw new Conflict("REGISTRATION_WITHOUT_MEMBER");
      const [open] = await t
        .select()
        .from(invoices)
        .where(
          and(eq(invoices.club_id, ctx.clubId), eq(invoices.registration_id, input.registration_id), eq(invoices.kind, "event"), eq(invoices.status, "open")),
        )
        .limit(1);
      return open ?? writeInvoice(t, ctx, club, { member_id: reg.member_id, registration_id: input.registration_id });
    });
    return toInvoice(row, ctx.baseUrl);
  },
);
