// What the mailing verbs (lib/mailings) and its sending (send.ts) share: the club-scoped lookup,
// the members an audience names, and the counts, read from the recipients' states.
import { and, count, eq, inArray, isNull, ne, or, type SQL } from "drizzle-orm";
import type { Queryable } from "../../db";
import { eventRegistrations, mailingRecipients, mailings, members, type MailingAudience as StoredAudience } from "../../db/schema";
import { NotFound } from "../errors";
import { statusDay, statusWhere, todayUtc } from "../members/status";
import type { Mailing } from "./schemas";

/** The largest body a mailing may have (413 beyond): 1 MB of Markdown, in UTF-8 bytes. */
export const MAILING_BODY_MAX_BYTES = 1024 * 1024;

export type MailingRow = typeof mailings.$inferSelect;

/** The club's mailing `id`; 404 MAILING_NOT_FOUND otherwise (another club's included). */
export async function mailingRow(q: Queryable, clubId: string, id: string): Promise<MailingRow> {
  const [row] = await q
    .select()
    .from(mailings)
    .where(and(eq(mailings.club_id, clubId), eq(mailings.id, id)))
    .limit(1);
  if (!row) throw new NotFound("MAILING_NOT_FOUND");
  return row;
}

/**
 * The SQL condition of the members an audience names at the club (today's statuses, with its
 * grace period). Applicants awaiting approval are not members yet; a member with no address
 * cannot be mailed.
 */
export function audienceWhere(q: Queryable, clubId: string, audience: StoredAudience, graceDays: number, today = todayUtc()): SQL {
  const day = statusDay(today, graceDays);
  const parts: (SQL | undefined)[] = [eq(members.club_id, clubId), isNull(members.application_status), ne(members.email, "")];
  if (audience.statuses?.length) parts.push(or(...audience.statuses.map((s) => statusWhere(s as never, day))));
  if (audience.tier_ids?.length) parts.push(inArray(members.tier_id, audience.tier_ids));
  if (audience.event_id) {
    const registered = (audience.registration_statuses?.length ? audience.registration_statuses : ["confirmed"]) as string[];
    parts.push(
      inArray(
        members.id,
        // Registrations keep the member's id (null for a guest): one row per member however many tickets.
        q
          .select({ id: eventRegistrations.member_id })
          .from(eventRegistrations)
          .where(and(eq(eventRegistrations.event_id, audience.event_id), inArray(eventRegistrations.status, registered))),
      ),
    );
  }
  return and(...parts) as SQL;
}

export type Counts = Mailing["counts"];
export const noCounts = (): Counts => ({ recipients: 0, sent: 0, failed: 0, bounced: 0, skipped_opt_out: 0 });

/**
 * The counts of `ids`, read from their recipients' states (never stored apart from them, so they
 * add up whatever ran at once): a recipient still pending is counted in `recipients` only.
 */
export async function countsOf(q: Queryable, ids: string[]): Promise<Map<string, Counts>> {
  const out = new Map(ids.map((id) => [id, noCounts()]));
  if (!ids.length) return out;
  const rows = await q
    .select({ mailing_id: mailingRecipients.mailing_id, state: mailingRecipients.state, n: count() })
    .from(mailingRecipients)
    .where(inArray(mailingRecipients.mailing_id, ids))
    .groupBy(mailingRecipients.mailing_id, mailingRecipients.state);
  for (const r of rows) {
    const c = out.get(r.mailing_id) as Counts;
    const n = Number(r.n);
    c.recipients += n;
    if (r.state !== "pending" && r.state !== "sending") c[r.state as Exclude<keyof Counts, "recipients">] += n;
  }
  return out;
}

export function toMailing(row: MailingRow, counts: Counts): Mailing {
  return {
    id: row.id,
    subject: row.subject,
    body_markdown: row.body_markdown,
    audience: row.audience,
    status: row.status as Mailing["status"],
    send_at: row.send_at,
    counts,
    created_at: row.created_at,
    sent_at: row.sent_at,
  } as Mailing;
}
