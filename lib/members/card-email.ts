// The card email (SPEC "States and transitions": always sent, even again; card_email_sent_at
// updated). The message goes out first, outside any transaction; only a successful send sets
// card_email_sent_at (with a history row). A failed send is a 502 and changes nothing.
import { and, eq } from "drizzle-orm";
import { members } from "../../db/schema";
import { verb } from "../context";
import type { Ctx } from "../context";
import { BadGateway } from "../errors";
import { asLocale } from "../i18n";
import { nowIso } from "../ids";
import { clubSender, sendMail } from "../mail";
import { webCardUrl } from "../passes";
import { qrPng } from "../qr";
import { getMemberRow, writeHistory } from "./internal";
import { clubSettings } from "../clubs/internal";
import { CARD_EMAIL_TEXTS } from "../i18n/texts";

const QR_CID = "member-card-qr@club";

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const fill = (s: string, p: Record<string, string>) => s.replace(/\{(\w+)\}/g, (m, k: string) => p[k] ?? m);

/** Sends the member's card email (web card link and QR code) in the club's language. */
export const sendCardEmail = verb("communication:edit", async (ctx: Ctx, input: { member_id: string }) => {
  const member = await getMemberRow(ctx.db.read, ctx.clubId, input.member_id);
  const club = await clubSettings(ctx.db.read, ctx.clubId);
  const name = club.name;
  const text = CARD_EMAIL_TEXTS[asLocale(club.locale)];
  const url = webCardUrl(ctx, member.pass_serial_number);
  const p = { club: name, first: member.first_name, code: member.referral_code };
  // The QR code carries the referral code, like the wallet pass (SPEC "Member").
  const qr = await qrPng(member.referral_code, 320);
  try {
    await sendMail(ctx.mail, {
      ...clubSender(ctx.baseUrl, club),
      to: member.email,
      subject: fill(text.subject, p),
      text: [fill(text.hello, p), "", fill(text.intro, p), `${text.open}: ${url}`, "", fill(text.qr, p), "", text.bye, name].join("\n"),
      html: `<p>${esc(fill(text.hello, p))}</p><p>${esc(fill(text.intro, p))}</p><p><a href="${esc(url)}">${esc(text.open)}</a></p><p><img src="cid:${QR_CID}" alt="QR ${esc(member.referral_code)}" width="240" height="240"></p><p>${esc(fill(text.qr, p))}</p><p>${esc(text.bye)}<br>${esc(name)}</p>`,
      attachments: [{ filename: "carte-qr.png", content: qr, contentType: "image/png", cid: QR_CID }],
    });
  } catch (err) {
    throw new BadGateway("CARD_EMAIL_FAILED", { reason: err instanceof Error ? err.message.slice(0, 300) : "unknown" });
  }
  const sentAt = nowIso();
  await ctx.db.tx(async (t) => {
    const [after] = await t
      .update(members)
      .set({ card_email_sent_at: sentAt, updated_at: sentAt })
      .where(and(eq(members.club_id, ctx.clubId), eq(members.id, member.id)))
      .returning();
    if (after) await writeHistory(t, ctx, { memberId: member.id, action: "card_email_sent", from: member, to: after, details: { to: member.email } });
  });
  return { sent: true as const, to: member.email, card_email_sent_at: sentAt, web_card_url: url };
});
