// Sending a mailing (DESIGN.md section 22). When it starts, its audience is taken as rows of
// mailing_recipients (unique per mailing and member), the members who said no or whose address
// bounced already marked skipped. Then one job chain per mailing mails them at the club's pace
// (MAIL_RATE_PER_MINUTE): each run mails up to ten seconds' worth, then queues the next run when
// the pace allows it. Each recipient is mailed once, whatever runs at once or dies: a worker
// claims a recipient by a conditional write (`pending` to `sending`, with a token and a deadline)
// before mailing it, and records the answer under that token after. A claim whose deadline passed
// (its process died between the two, and nobody knows whether the mail left) is recorded as
// `failed`, never mailed again: a member may miss one mailing, but gets none twice. An SMTP 4xx is
// tried again later; a 5xx marks the recipient `bounced` and the member's address, which later
// mailings skip until the member's email changes.
import { and, eq, inArray, isNull, lt, lte, min, or, sql } from "drizzle-orm";
import { type Db, inPieces, type Queryable, slotRows, slotValues } from "../../db";
import { skipLocked } from "../../db/locks";
import { clubs, mailingRecipients, mailings, members } from "../../db/schema";
import { getClubRow } from "../clubs/internal";
import type { Locale } from "../i18n";
import { newId, randomBase62 } from "../ids";
import { completeJobIn, enqueueJob, type JobEnv, type JobKind, type JobKinds, type JobRow, RECORDED } from "../jobs";
import { type MailMessage, mailPace, sendMail } from "../mail";
import { clubMailLook, mailDay } from "../mail/look";
import { type MemberRow, memberPageUrl, newManageToken } from "../members/internal";
import { namingRead } from "../../db/locks";
import { webCardUrl } from "../passes";
import { emit } from "../webhooks/emit";
import { audienceWhere, countsOf, type MailingRow, toMailing } from "./internal";
import { type MergeValues, mailingTemplate, personalMail, unsubscribeMailto, usesField } from "./render";

export const MAILING_START = "mailing_start";
export const MAILING_SEND = "mailing_send";

/** How long a claim on a recipient holds: well past the mail server's timeouts (lib/mail: 10 + 10 + 20 s). */
export const RECIPIENT_CLAIM_MS = 2 * 60_000;
/** Tries of a recipient the mail server turns away for now (4xx, or no answer), and the waits between them. */
const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000] as const;

/** What the preview and the test send show for the member's page (a real link would end the member's current one). */
export const PREVIEW_PAGE_TOKEN = "preview";

/** The one-click unsubscribe link of a recipient (RFC 8058): GET shows a button, POST opts out. */
export const unsubscribeUrl = (baseUrl: string, token: string) => `${baseUrl}/u/${token}`;

/** A member's values of the merge fields; `pageToken`: their page's token (a new one when sending). */
export function mergeValues(baseUrl: string, locale: Locale, m: MemberRow, pageToken: string): MergeValues {
  return {
    first_name: m.first_name,
    last_name: m.last_name,
    membership_end: mailDay(m.membership_end, locale),
    member_page_url: memberPageUrl(baseUrl, pageToken),
    card_url: webCardUrl({ baseUrl }, m.pass_serial_number),
  };
}

/** A member's address bounced, and it is still their address. */
const bouncedNow = (m: Pick<MemberRow, "email" | "email_bounced_at" | "email_bounced_address">) =>
  !!m.email_bounced_at && m.email_bounced_address?.toLowerCase() === m.email.toLowerCase();

/**
 * Rows written per statement when taking the recipients, largest first (`inPieces`): an audience
 * of any size makes statements of these four sizes only, each kept compiled.
 */
const INSERT_PIECES = [200, 50, 10, 1];
/** The columns a recipient is taken with (the others take their defaults). */
const RECIPIENT_COLUMNS = ["id", "club_id", "mailing_id", "member_id", "email", "state", "error", "unsubscribe_token", "created_at"] as const;

/**
 * Takes the mailing's recipients inside `t` and queues its first run: the audience as it is now,
 * the members who said no (`skipped_opt_out`) or whose address bounced (`bounced`) recorded as
 * such. Run again for the same mailing, it adds nobody twice (unique per mailing and member).
 */
async function takeRecipients(t: Queryable, db: Db, m: MailingRow, now: string): Promise<void> {
  const [club] = await t.select({ grace: clubs.grace_period_days }).from(clubs).where(eq(clubs.id, m.club_id));
  // Locked as read (namingRead), in the order of their ids (as the undo locks them): each
  // recipient row names its member, who cannot go meanwhile.
  const audience = await namingRead(
    t
      .select({
        id: members.id,
        email: members.email,
        mailing_opt_out_at: members.mailing_opt_out_at,
        email_bounced_at: members.email_bounced_at,
        email_bounced_address: members.email_bounced_address,
      })
      .from(members)
      .where(audienceWhere(t, m.club_id, m.audience, club?.grace ?? 0))
      .orderBy(members.id),
  );
  for (const piece of inPieces(audience, INSERT_PIECES)) {
    const rows = piece.map((a) => {
      const state = a.mailing_opt_out_at ? "skipped_opt_out" : bouncedNow(a) ? "bounced" : "pending";
      return {
        id: newId(),
        club_id: m.club_id,
        mailing_id: m.id,
        member_id: a.id,
        email: a.email,
        state,
        error: state === "bounced" ? `skipped: the address bounced on ${a.email_bounced_at?.slice(0, 10)}` : null,
        unsubscribe_token: randomBase62(32),
        created_at: now,
      };
    });
    // Prepared once per size (Db.prepareRows): Drizzle's statement of 200 rows, built anew for each
    // piece, was 19 of a 10,000-member send's 43 MB of memory growth and two thirds of its time
    // (docs/benchmarks.md, "Session 25 (lead)").
    await db
      .prepareRows("mailings.recipients", rows.length, RECIPIENT_COLUMNS.length, (q, n) =>
        q.insert(mailingRecipients).values(slotRows(RECIPIENT_COLUMNS, n)).onConflictDoNothing(),
      )(t)
      .run(slotValues(RECIPIENT_COLUMNS, rows));
  }
  await enqueueJob(t, { clubId: m.club_id, kind: MAILING_SEND, payload: { mailing_id: m.id }, runAfter: now });
}

/**
 * Moves a draft or scheduled mailing on, inside `t`, by a conditional write: to `scheduled` with
 * its start queued at `later`, or (no `later`) to `sending` with its recipients taken. Answers the
 * row as it now is, or null when the mailing was no longer a draft or scheduled (someone else
 * sent or cancelled it first).
 */
export async function startSending(t: Queryable, db: Db, m: MailingRow, now: Date, later: string | null): Promise<MailingRow | null> {
  const at = now.toISOString();
  const [after] = await t
    .update(mailings)
    .set(later ? { status: "scheduled", send_at: later, updated_at: at } : { status: "sending", updated_at: at })
    .where(and(eq(mailings.id, m.id), inArray(mailings.status, ["draft", "scheduled"])))
    .returning();
  if (!after) return null;
  if (later) await enqueueJob(t, { clubId: m.club_id, kind: MAILING_START, payload: { mailing_id: m.id }, runAfter: later });
  else await takeRecipients(t, db, after, at);
  return after;
}

/** A scheduled mailing's start, at its `send_at` (one moved to later, sent or cancelled since: nothing to do). */
const startJob: JobKind = {
  orderKey: (job) => `${MAILING_SEND}:${(job.payload as { mailing_id: string }).mailing_id}`,
  run: async (db, job, env) => {
    const id = (job.payload as { mailing_id: string }).mailing_id;
    await db.tx(async (t) => {
      const [m] = await t.select().from(mailings).where(eq(mailings.id, id)).limit(1);
      const due = m?.status === "scheduled" && (m.send_at ?? "") <= env.now.toISOString();
      const started = due ? await startSending(t, db, m, env.now, null) : null;
      await completeJobIn(t, job, started ? "started" : "not due");
    });
    return RECORDED;
  },
};

/** The mailing's recipients due at `at`: pending, and past any retry time. */
const dueRecipients = (mailingId: string, at: string) =>
  and(
    eq(mailingRecipients.mailing_id, mailingId),
    eq(mailingRecipients.state, "pending"),
    or(isNull(mailingRecipients.retry_at), lte(mailingRecipients.retry_at, at)),
  );

type Claimed = { row: typeof mailingRecipients.$inferSelect; pageToken: string | null };

/**
 * Claims one due recipient of the mailing (pending, and past any retry time) for this run: a
 * conditional write, so two workers never hold the same one. A member's page link is made here
 * when the mail carries it (a new token ends the previous link, as a reminder's does).
 */
async function claimRecipient(db: Db, mailingId: string, now: Date, withPage: boolean): Promise<Claimed | "none" | "lost"> {
  const at = now.toISOString();
  return db.tx(async (t) => {
    const [free] = await skipLocked(t.select({ id: mailingRecipients.id }).from(mailingRecipients).where(dueRecipients(mailingId, at)).limit(1));
    if (!free) return "none" as const;
    const [row] = await t
      .update(mailingRecipients)
      .set({
        state: "sending",
        claim_token: newId(),
        claimed_until: new Date(now.getTime() + RECIPIENT_CLAIM_MS).toISOString(),
        attempts: sql`${mailingRecipients.attempts} + 1`,
      })
      .where(and(eq(mailingRecipients.id, free.id), eq(mailingRecipients.state, "pending")))
      .returning();
    if (!row) return "lost" as const;
    let pageToken: string | null = null;
    if (withPage) {
      const page = newManageToken();
      await t.update(members).set({ manage_token: page.hash }).where(eq(members.id, row.member_id));
      pageToken = page.token;
    }
    return { row, pageToken };
  });
}

type Outcome = { state: "sent" | "failed" | "bounced" | "skipped_opt_out" | "pending"; error?: string; email?: string; retryAt?: string };

/** Records a claimed recipient's outcome, under its claim's token (a claim given up meanwhile is still recorded truly). */
async function record(db: Db, c: Claimed["row"], outcome: Outcome, now: Date): Promise<void> {
  const at = now.toISOString();
  await db.tx(async (t) => {
    await t
      .update(mailingRecipients)
      .set({
        state: outcome.state,
        error: outcome.error ?? null,
        email: outcome.email ?? c.email,
        sent_at: outcome.state === "sent" ? at : null,
        retry_at: outcome.retryAt ?? null,
        claimed_until: null,
      })
      .where(and(eq(mailingRecipients.id, c.id), eq(mailingRecipients.claim_token, c.claim_token as string)));
    // The address is marked while it is the member's: a member whose email changed meanwhile is not.
    if (outcome.state === "bounced" && outcome.email)
      await t
        .update(members)
        .set({ email_bounced_at: at, email_bounced_address: outcome.email })
        .where(and(eq(members.id, c.member_id), eq(members.email, outcome.email)));
  });
}

/** The SMTP reply code of a refused mail (nodemailer's `responseCode`), if the server answered one. */
const smtpCode = (err: unknown): number | null => {
  const code = (err as { responseCode?: unknown })?.responseCode;
  return typeof code === "number" ? code : null;
};

/** Mails one claimed recipient and says how it went. The member as they are now: their address, their "no". */
async function deliver(
  db: Db,
  env: JobEnv,
  c: Claimed,
  build: (m: MemberRow, pageToken: string, unsubscribe: string) => MailMessage,
  now: Date,
): Promise<Outcome> {
  const [m] = await db.read.select().from(members).where(eq(members.id, c.row.member_id)).limit(1);
  if (!m) return { state: "failed", error: "the member was erased" };
  if (m.mailing_opt_out_at) return { state: "skipped_opt_out", email: m.email };
  if (bouncedNow(m)) return { state: "bounced", email: m.email, error: `skipped: the address bounced on ${m.email_bounced_at?.slice(0, 10)}` };
  const message = build(m, c.pageToken ?? PREVIEW_PAGE_TOKEN, unsubscribeUrl(env.config.baseUrl, c.row.unsubscribe_token));
  try {
    await sendMail({ smtpUrl: env.config.smtpUrl, outboxDir: env.config.outboxDir }, message);
    return { state: "sent", email: m.email };
  } catch (err) {
    const code = smtpCode(err);
    const error = (err instanceof Error ? err.message : String(err)).slice(0, 300);
    if (code !== null && code >= 500) return { state: "bounced", email: m.email, error };
    const wait = RETRY_DELAYS_MS[c.row.attempts - 1];
    if (wait === undefined) return { state: "failed", email: m.email, error };
    return { state: "pending", email: m.email, error, retryAt: new Date(now.getTime() + wait).toISOString() };
  }
}

/** Recipients claimed by a run that never recorded them (its process died): failed, not mailed again. */
async function giveUpLapsedClaims(db: Db, mailingId: string, now: Date): Promise<void> {
  await db.tx((t) =>
    t
      .update(mailingRecipients)
      .set({ state: "failed", error: "interrupted while sending: not sent again, so as never to send twice", claimed_until: null })
      .where(and(eq(mailingRecipients.mailing_id, mailingId), eq(mailingRecipients.state, "sending"), lt(mailingRecipients.claimed_until, now.toISOString()))),
  );
}

/**
 * When the next run should be, inside `t`: at the pace's next slot while recipients are due; at
 * the first retry or claim deadline while some wait; null when every recipient is done.
 */
async function nextRun(t: Queryable, mailingId: string, now: Date, paced: Date): Promise<string | null> {
  const at = now.toISOString();
  const [due] = await t.select({ id: mailingRecipients.id }).from(mailingRecipients).where(dueRecipients(mailingId, at)).limit(1);
  if (due) return new Date(Math.max(paced.getTime(), now.getTime())).toISOString();
  const [waiting] = await t
    .select({ retry: min(mailingRecipients.retry_at), claim: min(mailingRecipients.claimed_until) })
    .from(mailingRecipients)
    .where(and(eq(mailingRecipients.mailing_id, mailingId), inArray(mailingRecipients.state, ["pending", "sending"])));
  const times = [waiting?.retry, waiting?.claim].filter((x): x is string => !!x).sort();
  if (times.length) return times[0];
  return null;
}

/** Ends a mailing whose recipients are all done, inside `t` (once: a conditional write), with `mailing.sent`. */
async function finish(db: Db, t: Queryable, mailingId: string, at: string): Promise<boolean> {
  const [done] = await t
    .update(mailings)
    .set({ status: "sent", sent_at: at, updated_at: at })
    .where(and(eq(mailings.id, mailingId), eq(mailings.status, "sending")))
    .returning();
  if (!done) return false;
  await emit(db, t, done.club_id, "mailing.sent", async () => toMailing(done, (await countsOf(t, [done.id])).get(done.id) as never));
  return true;
}

/** One run of a mailing's chain: up to ten seconds' worth of mails at the pace, then the next run (or the end). */
async function runSend(db: Db, job: JobRow, env: JobEnv): Promise<typeof RECORDED> {
  const id = (job.payload as { mailing_id: string }).mailing_id;
  const startedAt = Date.now();
  // The job's clock moves on as the run takes time (a test's frozen clock too).
  const clock = () => new Date(env.now.getTime() + (Date.now() - startedAt));
  const [m] = await db.read.select().from(mailings).where(eq(mailings.id, id)).limit(1);
  if (m?.status !== "sending") {
    await db.tx((t) => completeJobIn(t, job, "not sending"));
    return RECORDED;
  }
  const club = await getClubRow(db, m.club_id);
  const look = clubMailLook(env.config.baseUrl, club);
  const template = await mailingTemplate(look, m);
  const mailto = unsubscribeMailto(look);
  const withPage = usesField(`${m.subject}\n${m.body_markdown}`, "member_page_url");
  const build = (member: MemberRow, pageToken: string, url: string) =>
    personalMail(look, template, member.email, mergeValues(env.config.baseUrl, look.locale, member, pageToken), { url, mailto });
  const pace = mailPace(env.config.mailRatePerMinute);
  const chunk = pace.slice;
  await giveUpLapsedClaims(db, id, clock());
  let mailed = 0;
  let lost = 0;
  while (mailed < chunk && lost < 10) {
    const claimed = await claimRecipient(db, id, clock(), withPage);
    if (claimed === "none") break;
    if (claimed === "lost") {
      lost++;
      continue;
    }
    mailed++;
    await record(db, claimed.row, await deliver(db, env, claimed, build, clock()), clock());
  }
  const paced = new Date(env.now.getTime() + pace.msFor(mailed));
  await db.tx(async (t) => {
    const now = clock();
    const next = await nextRun(t, id, now, paced);
    if (next) await enqueueJob(t, { clubId: m.club_id, kind: MAILING_SEND, payload: { mailing_id: id }, runAfter: next });
    else await finish(db, t, id, now.toISOString());
    await completeJobIn(t, job, `${mailed} mailed${next ? `, next at ${next}` : ", done"}`);
  });
  return RECORDED;
}

const sendJob: JobKind = {
  // One mailing's runs one after the other in a process; other processes are kept apart by the claims.
  orderKey: (job) => `${MAILING_SEND}:${(job.payload as { mailing_id: string }).mailing_id}`,
  run: runSend,
};

export const MAILING_JOBS: JobKinds = { [MAILING_START]: startJob, [MAILING_SEND]: sendJob };
