// The reminder scheduler (DESIGN.md section 14): renewal reminders before the end of a
// membership, the expiry notice once it has ended (after the grace period), and event reminders
// the day before an event. Each reminder goes out at most once per subject (member or
// registration), kind and period: a `reminders_sent` row, unique on the three, is written in the
// same transaction as the mail job, so a run repeated, run twice at once (the server and the
// CLI), or killed half-way sends nothing twice. The server runs it hourly as a job that queues its
// own next run (`remindersSchedule`); the CLI runs it as of any day (`reminders run --date`).
// A member's page is known by its token's hash only, so a renewal or expiry mail carries a new
// token, stored in the transaction that queues it: the member's newest mail always has a working
// link (the links of earlier mails stop working). With the club's `renewal_invoices`, a renewal
// reminder carries the member's membership invoice for the coming period, made by the first one
// (lib/dues/run) and attached as a PDF when the mail goes out (lib/invoices/send).
import { and, asc, eq, gte, inArray, isNotNull, lt, lte, ne, or, type SQL } from "drizzle-orm";
import type { Db, Queryable } from "../../db";
import { eventRegistrations, events, invoices, members, remindersSent } from "../../db/schema";
import { clubCardView, formatDate } from "../cards/view";
import { allClubIds, type ClubRow, getClubRow } from "../clubs/internal";
import { INVOICE_TEXTS } from "../i18n/invoices";
import { REMINDER_MAIL_TEXTS } from "../i18n/reminders";
import { createPeriodInvoices, type DuesMember, periodStartOf } from "../dues/run";
import { invoiceMailParams, queueInvoiceMail } from "../invoices/send";
import { newId, nowIso } from "../ids";
import { newManageToken } from "../members/internal";
import { recurringJob } from "../jobs";
import { clubSender, type MailMessage, mailPace, queueMail } from "../mail";
import { brandedBody, fillText, type MailBrand } from "../mail/layout";
import { addDays, memberPageUrl } from "../members/internal";
import { statusDay, todayUtc } from "../members/status";

export const REMINDER_KINDS = ["renewal", "expiry", "event"] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];
export type ReminderRun = { sent: number; by_kind: Record<ReminderKind, number> };
/** A run given a `limit` that reached it: some of what it found may be due still (the next run sends it). */
export type LimitedRun = ReminderRun & { more?: true };

/**
 * Days an expiry notice is still sent after the member's first expired day (a scheduler that was
 * down catches up); beyond, none: a member who left long ago is not told again.
 */
export const EXPIRY_CATCH_UP_DAYS = 7;
/** Reminders written per transaction: a big club's run does not hold the writer for long. */
const CHUNK = 200;

/**
 * One reminder due: the rows that mark it sent (the first names this reminder) and its mail,
 * given the address of the member's page when it links there (a new token, made at sending).
 */
type Due = {
  kind: ReminderKind;
  subjectId: string;
  periods: string[];
  linksPage: boolean;
  /** A renewal of a club with `renewal_invoices`: the member, whose membership invoice goes with it. */
  invoiceFor?: DuesMember;
  /** The mail; `after`: paragraphs after its text (the invoice attached). */
  message: (pageUrl: string, after?: string[]) => Omit<MailMessage, "attachments">;
};

const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** The club's name, colours and logo as a mail shows them (the card's, so they read the same). */
function brandOf(club: ClubRow): { brand: MailBrand; locale: ReturnType<typeof clubCardView>["locale"]; country: string | null } {
  const view = clubCardView(club);
  const { primary, onPrimary, secondary, onSecondary } = view.colors;
  return { brand: { name: view.clubName, primary, onPrimary, secondary, onSecondary, logoUrl: view.logoUrl }, locale: view.locale, country: view.country };
}

/** `when`: the event's start, `2030-06-20 18:00 UTC` (dates are stored in UTC; the club has no time zone yet). */
const startsText = (day: string, iso: string, locale: Parameters<typeof formatDate>[1], country: unknown) =>
  `${formatDate(day, locale, country)}, ${iso.slice(11, 16)} UTC`;

/** The club's paid members that `where` keeps, nearest end first. */
function paidMembers(db: Db, clubId: string, ...where: (SQL | undefined)[]) {
  return db.read
    .select({
      id: members.id,
      first: members.first_name,
      last: members.last_name,
      email: members.email,
      end: members.membership_end,
      tier_id: members.tier_id,
      amount_due_cents: members.amount_due_cents,
      referral_credit_cents: members.referral_credit_cents,
    })
    .from(members)
    .where(and(eq(members.club_id, clubId), eq(members.payment_status, "paid"), ...where))
    .orderBy(asc(members.membership_end), asc(members.id));
}

async function dueFor(db: Db, club: ClubRow, today: string, baseUrl: string): Promise<Due[]> {
  const { brand, locale, country } = brandOf(club);
  const tx = REMINDER_MAIL_TEXTS[locale];
  const sender = clubSender(baseUrl, club);
  const due: Due[] = [];
  const mail = (to: string, subject: string, body: ReturnType<typeof brandedBody>) => ({ ...sender, to, subject, ...body });

  // Renewal: paid members whose end is still ahead (or today), not renewed by a running subscription.
  const days = [...new Set(club.renewal_reminder_days ?? [])].filter((n) => Number.isInteger(n) && n >= 1 && n <= 365);
  if (days.length) {
    const rows = await paidMembers(
      db,
      club.id,
      gte(members.membership_end, today),
      lte(members.membership_end, addDays(today, Math.max(...days))),
      or(ne(members.payment_mode, "subscription"), isNotNull(members.renewal_opt_out_at)),
    );
    for (const m of rows) {
      // Every reminder day already reached; the nearest one is this reminder, the others are
      // marked with it (a missed day is caught up once, not once per day missed).
      const reached = days.filter((n) => addDays(m.end, -n) <= today).sort((a, b) => a - b);
      if (!reached.length) continue;
      const left = daysBetween(today, m.end);
      const p = { first: m.first, club: brand.name, date: formatDate(m.end, locale, country), days: String(left) };
      due.push({
        kind: "renewal",
        subjectId: m.id,
        periods: reached.map((n) => `${m.end}:${n}`),
        linksPage: true,
        invoiceFor: club.renewal_invoices
          ? {
              id: m.id,
              first_name: m.first,
              last_name: m.last,
              membership_end: m.end,
              tier_id: m.tier_id,
              amount_due_cents: m.amount_due_cents,
              referral_credit_cents: m.referral_credit_cents,
            }
          : undefined,
        message: (url, after = []) =>
          mail(
            m.email,
            fillText(tx.renewal.subject, p),
            brandedBody(brand, {
              paragraphs: [fillText(tx.hello, p), fillText(left === 0 ? tx.renewal.lastDay : tx.renewal.body, p), ...after],
              action: { label: tx.renewal.action, url },
              bye: tx.bye,
            }),
          ),
      });
    }
  }

  // Expiry: paid members on their first expired day (grace period past), or a few days later.
  if (club.expiry_notice) {
    const lastActive = statusDay(today, club.grace_period_days);
    const rows = await paidMembers(
      db,
      club.id,
      lt(members.membership_end, lastActive),
      gte(members.membership_end, addDays(lastActive, -1 - EXPIRY_CATCH_UP_DAYS)),
    );
    for (const m of rows) {
      const p = { first: m.first, club: brand.name, date: formatDate(m.end, locale, country) };
      due.push({
        kind: "expiry",
        subjectId: m.id,
        periods: [m.end],
        linksPage: true,
        message: (url) =>
          mail(
            m.email,
            fillText(tx.expiry.subject, p),
            brandedBody(brand, {
              paragraphs: [fillText(tx.hello, p), fillText(tx.expiry.body, p)],
              action: { label: tx.expiry.action, url },
              bye: tx.bye,
            }),
          ),
      });
    }
  }

  // Events starting tomorrow (UTC): their confirmed registrants with an address.
  const tomorrow = addDays(today, 1);
  const evs = await db.read
    .select()
    .from(events)
    .where(
      and(
        eq(events.club_id, club.id),
        eq(events.status, "published"),
        eq(events.reminder_enabled, true),
        gte(events.starts_at, `${tomorrow}T00:00:00`),
        lt(events.starts_at, `${addDays(tomorrow, 1)}T00:00:00`),
      ),
    );
  if (evs.length) {
    const regs = await db.read
      .select()
      .from(eventRegistrations)
      .where(
        and(
          inArray(
            eventRegistrations.event_id,
            evs.map((e) => e.id),
          ),
          eq(eventRegistrations.status, "confirmed"),
          isNotNull(eventRegistrations.email),
        ),
      )
      .orderBy(asc(eventRegistrations.created_at), asc(eventRegistrations.id));
    const byId = new Map(evs.map((e) => [e.id, e]));
    for (const r of regs) {
      const e = byId.get(r.event_id);
      const email = r.email;
      if (!e || !email) continue;
      const p = {
        first: r.first_name,
        club: brand.name,
        event: e.title,
        when: startsText(tomorrow, e.starts_at, locale, country),
        place: [e.location_name, e.location_address].filter(Boolean).join(", "),
        code: r.qr_token,
      };
      due.push({
        kind: "event",
        subjectId: r.id,
        periods: [e.starts_at.slice(0, 10)],
        linksPage: false,
        message: () =>
          mail(
            email,
            fillText(tx.event.subject, p),
            brandedBody(brand, {
              paragraphs: [fillText(tx.hello, p), fillText(tx.event.body, p), ...(p.place ? [fillText(tx.event.place, p)] : []), fillText(tx.event.code, p)],
              action: { label: tx.event.action, url: `${baseUrl}/api/public/registrations/${r.qr_token}/ics` },
              bye: tx.bye,
            }),
          ),
      });
    }
  }
  return due;
}

/**
 * The membership invoice a renewal reminder carries (`renewal_invoices`, DESIGN.md section 20),
 * inside the reminder's transaction `t`: made with the reminder that first finds none for the
 * period (the dues run's own making, lib/dues/run), else the open one already made for it
 * (a later reminder, or the dues run's). None when the member has nothing to pay, or an open
 * membership invoice of no period (made by hand).
 */
async function renewalInvoice(t: Queryable, db: Db, input: { baseUrl: string; today: string }, club: ClubRow, m: DuesMember) {
  const { created } = await createPeriodInvoices(t, { db, baseUrl: input.baseUrl }, club, [m], input.today);
  const [row] = created.length
    ? created
    : await t
        .select()
        .from(invoices)
        .where(and(eq(invoices.club_id, club.id), eq(invoices.member_id, m.id), eq(invoices.period_start, periodStartOf(m)), eq(invoices.status, "open")))
        .limit(1);
  if (!row) return null;
  const { locale, params } = invoiceMailParams(club, input.baseUrl, { first_name: m.first_name, email: "" }, row);
  return { row, paragraph: fillText(INVOICE_TEXTS[locale].dues.attached, params) };
}

/**
 * Sends every reminder due on `today` (a `YYYY-MM-DD` UTC day: the frozen clock of tests and of
 * the CLI's --date) for one club or all, and says how many it queued. Each reminder is queued at
 * most once, ever: running again (or at the same time elsewhere) queues nothing new. With
 * `limit`, it stops once it has queued that many (`more`: run it again for the rest).
 */
export async function runReminders(db: Db, input: { baseUrl: string; today: string; clubId?: string; limit?: number }): Promise<LimitedRun> {
  const run: LimitedRun = { sent: 0, by_kind: { renewal: 0, expiry: 0, event: 0 } };
  const limit = input.limit ?? Number.POSITIVE_INFINITY;
  const clubIds = input.clubId ? [input.clubId] : await allClubIds(db);
  for (const clubId of clubIds) {
    const club = await getClubRow(db, clubId);
    const due = await dueFor(db, club, input.today, input.baseUrl);
    for (let i = 0; i < due.length && !run.more; i += CHUNK) {
      await db.tx(async (t) => {
        const now = nowIso();
        for (const d of due.slice(i, i + CHUNK)) {
          if (run.sent >= limit) {
            run.more = true;
            break;
          }
          const marked = await t
            .insert(remindersSent)
            .values(d.periods.map((period) => ({ id: newId(), club_id: clubId, subject_id: d.subjectId, kind: d.kind, period, created_at: now })))
            .onConflictDoNothing()
            .returning({ period: remindersSent.period });
          // Sent before (the reminder's own row was there): nothing to do.
          if (!marked.some((r) => r.period === d.periods[0])) continue;
          let pageUrl = "";
          if (d.linksPage) {
            const page = newManageToken();
            await t.update(members).set({ manage_token: page.hash }).where(eq(members.id, d.subjectId));
            pageUrl = memberPageUrl(input.baseUrl, page.token);
          }
          const invoice = d.invoiceFor ? await renewalInvoice(t, db, input, club, d.invoiceFor) : null;
          if (invoice) await queueInvoiceMail(t, clubId, invoice.row.id, d.message(pageUrl, [invoice.paragraph]));
          else await queueMail(t, clubId, d.message(pageUrl));
          run.sent++;
          run.by_kind[d.kind]++;
        }
      });
    }
    if (run.more) break;
  }
  return run;
}

// ---- the server's schedule ----

export const REMINDERS_RUN = "reminders_run";
/** How often the server looks for reminders due. Hourly: a day missed is caught up within the hour. */
export const REMINDER_INTERVAL_MS = 60 * 60 * 1000;

/**
 * A run of every club's reminders as of the job's clock, hourly (the server ensures it at start).
 * Many due at once (a first start, a day the server was down) go out at the mail pace of a
 * mailing (MAIL_RATE_PER_MINUTE): each run queues some ten seconds' worth, and the next run comes
 * once they have gone, not an hour later. A mail server is not sent hundreds of messages in a
 * second, and the server does not build them all at once.
 */
export const remindersSchedule = recurringJob(REMINDERS_RUN, REMINDER_INTERVAL_MS, async (db, env) => {
  const pace = mailPace(env.config.mailRatePerMinute);
  const result = await runReminders(db, { baseUrl: env.config.baseUrl, today: todayUtc(env.now), limit: pace.slice });
  const outcome = `sent ${result.sent} (renewal ${result.by_kind.renewal}, expiry ${result.by_kind.expiry}, event ${result.by_kind.event})`;
  return result.more ? { outcome: `${outcome}, more to send`, againInMs: pace.msFor(result.sent) } : outcome;
});
