// Message lookup in the club's language (`locale`, default `fr`), and the language of a caller
// not yet known (401) from Accept-Language (DESIGN.md section 5).
import { z } from "zod";
import { LOCALES, type Locale, MESSAGES, type MessageCode } from "./messages";

/** The values a message's `{name}` placeholders take. */
export type Params = Record<string, string | number>;

export { LOCALES, type Locale, type MessageCode };

export const DEFAULT_LOCALE: Locale = "fr";

export function asLocale(value: unknown): Locale {
  return LOCALES.includes(value as Locale) ? (value as Locale) : DEFAULT_LOCALE;
}

/**
 * A refusal names the state it found (`{status}`) in the reader's words: the API's value
 * (`sending`) is for programs, which read the code; a person reads "en cours d'envoi".
 */
const STATUS_WORDS: Record<Locale, Record<string, string>> = {
  fr: {
    draft: "brouillon",
    scheduled: "programmé",
    sending: "en cours d'envoi",
    sent: "envoyé",
    cancelled: "annulé",
    confirmed: "confirmée",
    pending: "en attente",
    waitlisted: "en liste d'attente",
  },
  en: {
    draft: "draft",
    scheduled: "scheduled",
    sending: "sending",
    sent: "sent",
    cancelled: "cancelled",
    confirmed: "confirmed",
    pending: "pending",
    waitlisted: "waitlisted",
  },
  de: {
    draft: "Entwurf",
    scheduled: "geplant",
    sending: "im Versand",
    sent: "versandt",
    cancelled: "abgebrochen",
    confirmed: "bestätigt",
    pending: "ausstehend",
    waitlisted: "auf der Warteliste",
  },
  it: {
    draft: "bozza",
    scheduled: "programmato",
    sending: "in invio",
    sent: "inviato",
    cancelled: "annullato",
    confirmed: "confermata",
    pending: "in attesa",
    waitlisted: "in lista d'attesa",
  },
};

export function t(locale: Locale, code: MessageCode, params: Params = {}): string {
  const texts = (MESSAGES as Record<string, Record<Locale, string>>)[code] ?? MESSAGES.INTERNAL;
  return texts[locale].replace(/\{(\w+)\}/g, (m, k: string) => {
    if (!(k in params)) return m;
    const value = String(params[k]);
    return k === "status" && Object.hasOwn(STATUS_WORDS[locale], value) ? STATUS_WORDS[locale][value] : value;
  });
}

/** "Label: value" as the language writes it: French puts a space before the colon, the others none. */
export function labelled(locale: Locale, label: string, value: string): string {
  return locale === "fr" ? `${label} : ${value}` : `${label}: ${value}`;
}

/** The first supported language of an Accept-Language header, else the default. */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale {
  if (!header) return DEFAULT_LOCALE;
  const ranked = header
    .split(",")
    .map((part) => {
      const [tag, ...rest] = part.trim().split(";");
      const q = rest.find((p) => p.trim().startsWith("q="));
      return { lang: tag.trim().slice(0, 2).toLowerCase(), q: q ? Number(q.trim().slice(2)) || 0 : 1 };
    })
    .sort((a, b) => b.q - a.q);
  for (const { lang } of ranked) if (LOCALES.includes(lang as Locale)) return lang as Locale;
  return DEFAULT_LOCALE;
}

/** zod's own messages in each language, for schema failures. */
const zodLocales = { fr: z.locales.fr(), en: z.locales.en(), de: z.locales.de(), it: z.locales.it() };
export function zodErrorMap(locale: Locale) {
  return zodLocales[locale].localeError;
}
