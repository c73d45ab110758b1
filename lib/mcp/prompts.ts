// The MCP prompts: ready-made tasks an assistant's user can pick. Each returns the text of one
// user message naming the tools to call, with the current figures read through the same lib/
// verbs as the tools (so a prompt needs the scope of what it embeds). server/mcp.ts serves them.
import { type ZodObject, z } from "zod";
import type { Ctx } from "../context";
import { getClub } from "../clubs";
import { listNotRenewed, NotRenewedQuery } from "../members/renewals";
import type { MemberAdminItem } from "../members/schemas";
import { type ClubStats, clubStats } from "../stats";
import type { Locale } from "../i18n";

export type PromptDef<S extends ZodObject = ZodObject> = {
  name: string;
  title: string;
  description: string;
  /** Its arguments: MCP sends them as strings, so numbers are coerced. */
  args: S;
  run(ctx: Ctx, args: z.output<S>): Promise<string>;
};

const prompt = <S extends ZodObject>(def: PromptDef<S>) => def as unknown as PromptDef;

const LANGUAGE: Record<Locale, string> = { fr: "French", en: "English", de: "German", it: "Italian" };

const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency}`;

/** The first instant of a `YYYY-MM` month (UTC), and of the month `shift` months later. */
function monthStart(month: string, shift = 0): Date {
  const [y, m] = month.split("-").map(Number);
  // setUTCFullYear, not Date.UTC: the latter reads years 0-99 as 1900-1999.
  const d = new Date(0);
  d.setUTCFullYear(y, m - 1 + shift, 1);
  return d;
}

const day = (d: Date) => d.toISOString().slice(0, 10);

function revenueLine(s: ClubStats): string {
  const r = s.revenue.this_month;
  const $ = (c: number) => money(c, s.currency);
  return `gross ${$(r.gross_cents)} (memberships ${$(r.memberships_cents)}, events ${$(r.events_cents)}), provider fees ${$(r.provider_fees_cents)}, platform commission ${$(r.platform_commission_cents)}, net ${$(r.net_cents)}`;
}

export const monthly_report = prompt({
  name: "monthly_report",
  title: "Monthly report",
  description:
    "The club's report for a month: its revenue and new members (with the month before), today's member counts, and the tools that give its events, attendance and members. Needs finances:view.",
  args: z.object({
    month: z
      .string()
      .regex(/^\d{4}-(0[1-9]|1[0-2])$/)
      .optional()
      .describe("The month, YYYY-MM (UTC); default the current month."),
  }),
  run: async (ctx, { month }) => {
    const now = new Date();
    const asked = month ?? now.toISOString().slice(0, 7);
    const start = monthStart(asked);
    const last = day(new Date(monthStart(asked, 1).getTime() - 86_400_000));
    const [current, previous, today, club] = await Promise.all([
      clubStats(ctx, { now: start }),
      clubStats(ctx, { now: monthStart(asked, -1) }),
      clubStats(ctx, {}),
      getClub(ctx),
    ]);
    const m = today.members;
    return `Write the monthly report of ${club.name} for ${asked} (${day(start)} to ${last}, UTC), in ${LANGUAGE[ctx.locale]}, for the club's committee.

Figures read now (amounts are the API's integer cents, shown in ${current.currency}):
- ${asked}: ${revenueLine(current)}; ${current.members.new_this_month} new members.
- The month before: ${revenueLine(previous)}; ${previous.members.new_this_month} new members.
- Members today: ${m.total} in all, ${m.active} active, ${m.expired} expired, ${m.pending} pending, ${m.suspended} suspended.

Complete it with these read-only tools (skip one that answers SCOPE_MISSING and say so):
- list_events: the events that started in ${asked}, with registered_count, checked_in_count and net_cents.
- attendance with from=${day(start)} and to=${last}: card scans and unique members.
- list_members with sort=registered and dir=desc: who joined in ${asked} (created_at).
- list_members with status=expired, sort=membership_end and dir=desc: memberships that have ended.

Keep it short: the headline figures, the change from the month before, and what needs attention (members to remind: the not_renewed prompt lists them). Change nothing.`;
  },
});

function memberLine(m: MemberAdminItem): string {
  const tier = m.tier_name ? `, tier ${m.tier_name}` : "";
  return `- ${m.first_name} ${m.last_name} <${m.email}>: last day ${m.membership_end}${tier}; member_id ${m.id}`;
}

function group(title: string, g: { total: number; items: MemberAdminItem[] }, more: string): string {
  if (!g.total) return `${title}: none.`;
  const rest = g.total > g.items.length ? `\n(${g.total - g.items.length} more: ${more})` : "";
  return `${title} (${g.total}):\n${g.items.map(memberLine).join("\n")}${rest}`;
}

export const not_renewed = prompt({
  name: "not_renewed",
  title: "Members who have not renewed",
  description:
    "Members whose membership ended in the last `days` days, and paid members whose membership ends within the next `days` days without an automatic renewal, with what to do about them. Needs members:view.",
  args: NotRenewedQuery.pick({ days: true }),
  run: async (ctx, { days }) => {
    const [list, club] = await Promise.all([listNotRenewed(ctx, { days }), getClub(ctx)]);
    return `Members of ${club.name} who have not renewed (today is ${list.today}, UTC).

${group(`Ended between ${list.from} and yesterday, latest first`, list.ended, "list_members with status=expired, sort=membership_end, dir=desc")}

${group(`Ending by ${list.to} with no automatic renewal, soonest first`, list.ending, "list_members with status=active, sort=membership_end, dir=asc")}

Help the user follow them up: group them, and draft a short, friendly renewal reminder in ${LANGUAGE[ctx.locale]} for each group. To look at one member, use list_members with search=<name or email>. When a member has paid outside the platform, record it with mark_member_paid (member_id, amount_cents in integer cents); extend_membership gives extra time without a payment. Write nothing until the user says so.`;
  },
});

export const PROMPTS: PromptDef[] = [monthly_report, not_renewed];
