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

// Formatters kept per language (and currency): building one costs more than the rest of a
// receipt's text, and a statement import writes a receipt per line.
const moneyFormats = new Map<string, Intl.NumberFormat>();
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** `cents` of `currency` as the language writes money ("CHF 25.00", "25,00 €"). */
export function mailMoney(cents: number, currency: string, locale: Locale): string {
  const key = `${locale}|${currency}`;
  let f = moneyFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { style: "currency", currency });
    // Currencies are a club's few, checked ISO codes; the bound stays in case one is not.
    if (moneyFormats.size < 200) moneyFormats.set(key, f);
  }
  return f.format(cents / 100);
}

/** A day (YYYY-MM-DD, or the day of an ISO date-time) as the language writes it, in UTC. */
export function mailDay(iso: string, locale: Locale): string {
  let f = dayFormats.get(locale);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" });
    dayFormats.set(locale, f);
  }
  return f.format(new Date(`${iso.slice(0, 10)}T00:00:00Z`));
}
