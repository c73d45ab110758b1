// Dunning (DESIGN.md section 20): the reminders of an open invoice past its due date, in up to
// three levels, at the club's `dunning_days` after `due_on`. Each level raises `dunning_level`
// by a conditional write (`WHERE status = 'open' AND dunning_level = <the level before>`) that
// queues, in its transaction, the reminder mail (the PDF attached when it goes out) and
// `invoice.overdue`: whoever runs it (the hourly job, the CLI, two processes, a run cut short and
// repeated), a level is written once and so mailed once; a paid or cancelled invoice is never
// raised, and its queued mail is dropped if it became so before going out. The second level adds
// the club's `dunning_fee_cents` as a line (once: the write from level 1 to 2 happens once); the
// last may suspend the member (`suspend_after_dunning`).
import { and, asc, eq, lt, lte, sql } from "drizzle-orm";
import { type Db, type Queryable, withinTx } from "../../db";
import { lockRows } from "../../db/locks";
import { invoices, members } from "../../db/schema";
import { allClubIds, type ClubRow, getClubRow } from "../clubs/internal";
import { type Site, siteOf, systemCtx } from "../context";
import { addDays, todayUtc } from "../days";
import { asLocale } from "../i18n";
import { INVOICE_TEXTS } from "../i18n/invoices";
import { recurringJob } from "../jobs";
import { brandedBody, fillText } from "../mail/layout";
import { mailMoney } from "../mail/look";
import { suspendMember } from "../members";
import { emit } from "../webhooks/emit";
import { type InvoiceRow, toInvoice } from "../invoices";
import { invoiceMailParams, queueInvoiceMail } from "../invoices/send";

export type DunningRun = { reminded: number; by_level: { "1": number; "2": number; "3": number }; fees_added: number; suspended: number };

/** Invoices raised per transaction. */
const CHUNK = 50;

/** The club's levels: its `dunning_days`, ascending, at most 3 (as ClubUpdate keeps them). */
function levelsOf(club: ClubRow): number[] {
  const days = Array.isArray(club.dunning_days) ? club.dunning_days : [];
  return days.filter((d, i) => Number.isInteger(d) && d >= 1 && (i === 0 || d > days[i - 1])).slice(0, 3);
}

/**
 * Whether the next level of `row` is due on `today`: its day after due_on is reached, and (a
 * later level) as many days have passed since the last reminder as the club puts between the two
 * levels, so a run that catches up after a pause mails the first level now and the next in its time.
 */
function nextLevelDue(row: Pick<InvoiceRow, "due_on" | "dunning_level" | "last_reminded_at">, days: number[], today: string): boolean {
  const next = row.dunning_level + 1;
  if (next > days.length || today < addDays(row.due_on, days[next - 1])) return false;
  if (next === 1 || !row.last_reminded_at) return true;
  return today >= addDays(row.last_reminded_at.slice(0, 10), days[next - 1] - days[next - 2]);
}

/** The reminder of `after` (now at its new level) to `member`, without the PDF (the job attaches it). */
function reminderNote(
  club: ClubRow,
  baseUrl: string,
  member: { first_name: string; email: string },
  after: InvoiceRow,
  o: { last: boolean; fee: number; suspended: boolean },
) {
  const { locale, sender, brand, params } = invoiceMailParams(club, baseUrl, member, after);
  const tx = INVOICE_TEXTS[locale];
  const p = { ...params, fee: mailMoney(o.fee, after.currency, locale) };
  const subject = after.dunning_level === 1 ? tx.dunning.subject.first : o.last ? tx.dunning.subject.last : tx.dunning.subject.again;
  const paragraphs = [
    fillText(tx.mail.hello, p),
    fillText(tx.dunning.body, p),
    ...(o.fee ? [fillText(tx.dunning.fee, p)] : []),
    ...(o.suspended ? [tx.dunning.suspended] : []),
    tx.dunning.crossed,
  ];
  return { ...sender, to: member.email, subject: fillText(subject, p), ...brandedBody(brand, { paragraphs, bye: tx.mail.bye }) };
}

/**
 * Raises `row` to its next level inside `t`, if it is still open at the level read: the fee line
 * (second level), the reminder mail, `invoice.overdue`, and the member's suspension (last level,
 * when the club asks for it). Answers what it did, or null when another run (or a payment) came first.
 */
async function raiseLevel(t: Queryable, db: Db, site: Site, club: ClubRow, days: number[], row: InvoiceRow, stamp: string) {
  const next = row.dunning_level + 1;
  const last = next === days.length;
  const suspend = last && club.suspend_after_dunning;
  // The member's row before the invoice's, as mark-paid takes them (no two transactions wait on each other).
  if (suspend) await lockRows(t, members, members.id, row.member_id);
  const fee = next === 2 ? club.dunning_fee_cents : 0;
  const feeLine = { label: INVOICE_TEXTS[asLocale(club.locale)].dunning.feeLine, amount_cents: fee };
  const [after] = await t
    .update(invoices)
    .set({
      dunning_level: next,
      last_reminded_at: stamp,
      updated_at: stamp,
      ...(fee > 0 ? { lines: [...row.lines, feeLine], amount_cents: sql`${invoices.amount_cents} + ${fee}` } : {}),
    })
    .where(and(eq(invoices.id, row.id), eq(invoices.club_id, club.id), eq(invoices.status, "open"), eq(invoices.dunning_level, row.dunning_level)))
    .returning();
  if (!after) return null;
  const [member] = await t
    .select({ first_name: members.first_name, email: members.email, status: members.payment_status })
    .from(members)
    .where(and(eq(members.club_id, club.id), eq(members.id, row.member_id)))
    .limit(1);
  const suspended = suspend && !!member && member.status !== "suspended";
  if (suspended) {
    const ctx = systemCtx(withinTx(db, t), site, club.id, asLocale(club.locale), { members: "edit" });
    await suspendMember(ctx, { member_id: row.member_id, reason: `Invoice ${row.number} unpaid after the last reminder (dunning level ${next})` });
  }
  // An erased member has no address: the level is still recorded, nothing is mailed.
  if (member) await queueInvoiceMail(t, club.id, after.id, reminderNote(club, site.baseUrl, member, after, { last, fee, suspended }), { reminder: true });
  await emit(db, t, club.id, "invoice.overdue", () => toInvoice(after, site.baseUrl, stamp.slice(0, 10)));
  return { level: next, fee: fee > 0, suspended };
}

/**
 * Raises every open, overdue invoice whose next level is due on `today` (a `YYYY-MM-DD` UTC day:
 * the CLI's --date, the job's clock), of one club or all, one level per invoice per run. Each level
 * is written, and mailed, once ever: running again (or at the same time elsewhere) raises nothing
 * new. `last_reminded_at` is `today` at the run's time of day.
 */
export async function runDunning(db: Db, input: { site: Site; today: string; clubId?: string }): Promise<DunningRun> {
  const run: DunningRun = { reminded: 0, by_level: { "1": 0, "2": 0, "3": 0 }, fees_added: 0, suspended: 0 };
  const stamp = `${input.today}${new Date().toISOString().slice(10)}`;
  for (const clubId of input.clubId ? [input.clubId] : await allClubIds(db)) {
    const club = await getClubRow(db, clubId);
    const days = levelsOf(club);
    if (!days.length) continue;
    const due = (
      await db.read
        .select()
        .from(invoices)
        .where(
          and(
            eq(invoices.club_id, clubId),
            eq(invoices.status, "open"),
            lte(invoices.due_on, addDays(input.today, -days[0])),
            lt(invoices.dunning_level, days.length),
          ),
        )
        .orderBy(asc(invoices.due_on), asc(invoices.id))
    ).filter((row) => nextLevelDue(row, days, input.today));
    for (let i = 0; i < due.length; i += CHUNK) {
      const done = await db.tx(async (t) => {
        const out = [];
        for (const row of due.slice(i, i + CHUNK)) {
          const raised = await raiseLevel(t, db, input.site, club, days, row, stamp);
          if (raised) out.push(raised);
        }
        return out;
      });
      for (const d of done) {
        run.reminded++;
        run.by_level[String(d.level) as "1" | "2" | "3"]++;
        if (d.fee) run.fees_added++;
        if (d.suspended) run.suspended++;
      }
    }
  }
  return run;
}

// ---- the server's schedule ----

export const DUNNING_RUN = "dunning_run";

/** Every club's dunning as of the job's clock, hourly, like the renewal reminders (the server ensures it at start). */
export const dunningSchedule = recurringJob(DUNNING_RUN, 60 * 60 * 1000, async (db, env) => {
  const r = await runDunning(db, { site: siteOf(env.config), today: todayUtc(env.now) });
  return `reminded ${r.reminded} (level 1 ${r.by_level["1"]}, 2 ${r.by_level["2"]}, 3 ${r.by_level["3"]}), ${r.suspended} suspended`;
});
