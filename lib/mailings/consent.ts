// The member's "no" to mailings through the link every mailing carries (DESIGN.md section 22,
// RFC 8058): /u/<token>, the token of one recipient row (random, unguessable), no key or session.
// A GET shows one button, so that a mail scanner following links unsubscribes nobody; the POST
// (the button, or the mail client's one-click `List-Unsubscribe=One-Click`) sets the member's
// mailing_opt_out_at, once (later POSTs change nothing). Only mailings stop: the card, receipts,
// invoices, reminders and event mails do not look at it. The member's page turns it back on.
import { and, eq, isNull } from "drizzle-orm";
import type { Queryable } from "../../db";
import { clubs, mailingRecipients, members } from "../../db/schema";
import { privatePageHeaders } from "../cards/web";
import type { PublicCtx } from "../context";
import { NotFound } from "../errors";
import { asLocale, type Locale } from "../i18n";
import { MAILING_TEXTS } from "../i18n/mailings";
import { escapeHtml, htmlReply, messagePage, postForm } from "../html/layout";
import { nowIso } from "../ids";
import { memberAuthor, writeHistory } from "../members/internal";
import type { FileReply } from "../reply";
import { fillText } from "../mail/layout";

/** The rate of the unsubscribe link, per client address (as the member's page). */
export const UNSUBSCRIBE_RATE = { scope: "unsubscribe", perMinute: 20 } as const;

type Found = { memberId: string; clubId: string; clubName: string; locale: Locale };

/** The member and club of an unsubscribe token; 404 UNSUBSCRIBE_LINK_UNKNOWN (an erased member's too). */
async function holderOf(q: Queryable, token: string): Promise<Found> {
  const [row] =
    token.length >= 20 && token.length <= 100
      ? await q
          .select({ memberId: members.id, clubId: clubs.id, clubName: clubs.name, locale: clubs.locale })
          .from(mailingRecipients)
          .innerJoin(members, and(eq(members.id, mailingRecipients.member_id), eq(members.club_id, mailingRecipients.club_id)))
          .innerJoin(clubs, eq(clubs.id, members.club_id))
          .where(eq(mailingRecipients.unsubscribe_token, token))
          .limit(1)
      : [];
  if (!row) throw new NotFound("UNSUBSCRIBE_LINK_UNKNOWN");
  return { ...row, locale: asLocale(row.locale) };
}

/** Opts the token's member out of mailings (once; again: nothing changes). Answers whether this call did it. */
export async function unsubscribe(ctx: PublicCtx, token: string): Promise<{ opted_out: true; changed: boolean; found: Found }> {
  return ctx.db.tx(async (t) => {
    const found = await holderOf(t, token);
    const now = nowIso();
    const [after] = await t
      .update(members)
      .set({ mailing_opt_out_at: now, updated_at: now })
      .where(and(eq(members.id, found.memberId), isNull(members.mailing_opt_out_at)))
      .returning();
    if (after) await writeHistory(ctx.db, t, memberAuthor(found.clubId), { memberId: found.memberId, action: "mailings_off", to: after });
    return { opted_out: true as const, changed: !!after, found };
  });
}

const HEADERS = privatePageHeaders("self");

/** The page of the link: GET asks (one button), POST opts out and says so. An unknown token: a 404 page. */
export async function unsubscribePage(ctx: PublicCtx, token: string, method: "GET" | "POST"): Promise<FileReply> {
  try {
    const found = method === "POST" ? (await unsubscribe(ctx, token)).found : await holderOf(ctx.db.read, token);
    const tx = MAILING_TEXTS[found.locale];
    const p = { club: found.clubName };
    if (method === "POST") return htmlReply(200, messagePage(found.locale, tx.doneTitle, fillText(tx.doneText, p)), HEADERS);
    const page = messagePage(found.locale, tx.pageTitle, fillText(tx.pageText, p)).replace(
      "</section>",
      `${postForm(`/u/${encodeURIComponent(token)}`, `<button type="submit">${escapeHtml(tx.pageButton)}</button>`)}</section>`,
    );
    return htmlReply(200, page, HEADERS);
  } catch (err) {
    if (!(err instanceof NotFound)) throw err;
    const tx = MAILING_TEXTS[ctx.locale];
    return htmlReply(404, messagePage(ctx.locale, tx.pageTitle, "404"), HEADERS);
  }
}
