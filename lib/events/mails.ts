// The mails an event sends its registrants, in the club's language: the event is cancelled, or a
// place freed up and a waiting-list registration moved up. Queued in the caller's transaction
// (lib/mail `queueMail`): a registrant is mailed if and only if the change commits.
import type { Queryable } from "../../db";
import type { ClubSettings } from "../clubs/internal";
import { asLocale } from "../i18n";
import { REGISTRATION_MAIL_TEXTS } from "../i18n/texts";
import { clubSender, queueMail } from "../mail";
import type { EventRow, RegistrationRow } from "./internal";

export type RegistrantMailKind = "cancelled" | "promotedConfirmed" | "promotedPending" | "expired";

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const fill = (s: string, p: Record<string, string>) => s.replace(/\{(\w+)\}/g, (m, k: string) => p[k] ?? m);
/** `2030-06-20 18:00 UTC`: dates are stored in UTC and the club has no time zone setting yet. */
const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency}`;

/** Queues one registrant's mail; a registration without an email address (added by an admin) gets none. */
export async function queueRegistrantMail(
  t: Queryable,
  input: { club: ClubSettings; baseUrl: string; event: EventRow; ticketName: string; reg: RegistrationRow; kind: RegistrantMailKind },
): Promise<boolean> {
  const { club, event, reg } = input;
  if (!reg.email) return false;
  const texts = REGISTRATION_MAIL_TEXTS[asLocale(club.locale)];
  const p = {
    first: reg.first_name,
    event: event.title,
    date: when(event.starts_at),
    ticket: input.ticketName,
    club: club.name,
    amount: money(reg.amount_cents, reg.currency),
    code: reg.qr_token,
  };
  const { subject, body } = texts[input.kind];
  const lines = [fill(texts.hello, p), fill(body, p), `${texts.bye}\n${club.name}`];
  await queueMail(t, club.id, {
    ...clubSender(input.baseUrl, club),
    to: reg.email,
    subject: fill(subject, p),
    text: lines.join("\n\n"),
    html: lines.map((l) => `<p>${esc(l).replace(/\n/g, "<br>")}</p>`).join(""),
  });
  return true;
}
