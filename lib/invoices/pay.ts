// Paying an invoice (DESIGN.md section 20): what a payment does to the invoice it pays, whichever
// way it came (a statement line, mark-paid, Stripe): `paid_cents` raised, `paid` once covered,
// `invoice.paid` then. The payment row itself is recorded by lib/payments/record (with its
// `invoice_id`); renewing a membership is mark-paid's (lib/members), which calls this.
import { and, asc, eq, inArray, type SQL } from "drizzle-orm";
import type { Db, Queryable } from "../../db";
import { lockRows } from "../../db/locks";
import { eventRegistrations, invoices } from "../../db/schema";
import { Conflict } from "../errors";
import { nowIso } from "../ids";
import { emit } from "../webhooks/emit";
import { type InvoiceRow, invoiceRow, toInvoice } from "./index";

/**
 * The club's invoice `id`, its row locked until the transaction `t` ends (PostgreSQL; SQLite's
 * write lock serializes already), so that two payments of one invoice add up. 404 for none.
 */
export async function lockInvoice(t: Queryable, clubId: string, id: string): Promise<InvoiceRow> {
  await lockRows(t, invoices, invoices.id, id);
  return invoiceRow(t, clubId, id);
}

/** What the invoice still asks for (0 once paid in full or over). */
export const invoiceLeft = (row: Pick<InvoiceRow, "amount_cents" | "paid_cents">) => Math.max(0, row.amount_cents - row.paid_cents);

/** 409 unless `row` can take a payment: INVOICE_CANCELLED, or INVOICE_PAID for one paid already. */
export function assertPayable(row: InvoiceRow): void {
  if (row.status === "cancelled") throw new Conflict("INVOICE_CANCELLED", { number: row.number });
  if (row.status !== "open") throw new Conflict("INVOICE_PAID", { number: row.number });
}

/**
 * Inside the caller's transaction, with `row` locked (lockInvoice) and payable: adds `amount` to
 * what was paid. The invoice becomes `paid` when that covers it, or at once with `settle` (mark-paid:
 * the admin says the membership is paid, whatever the amount). Emits `invoice.paid` when it does.
 */
export async function addInvoicePayment(
  t: Queryable,
  site: { db: Db; baseUrl: string },
  row: InvoiceRow,
  amount: number,
  options: { settle?: boolean } = {},
): Promise<InvoiceRow> {
  assertPayable(row);
  const paidCents = row.paid_cents + amount;
  const paid = options.settle || paidCents >= row.amount_cents;
  const [after] = await t
    .update(invoices)
    .set({ paid_cents: paidCents, status: paid ? "paid" : "open", updated_at: nowIso() })
    .where(and(eq(invoices.club_id, row.club_id), eq(invoices.id, row.id)))
    .returning();
  if (paid) await emit(site.db, t, row.club_id, "invoice.paid", () => toInvoice(after, site.baseUrl));
  return after;
}

/** The member's oldest open membership invoice, locked (see lockInvoice), or null. */
export const oldestOpenMembershipInvoice = (t: Queryable, clubId: string, memberId: string) =>
  oldestOpen(t, clubId, and(eq(invoices.member_id, memberId), eq(invoices.kind, "membership")));

/** The registration's oldest open event invoice, locked (see lockInvoice), or null. */
export const openRegistrationInvoice = (t: Queryable, clubId: string, registrationId: string) =>
  oldestOpen(t, clubId, and(eq(invoices.registration_id, registrationId), eq(invoices.kind, "event")));

async function oldestOpen(t: Queryable, clubId: string, which: SQL | undefined): Promise<InvoiceRow | null> {
  const open = and(eq(invoices.club_id, clubId), which, eq(invoices.status, "open"));
  const [first] = await t.select({ id: invoices.id }).from(invoices).where(open).orderBy(asc(invoices.issued_on), asc(invoices.number)).limit(1);
  if (!first) return null;
  const row = await lockInvoice(t, clubId, first.id);
  // Paid or cancelled by another transaction between the read and the lock: none to settle now.
  return row.status === "open" ? row : null;
}

/**
 * Registrations just cancelled (by an admin, their hold expired, their event cancelled), inside
 * that transaction: their open event invoices nothing was paid on are cancelled with them, so
 * they are never reminded and a late transfer is listed NOT_PAYABLE (to refund) rather than
 * taken. One partly paid stays open: the treasurer refunds, then cancels it. `which`: one
 * registration's id, or every registration of an event (`{ eventId }`).
 */
export async function cancelRegistrationInvoices(
  t: Queryable,
  site: { db: Db; baseUrl: string },
  clubId: string,
  which: { registrationId: string } | { eventId: string },
): Promise<void> {
  const registrations =
    "registrationId" in which
      ? eq(invoices.registration_id, which.registrationId)
      : inArray(
          invoices.registration_id,
          t
            .select({ id: eventRegistrations.id })
            .from(eventRegistrations)
            .where(and(eq(eventRegistrations.club_id, clubId), eq(eventRegistrations.event_id, which.eventId))),
        );
  const now = nowIso();
  const cancelled = await t
    .update(invoices)
    .set({ status: "cancelled", cancelled_at: now, updated_at: now })
    .where(and(eq(invoices.club_id, clubId), eq(invoices.kind, "event"), registrations, eq(invoices.status, "open"), eq(invoices.paid_cents, 0)))
    .returning();
  for (const row of cancelled) await emit(site.db, t, clubId, "invoice.cancelled", () => toInvoice(row, site.baseUrl));
}
