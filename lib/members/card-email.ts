// The card email (SPEC "States and transitions": always sent, even again; card_email_sent_at
// updated). The message goes out first, outside any transaction; only a successful send sets
// card_email_sent_at (with a history row). A failed send is a 502 and changes nothing. A member
// who pays online gets it from a job queued with their payment (retried until the mail goes).
import { and, eq } from "drizzle-orm";
import { members } from "../../db/schema";
import type { Db, Queryable } from "../../db";
import { type Ctx, siteOf, verb } from "../context";
import { enqueueJob, type JobKind, type JobKinds, TemporaryFailure } from "../jobs";
import { BadGateway } from "../errors";
import { asLocale } from "../i18n";
import { nowIso } from "../ids";
import { clubSender, sendMail } from "../mail";
import { webCardUrl } from "../passes";
import { qrPng } from "../qr";
import { getMemberRow, type HistoryAuthor, type MemberRow, writeHistory } from "./internal";
import { clubSettings } from "../clubs/internal";
import { httpUrl } from "../clubs/schemas";
import { CARD_EMAIL_TEXTS } from "../i18n/texts";

const QR_CID = "member-card-qr@club";

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const fill = (s: string, p: Record<string, string>) => s.replace(/\{(\w+)\}/g, (m, k: string) => p[k] ?? m);

/** Sends the member's card email (web card link and QR code) in the club's language. */
export const sendCardEmail = verb("communication:edit", async function sendCardEmail(ctx: Ctx, input: { member_id: string }) {
  const member = await getMemberRow(ctx.db.read, ctx.clubId, input.member_id);
  return deliverCardEmail(ctx.db, ctx, member, ctx);
});

/** Sends `member` their card email, then notes it (card_email_sent_at, a history row by `author`); a failed send is a 502 and notes nothing. */
async function deliverCardEmail(db: Db, site: Pick<Ctx, "baseUrl" | "mail">, member: MemberRow, author: HistoryAuthor) {
  const club = await clubSettings(db.read, member.club_id);
  const name = club.name;
  const text = CARD_EMAIL_TEXTS[asLocale(club.locale)];
  const url = webCardUrl(site, member.pass_serial_number);
  const p = { club: name, first: member.first_name, code: member.referral_code };
  // The QR code carries the referral code, like the wallet pass (SPEC "Member").
  const qr = await qrPng(member.referral_code, 320);
  // Loaded from our own public address (lib/clubs/logo); a client that holds back images shows the name.
  const logo = httpUrl(club.logo_url);
  try {
    await sendMail(site.mail, {
      ...clubSender(site.baseUrl, club),
      to: member.email,
      subject: fill(text.subject, p),
      text: [fill(text.hello, p), "", fill(text.intro, p), `${text.open}: ${url}`, "", fill(text.qr, p), "", text.bye, name].join("\n"),
      html: `${logo ? `<p><img src="${esc(logo)}" alt="${esc(name)}" height="48" style="height:48px;width:auto;max-width:200px"></p>` : ""}<p>${esc(fill(text.hello, p))}</p><p>${esc(fill(text.intro, p))}</p><p><a href="${esc(url)}">${esc(text.open)}</a></p><p><img src="cid:${QR_CID}" alt="QR ${esc(member.referral_code)}" width="240" height="240"></p><p>${esc(fill(text.qr, p))}</p><p>${esc(text.bye)}<br>${esc(name)}</p>`,
      attachments: [{ filename: "carte-qr.png", content: qr, contentType: "image/png", cid: QR_CID }],
    });
  } catch (err) {
    throw new BadGateway("CARD_EMAIL_FAILED", { reason: err instanceof Error ? err.message.slice(0, 300) : "unknown" });
  }
  const sentAt = nowIso();
  await db.tx(async (t) => {
    const [after] = await t
      .update(members)
      .set({ card_email_sent_at: sentAt, updated_at: sentAt })
      .where(and(eq(members.club_id, member.club_id), eq(members.id, member.id)))
      .returning();
    if (after) await writeHistory(db, t, author, { memberId: member.id, action: "card_email_sent", from: member, to: after, details: { to: member.email } });
  });
  return { sent: true as const, to: member.email, card_email_sent_at: sentAt, web_card_url: url };
}

/** The job kind that sends a member their card once they have paid online (lib/stripe-events queues it with the payment). */
export const CARD_EMAIL_JOB = "member.card_email";

/** Queues, inside `t`, the card email of the member `memberId` (sent after the commit, retried while the mail server refuses). */
export async function queueCardEmail(t: Queryable, clubId: string, memberId: string): Promise<void> {
  await enqueueJob(t, { clubId, kind: CARD_EMAIL_JOB, payload: { member_id: memberId } });
}

const cardEmailJob: JobKind = {
  orderKey: (job) => `${CARD_EMAIL_JOB}:${job.id}`,
  run: async (db, job, env) => {
    const [member] = await db.read
      .select()
      .from(members)
      .where(and(eq(members.club_id, job.club_id), eq(members.id, String(job.payload.member_id))))
      .limit(1);
    // Erased meanwhile: nobody to write to.
    if (!member) return "member gone";
    const system: HistoryAuthor = { clubId: job.club_id, actor: { adminId: null, keyPrefix: null } };
    try {
      const sent = await deliverCardEmail(db, siteOf(env.config), member, system);
      return `sent to ${sent.to}`;
    } catch (err) {
      throw new TemporaryFailure(err instanceof Error ? err.message.slice(0, 300) : "mail failed");
    }
  },
};

export const CARD_EMAIL_JOBS: JobKinds = { [CARD_EMAIL_JOB]: cardEmailJob };
