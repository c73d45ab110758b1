// Invoices with their member's name, as a list of them is read by a person (the dashboard's invoices
// page): the Invoice itself names the member by id only. Under finances:view, as the invoices are
// (the PDF shows the same name); an erased member's name is gone, and so null.
import { and, eq, inArray } from "drizzle-orm";
import { clubMembersIn } from "../../db";
import { invoices, members } from "../../db/schema";
import { type Ctx, verb } from "../context";
import { listInvoices } from "./index";
import type { Invoice, InvoiceList, InvoiceListQuery } from "./schemas";

export type NamedInvoice = Invoice & { member_name: string | null };

/** The members of `ids` in the club, by id: their name as shown beside an invoice. */
export const invoiceMemberNames = verb("finances:view", async function invoiceMemberNames(ctx: Ctx, input: { member_ids: string[] }): Promise<
  Map<string, string>
> {
  const ids = [...new Set(input.member_ids)];
  if (!ids.length) return new Map();
  const rows = await ctx.db.read
    .select({ id: members.id, first_name: members.first_name, last_name: members.last_name })
    .from(members)
    .where(clubMembersIn(ctx.clubId, ids));
  return new Map(rows.map((r) => [r.id, `${r.first_name} ${r.last_name}`]));
});

/** listInvoices, each invoice with its member's name. */
export const listNamedInvoices = verb("finances:view", async function listNamedInvoices(ctx: Ctx, input: InvoiceListQuery): Promise<
  Omit<InvoiceList, "items"> & { items: NamedInvoice[] }
> {
  const list = await listInvoices(ctx, input);
  const names = await invoiceMemberNames(ctx, { member_ids: list.items.map((i) => i.member_id) });
  return { ...list, items: list.items.map((i) => ({ ...i, member_name: names.get(i.member_id) ?? null })) };
});

/** An invoice as a line of a statement names it to a person: its number, its member's name (null once erased) and its amount. */
export type InvoiceNamed = { id: string; number: string; member_id: string; member_name: string | null; amount_cents: number; currency: string };

/** The club's invoices among `invoice_ids` (the ones a statement's lines paid), by id; others are left out. */
export const namedInvoicesById = verb("finances:view", async function namedInvoicesById(ctx: Ctx, input: { invoice_ids: string[] }): Promise<
  Map<string, InvoiceNamed>
> {
  const ids = [...new Set(input.invoice_ids)];
  const rows: Omit<InvoiceNamed, "member_name">[] = [];
  for (let i = 0; i < ids.length; i += 500)
    rows.push(
      ...(await ctx.db.read
        .select({ id: invoices.id, number: invoices.number, member_id: invoices.member_id, amount_cents: invoices.amount_cents, currency: invoices.currency })
        .from(invoices)
        .where(and(eq(invoices.club_id, ctx.clubId), inArray(invoices.id, ids.slice(i, i + 500))))),
    );
  const names = await invoiceMemberNames(ctx, { member_ids: rows.map((r) => r.member_id) });
  return new Map(rows.map((r) => [r.id, { ...r, member_name: names.get(r.member_id) ?? null }]));
});
