// The mails of joining and paying (lib/join, lib/member-page; kept here, below both areas): the payment step after joining or
// renewing (the bank transfer details), the welcome, an application received, approved or turned
// down, the link sent to an address that is already a member's. Queued in the caller's
// transaction (lib/mail queueMail), in the club's language, with its colours.
import type { Queryable } from "../../db";
import type { ClubRow } from "../clubs/internal";
import { JOIN_MAIL_TEXTS } from "../i18n/join";
import { queueMail } from "../mail";
import { brandedBody, fillText } from "../mail/layout";
import { clubMailLook, mailMoney } from "../mail/look";
import type { BankTransfer } from "./schemas";
import { memberPageUrl } from "../members/internal";

/** How a club's mail looks, who it is from, and its texts. */
function mailOf(ctx: { baseUrl: string }, club: ClubRow) {
  const look = clubMailLook(ctx.baseUrl, club);
  return { ...look, tx: JOIN_MAIL_TEXTS[look.locale] };
}

export type JoinMail = "payment" | "renewalPayment" | "cardPayment" | "welcome" | "applied" | "alreadyMember" | "rejected";

/** Queues one of the join mails to `to` (`m`: whose name and page; `transfer`: the payment details). */
export async function queueJoinMail(
  t: Queryable,
  ctx: { baseUrl: string },
  club: ClubRow,
  kind: JoinMail,
  /** `pageToken`: the member's page token, the one they came with or a new one (the row keeps only its hash); none: the mail has no link. */
  to: { email: string; first_name: string; pageToken?: string },
  /** What is due; for a bank transfer, with the club's payout details and the reference. */
  transfer?: (Pick<BankTransfer, "amount_cents" | "currency"> & Partial<BankTransfer>) | null,
): Promise<void> {
  const { locale, tx, sender, brand } = mailOf(ctx, club);
  const mail = tx[kind];
  const p = {
    first: to.first_name,
    club: brand.name,
    amount: transfer ? mailMoney(transfer.amount_cents, transfer.currency, locale) : "",
    beneficiary: transfer?.beneficiary ?? "",
    iban: transfer?.iban ?? "",
    bic: transfer?.bic ?? "",
    reference: transfer?.reference ?? "",
  };
  // The payout details, the same lines after joining and after asking to renew.
  const details =
    (kind === "payment" || kind === "renewalPayment") && transfer
      ? tx.payment.details.filter((d) => !d.startsWith("BIC") || transfer.bic).map((d) => fillText(d, p))
      : [];
  const label = "action" in mail ? mail.action : null;
  await queueMail(t, club.id, {
    ...sender,
    to: to.email,
    subject: fillText(mail.subject, p),
    ...brandedBody(brand, {
      paragraphs: [fillText(tx.hello, p), fillText(mail.body, p), ...(details.length ? [details.join("\n")] : [])],
      action: label && to.pageToken ? { label, url: memberPageUrl(ctx.baseUrl, to.pageToken) } : undefined,
      bye: tx.bye,
    }),
  });
}
