// The MCP prompts: ready-made tasks an assistant's user can pick. Each returns the text of one
// user message naming the tools to call, with the current figures read through the same lib/
// verbs as the tools (so a prompt needs the scope of what it embeds). server/mcp.ts serves them.
import { type ZodObject, z } from "zod";
import type { Ctx } from "../context";
import { getClub } from "../clubs";
import { runDues } from "../dues/run";
import { listMembers } from "../members";
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

/** The last day of the current year (UTC): the dues run's default horizon. */
const yearEnd = () => `${new Date().getUTCFullYear()}-12-31`;

export const dues_run = prompt({
  name: "dues_run",
  title: "Run the season's dues",
  description:
    "The season's membership invoices: what a dues run until a day would make (count, totals, who is skipped, a sample), read now as a dry run, and the steps to make and send them with the user's consent. Needs finances:edit.",
  args: z.object({
    until: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional()
      .describe("Invoice the memberships ending before this day, YYYY-MM-DD; default the end of this year."),
  }),
  run: async (ctx, { until }) => {
    const day = until ?? yearEnd();
    const [run, club] = await Promise.all([runDues(ctx, { until: day, dry_run: true }), getClub(ctx)]);
    const totals = run.totals.map((x) => money(x.amount_cents, x.currency)).join(" + ") || "nothing";
    const sample = run.sample.map((x) => `- ${x.first_name} ${x.last_name}: ${money(x.amount_cents, x.currency)} from ${x.period_start}`).join("\n");
    return `Help the treasurer of ${club.name} run the season's dues until ${day}, in ${LANGUAGE[ctx.locale]}.

A dry run read now (nothing written): ${run.created} membership invoice(s), ${totals}; skipped: ${run.skipped.nothing_to_pay} with nothing to pay, ${run.skipped.already_invoiced} already invoiced.${sample ? `\nThe first ones:\n${sample}` : ""}

Steps:
1. Show the user these figures and ask whether to go ahead (and whether some tiers only: run_invoices takes tier_ids from list_tiers).
2. Only once they agree: run_invoices with until=${day} (it asks for confirmation; with a client that cannot ask, pass confirm: true after the user's yes). A second run makes nothing twice.
3. The invoices are not mailed by the run: offer send_invoice for each new open invoice (list_invoices with status=open), again only with the user's consent.
4. Later, list_invoices with overdue=true shows who has not paid; the club's dunning reminders go out by themselves.`;
  },
});

export const mailing_to_lapsed = prompt({
  name: "mailing_to_lapsed",
  title: "A mailing to lapsed members",
  description:
    "Write to the members whose membership has ended: how many there are, a draft in the club's language with the merge fields, and the steps to preview, test and send it with the user's consent. Needs members:view; sending needs communication:edit.",
  args: z.object({}),
  run: async (ctx) => {
    const [lapsed, club] = await Promise.all([listMembers(ctx, { status: "expired", page: 1, limit: 1 }), getClub(ctx)]);
    return `Help the secretary of ${club.name} write to its lapsed members (membership ended: ${lapsed.total} member(s) now), in ${LANGUAGE[ctx.locale]}.

1. Draft a short, warm message inviting them back: what the club offers this season, and a link to renew. Merge fields: {{first_name}}, {{last_name}}, {{membership_end}}, {{member_page_url}} (their own page, where they renew), {{card_url}}. Markdown; no HTML.
2. create_mailing with the subject, body_markdown and audience {statuses: ["expired"]}: it stays a draft.
3. preview_mailing for one member to show the user the mail as they will get it; offer a test send to the user's own address.
4. Only once the user agrees: send_mailing (it asks for confirmation and says how many it would reach; members who opted out or whose address bounced are skipped).
Change nothing before the user says so.`;
  },
});

export const PROMPTS: PromptDef[] = [monthly_report, not_renewed, dues_run, mailing_to_lapsed];
