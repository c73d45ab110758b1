// The MCP resources: the club, its tiers, its member list, its chart of accounts and an invoice's
// PDF, read through the same lib/ verbs and scopes as the tools. A resource lives at `club://<club_id><path>`; a template's variables
// are the query string of its URI, checked with a zod object. server/mcp.ts lists and reads them.
import { type ZodObject, z } from "zod";
import { chartOfAccounts } from "../books/journal";
import { getClub } from "../clubs";
import type { Ctx } from "../context";
import { listMembers } from "../members";
import { MemberListQuery } from "../members/schemas";
import { listTiers } from "../tiers";
import { invoicePdf } from "../invoices/pdf";

export type ResourceDef<S extends ZodObject = ZodObject> = {
  name: string;
  title: string;
  description: string;
  /** What follows `club://<club_id>`: "" for the club itself. */
  path: string;
  /** A template's variables (its URI's query string); none for a fixed resource. */
  query?: S;
  /** A file's type (its `read` answers the bytes); none: JSON. */
  mimeType?: string;
  read(ctx: Ctx, query: z.output<S>): Promise<unknown>;
};

export const CLUB_SCHEME = "club:";

/** The URI of a club's resource, or of a template with its query variables. */
export function resourceUri(clubId: string, def: ResourceDef): string {
  const vars = def.query ? `{?${Object.keys(def.query.shape).join(",")}}` : "";
  return `${CLUB_SCHEME}//${clubId}${def.path}${vars}`;
}

const resource = <S extends ZodObject>(def: ResourceDef<S>) => def as unknown as ResourceDef;

/** The URI of one resource of a template, its variables filled in (a tool's resource link). */
export function resourceUriOf(clubId: string, def: ResourceDef, query: Record<string, string>): string {
  return `${CLUB_SCHEME}//${clubId}${def.path}?${new URLSearchParams(query)}`;
}

export const accounts = resource({
  name: "accounts",
  title: "Chart of accounts",
  description:
    "The club's accounts as the journal books them (SPEC accounting_account_*): for each role (bank, passage, revenue, events, fees) its number, name and what it takes, with the journal code and the currency. Needs finances:view.",
  path: "/accounts",
  read: (ctx) => chartOfAccounts(ctx, {}),
});

export const invoice_pdf = resource({
  name: "invoice_pdf",
  title: "An invoice's PDF",
  description: "An invoice as the member gets it: A4, with the Swiss QR-bill or the EPC QR code. The invoice tools link to it. Needs finances:view.",
  path: "/invoices/pdf",
  query: z.object({ invoice_id: z.uuid() }),
  mimeType: "application/pdf",
  read: async (ctx, { invoice_id }) => (await invoicePdf(ctx, { invoice_id })).body,
});

export const RESOURCES: ResourceDef[] = [
  resource({
    name: "club",
    title: "The club",
    description: "The club's settings as the API shows them (ClubAdmin): name, colours, fee and duration (cents, months), locale, card, legal details.",
    path: "",
    read: (ctx) => getClub(ctx),
  }),
  resource({
    name: "tiers",
    title: "Membership tiers",
    description: "The club's active membership tiers (id, name, price_cents, currency, duration_months, member_count), by sort order. Needs members:view.",
    path: "/tiers",
    read: (ctx) => listTiers(ctx, { include_inactive: false }),
  }),
  resource({
    name: "members",
    title: "Members",
    description:
      "A page of the club's members (total, page, limit, items), as list_members gives it: search by name, email or referral code; status active, expired, pending, suspended or all; sort registered, name, email, membership_end or status; dir asc or desc; limit 1..1000 (default 50). Needs members:view.",
    path: "/members",
    query: MemberListQuery.pick({ search: true, status: true, sort: true, dir: true, page: true, limit: true }),
    read: (ctx, query) => listMembers(ctx, query),
  }),
  accounts,
  invoice_pdf,
];
