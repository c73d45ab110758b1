// How a club's mail looks and reads, whatever it says: its language, its sender, its colours and
// logo, and money and dates written as its language writes them. The join mails and the payment
// receipts draw from here.
import type { clubs } from "../../db/schema";
import { httpUrl } from "../clubs/schemas";
import { brandColors } from "../colors";
import { asLocale, type Locale } from "../i18n";
import { clubSender } from "./index";
import type { MailBrand } from "./layout";

export type ClubMailLook = { locale: Locale; sender: ReturnType<typeof clubSender>; brand: MailBrand };

/** The club's language, sender and colours for a mail. */
export function clubMailLook(baseUrl: string, club: typeof clubs.$inferSelect): ClubMailLook {
  return {
    locale: asLocale(club.locale),
    sender: clubSender(baseUrl, club),
    brand: { name: String(club.name ?? ""), ...brandColors(club), logoUrl: httpUrl(club.logo_url) },
  };
}

/** `cents` of `currency` as the language writes money ("CHF 25.00", "25,00 €"). */
export const mailMoney = (cents: number, currency: string, locale: Locale) =>
  new Intl.NumberFormat(locale, { style: "currency", currency }).format(cents / 100);

/** A day (YYYY-MM-DD, or the day of an ISO date-time) as the language writes it, in UTC. */
export const mailDay = (iso: string, locale: Locale) =>
  new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(new Date(`${iso.slice(0, 10)}T00:00:00Z`));
