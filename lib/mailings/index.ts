// Mailings (DESIGN.md section 22): a club's secretary writes to its members. This module owns the
// mailing's life (a draft changed at will, then sent now or scheduled, or cancelled before it
// starts), its audience (statuses, tiers, an event's registrants, all of the club), the preview
// and the test send. Sending itself (the recipients taken, each mailed once at the club's pace)
// is lib/mailings/send.ts; the member's "no" to mailings is lib/mailings/consent.ts.
import { and, asc, count, desc, eq, inArray, isNotNull, or } from "drizzle-orm";
import type { Queryable } from "../../db";
import { events, mailingRecipients, mailings, members } from "../../db/schema";
import { getClubRow } from "../clubs/internal";
import { type Ctx, verb } from "../context";
import { BadGateway, Conflict, type Invalid, PayloadTooLarge, ValidationFailed } from "../errors";
import { MAILING_TEXTS } from "../i18n/mailings";
import { newId, nowIso } from "../ids";
import { sendMail } from "../mail";
import { clubMailLook } from "../mail/look";
import { getMemberRow } from "../members/internal";
import { foreignTierItems } from "../tiers/internal";
import { mailingTemplate, personalMail, unknownMergeFields, unsubscribeMailto } from "./render";
import type {
  Mailing,
  MailingAudience,
  MailingCreate,
  MailingList,
  MailingListQuery,
  MailingPreview,
  MailingRecipientList,
  MailingRecipientsQuery,
  MailingSend,
  MailingUpdate,
  RECIPIENT_STATES,
} from "./schemas";
import { audienceWhere, type Counts, countsOf, MAILING_BODY_MAX_BYTES, type MailingRow, mailingRow, noCounts, toMailing } from "./internal";
import { mergeValues, PREVIEW_PAGE_TOKEN, startSending, unsubscribeUrl } from "./send";

/** The refusals of a subject and body: a body over 1 MB (413, before anything else), unknown merge fields (422 naming them). */
function contentItems(input: { subject?: string; body_markdown?: string }): Invalid[] {
  if (input.body_markdown !== undefined && Buffer.byteLength(input.body_markdown, "utf8") > MAILING_BODY_MAX_BYTES)
    throw new PayloadTooLarge({ max: MAILING_BODY_MAX_BYTES });
  return [
    ...(input.subject !== undefined ? unknownMergeFields(input.subject, ["body", "subject"]) : []),
    ...(input.body_markdown !== undefined ? unknownMergeFields(input.body_markdown, ["body", "body_markdown"]) : []),
  ];
}

/** The refusals of an audience: a tier or an event that is not the club's, each named. */
async function audienceItems(q: Queryable, clubId: string, audience: MailingAudience | undefined, loc: (string | number)[]): Promise<Invalid[]> {
  if (!audience) return [];
  const items = await foreignTierItems(
    q,
    clubId,
    (audience.tier_ids ?? []).map((id, i) => ({ id, loc: [...loc, "tier_ids", i] })),
  );
  if (audience.event_id) {
    const [event] = await q
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.club_id, clubId), eq(events.id, audience.event_id)))
      .limit(1);
    if (!event) items.push({ loc: [...loc, "event_id"], code: "EVENT_NOT_IN_CLUB", params: { id: audience.event_id } });
  }
  return items;
}

/** Throws the 413 or the 422 of a mailing's content and audience, if any. */
async function checkMailing(q: Queryable, clubId: string, input: MailingUpdate): Promise<void> {
  const items = [...contentItems(input), ...(await audienceItems(q, clubId, input.audience, ["body", "audience"]))];
  if (items.length) throw new ValidationFailed(items);
}

async function shaped(q: Queryable, row: MailingRow): Promise<Mailing> {
  return toMailing(row, (await countsOf(q, [row.id])).get(row.id) as Counts);
}

/** Creates a draft. 422 naming an unknown merge field, another club's tier or event; 413 for a body over 1 MB. */
export const createMailing = verb("communication:edit", async function createMailing(ctx: Ctx, input: MailingCreate): Promise<Mailing> {
  const row = await ctx.db.tx(async (t) => {
    await checkMailing(t, ctx.clubId, input);
    const now = nowIso();
    const [created] = await t
      .insert(mailings)
      .values({
        id: newId(),
        club_id: ctx.clubId,
        subject: input.subject,
        body_markdown: input.body_markdown,
        audience: input.audience ?? {},
        status: "draft",
        created_at: now,
        updated_at: now,
      })
      .returning();
    return created;
  });
  return toMailing(row, noCounts());
});

/** The club's mailings, newest first, with their counts. */
export const listMailings = verb("communication:view", async function listMailings(ctx: Ctx, q: MailingListQuery): Promise<MailingList> {
  const page = q.page ?? 1;
  const limit = q.limit ?? 50;
  const where = and(eq(mailings.club_id, ctx.clubId), q.status ? eq(mailings.status, q.status) : undefined);
  const [{ total }] = await ctx.db.read.select({ total: count() }).from(mailings).where(where);
  const rows = await ctx.db.read
    .select()
    .from(mailings)
    .where(where)
    .orderBy(desc(mailings.created_at), desc(mailings.id))
    .limit(limit)
    .offset((page - 1) * limit);
  const counts = await countsOf(
    ctx.db.read,
    rows.map((r) => r.id),
  );
  return { total: Number(total), page, limit, items: rows.map((r) => toMailing(r, counts.get(r.id) as Counts)) };
});

export const getMailing = verb("communication:view", async function getMailing(ctx: Ctx, input: { mailing_id: string }): Promise<Mailing> {
  return shaped(ctx.db.read, await mailingRow(ctx.db.read, ctx.clubId, input.mailing_id));
});

type MailingRef = { mailing_id: string };

/** Changes a draft (a conditional write: a mailing that has just been sent is not changed); 409 MAILING_NOT_DRAFT otherwise. */
export const updateMailing = verb("communication:edit", async function updateMailing(ctx: Ctx, input: MailingRef & MailingUpdate): Promise<Mailing> {
  const { mailing_id, ...change } = input;
  const row = await ctx.db.tx(async (t) => {
    const before = await mailingRow(t, ctx.clubId, mailing_id);
    if (before.status !== "draft") throw new Conflict("MAILING_NOT_DRAFT", { status: before.status });
    await checkMailing(t, ctx.clubId, change);
    const [after] = await t
      .update(mailings)
      .set({ ...change, updated_at: nowIso() })
      .where(and(eq(mailings.id, before.id), eq(mailings.status, "draft")))
      .returning();
    if (!after) throw new Conflict("MAILING_NOT_DRAFT", { status: (await mailingRow(t, ctx.clubId, mailing_id)).status });
    return after;
  });
  return shaped(ctx.db.read, row);
});

/** What sending to an audience now would do: how many members, how many of them would be skipped (said no, or bounced), and a few names. */
export type AudienceCount = { count: number; skipped: number; sample: { member_id: string; name: string }[] };

/** How many members an audience names now, and a few of their names (the compose page's live count, send_mailing's dry run). */
export const countAudience = verb("communication:view", async function countAudience(ctx: Ctx, input: { audience: MailingAudience }): Promise<AudienceCount> {
  const items = await audienceItems(ctx.db.read, ctx.clubId, input.audience, ["body", "audience"]);
  if (items.length) throw new ValidationFailed(items);
  const club = await getClubRow(ctx.db, ctx.clubId);
  const where = audienceWhere(ctx.db.read, ctx.clubId, input.audience, club.grace_period_days);
  // Emails and bounced addresses are both stored lower-cased: equal text is the same address.
  const skip = or(isNotNull(members.mailing_opt_out_at), and(isNotNull(members.email_bounced_at), eq(members.email, members.email_bounced_address)));
  const [{ n }] = await ctx.db.read.select({ n: count() }).from(members).where(where);
  const [{ skipped }] = await ctx.db.read.select({ skipped: count() }).from(members).where(and(where, skip));
  const sample = await ctx.db.read
    .select({ id: members.id, first_name: members.first_name, last_name: members.last_name })
    .from(members)
    .where(where)
    .orderBy(asc(members.sort_name), asc(members.id))
    .limit(5);
  return { count: Number(n), skipped: Number(skipped), sample: sample.map((m) => ({ member_id: m.id, name: `${m.first_name} ${m.last_name}`.trim() })) };
});

type PreviewFor = { mailing_id: string; member_id: string };

/** The mail `member_id` gets from this mailing: subject, HTML, text (their page's link shown, not made). */
export const previewMailing = verb("communication:view", async function previewMailing(ctx: Ctx, input: PreviewFor): Promise<MailingPreview> {
  const mailing = await mailingRow(ctx.db.read, ctx.clubId, input.mailing_id);
  const m = await getMemberRow(ctx.db.read, ctx.clubId, input.member_id);
  const club = await getClubRow(ctx.db, ctx.clubId);
  const look = clubMailLook(ctx.baseUrl, club);
  const mail = personalMail(look, await mailingTemplate(look, mailing), m.email, mergeValues(ctx.baseUrl, look.locale, m, PREVIEW_PAGE_TOKEN), {
    url: unsubscribeUrl(ctx.baseUrl, PREVIEW_PAGE_TOKEN),
    mailto: unsubscribeMailto(look),
  });
  return { member_id: m.id, to: m.email, subject: mail.subject, html: mail.html, text: mail.text };
});

/**
 * Mails the mailing, now, to `email` (the secretary's own address), filled with the first member
 * of its audience (else with blanks), its subject marked as a test. 502 if the mail server refuses.
 */
export const sendTestMailing = verb("communication:edit", async function sendTestMailing(ctx: Ctx, input: { mailing_id: string; email: string }): Promise<{
  sent: true;
  to: string;
}> {
  const mailing = await mailingRow(ctx.db.read, ctx.clubId, input.mailing_id);
  const club = await getClubRow(ctx.db, ctx.clubId);
  const look = clubMailLook(ctx.baseUrl, club);
  const [first] = await ctx.db.read
    .select()
    .from(members)
    .where(audienceWhere(ctx.db.read, ctx.clubId, mailing.audience, club.grace_period_days))
    .orderBy(asc(members.sort_name), asc(members.id))
    .limit(1);
  const values = first
    ? mergeValues(ctx.baseUrl, look.locale, first, PREVIEW_PAGE_TOKEN)
    : { first_name: "", last_name: "", membership_end: "", member_page_url: `${ctx.baseUrl}/m/${PREVIEW_PAGE_TOKEN}`, card_url: "" };
  const mail = personalMail(look, await mailingTemplate(look, mailing), input.email, values, {
    url: unsubscribeUrl(ctx.baseUrl, PREVIEW_PAGE_TOKEN),
    mailto: unsubscribeMailto(look),
  });
  try {
    await sendMail(ctx.mail, { ...mail, subject: `${MAILING_TEXTS[look.locale].testPrefix}${mail.subject}` });
  } catch (err) {
    throw new BadGateway("MAILING_TEST_FAILED", { reason: err instanceof Error ? err.message.slice(0, 300) : "unknown" });
  }
  return { sent: true, to: input.email };
});

/**
 * Sends a draft or a scheduled mailing: now (its recipients taken in this transaction, then
 * mailed by the job queue at MAIL_RATE_PER_MINUTE), or at a later `send_at` (scheduled). The
 * status moves by a conditional write, so sending twice, at once or not, is one send and a 409.
 */
export const sendMailing = verb("communication:edit", async function sendMailing(ctx: Ctx, input: { mailing_id: string } & MailingSend): Promise<Mailing> {
  const row = await ctx.db.tx(async (t) => {
    const before = await mailingRow(t, ctx.clubId, input.mailing_id);
    const refuse = (status: string) => new Conflict("MAILING_NOT_SENDABLE", { status });
    if (before.status !== "draft" && before.status !== "scheduled") throw refuse(before.status);
    const now = new Date();
    const later = input.send_at && new Date(input.send_at).getTime() > now.getTime() ? new Date(input.send_at).toISOString() : null;
    const started = await startSending(t, ctx.db, before, now, later);
    if (!started) throw refuse((await mailingRow(t, ctx.clubId, input.mailing_id)).status);
    return started;
  });
  return shaped(ctx.db.read, row);
});

/**
 * What sending a mailing would do now, changing nothing: the members its audience names, how many
 * would be skipped, a few names (an assistant's send_mailing shows it before asking).
 */
export const mailingPlan = verb("communication:view", async function mailingPlan(ctx: Ctx, input: { mailing_id: string }) {
  const m = await mailingRow(ctx.db.read, ctx.clubId, input.mailing_id);
  const audience = await countAudience(ctx, { audience: m.audience as MailingAudience });
  return { mailing_id: m.id, subject: m.subject, recipients: audience.count, skipped: audience.skipped, sample: audience.sample };
});

/** Cancels a draft or a scheduled mailing; one that is sending or sent: 409 MAILING_NOT_CANCELLABLE. */
export const cancelMailing = verb("communication:edit", async function cancelMailing(ctx: Ctx, input: { mailing_id: string }): Promise<Mailing> {
  const row = await ctx.db.tx(async (t) => {
    const before = await mailingRow(t, ctx.clubId, input.mailing_id);
    const now = nowIso();
    const [after] = await t
      .update(mailings)
      .set({ status: "cancelled", cancelled_at: now, updated_at: now })
      .where(and(eq(mailings.id, before.id), inArray(mailings.status, ["draft", "scheduled"])))
      .returning();
    if (!after) throw new Conflict("MAILING_NOT_CANCELLABLE", { status: (await mailingRow(t, ctx.clubId, input.mailing_id)).status });
    return after;
  });
  return shaped(ctx.db.read, row);
});

/** Who the mailing went (or goes) to, and each one's delivery state; `sending` shows as `pending`. */
export const listMailingRecipients = verb(
  "communication:view",
  async function listMailingRecipients(ctx: Ctx, input: { mailing_id: string } & MailingRecipientsQuery): Promise<MailingRecipientList> {
    const mailing = await mailingRow(ctx.db.read, ctx.clubId, input.mailing_id);
    const page = input.page ?? 1;
    const limit = input.limit ?? 100;
    const state =
      input.state === "pending" ? inArray(mailingRecipients.state, ["pending", "sending"]) : input.state ? eq(mailingRecipients.state, input.state) : undefined;
    const where = and(eq(mailingRecipients.mailing_id, mailing.id), state);
    const [{ total }] = await ctx.db.read.select({ total: count() }).from(mailingRecipients).where(where);
    const rows = await ctx.db.read
      .select({ r: mailingRecipients, first_name: members.first_name, last_name: members.last_name })
      .from(mailingRecipients)
      .leftJoin(members, eq(members.id, mailingRecipients.member_id))
      .where(where)
      .orderBy(asc(mailingRecipients.created_at), asc(mailingRecipients.id))
      .limit(limit)
      .offset((page - 1) * limit);
    return {
      total: Number(total),
      page,
      limit,
      items: rows.map(({ r, first_name, last_name }) => ({
        member_id: r.member_id,
        first_name,
        last_name,
        email: r.email,
        state: (r.state === "sending" ? "pending" : r.state) as (typeof RECIPIENT_STATES)[number],
        error: r.error,
        sent_at: r.sent_at,
      })),
    };
  },
);
