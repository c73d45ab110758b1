// Figures and dates as the dashboard shows them, in the club's language: days as stored (UTC
// days), instants in the club's time zone, named beside them.
// The Intl formatters are made once per language and style: making one costs a fraction of a
// millisecond, and a page of 50 members made a hundred (most of the page's time).
import type { Locale } from "../lib/i18n";

const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function formatter<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => T): T {
  let f = formatters.get(key) as T | undefined;
  if (!f) {
    f = make();
    formatters.set(key, f);
  }
  return f;
}

export function money(cents: number, currency: string, locale: Locale): string {
  try {
    return formatter(`money:${locale}:${currency}`, () => new Intl.NumberFormat(locale, { style: "currency", currency })).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
}

/** A `YYYY-MM-DD` day, or the day of an ISO instant, short (24.11.2026, 11/24/2026...). */
export function day(value: string | null | undefined, locale: Locale): string {
  if (!value) return "";
  const date = new Date(`${value.slice(0, 10)}T00:00:00.000Z`);
  if (Number.isNaN(date.getTime())) return value;
  return formatter(`day:${locale}`, () => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" })).format(date);
}

/** A `YYYY-MM-DD` day without its year, short (7 sept., 7. Sept., Sep 7): under a chart's axis. */
export function dayMonth(value: string, locale: Locale): string {
  return formatter(`dayMonth:${locale}`, () => new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", timeZone: "UTC" })).format(
    new Date(`${value.slice(0, 10)}T00:00:00.000Z`),
  );
}

/** An ISO instant with its time, as the wall clock of `timeZone` (the club's) shows it; the zone is named by the label beside it (`zoned`). */
export function instant(value: string | null | undefined, locale: Locale, timeZone: string): string {
  if (!value) return "";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return formatter(`instant:${locale}:${timeZone}`, () => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone })).format(date);
}

/** A label (a column, a term, a sentence) with the time zone its times are in: "Début (Europe/Zurich)". */
export const zoned = (label: string, timeZone: string): string => `${label} (${timeZone})`;

/** `YYYY-MM` as a short month name and year. */
export function month(value: string, locale: Locale): string {
  return formatter(`month:${locale}`, () => new Intl.DateTimeFormat(locale, { month: "short", year: "2-digit", timeZone: "UTC" })).format(
    new Date(`${value}-01T00:00:00.000Z`),
  );
}

/** A payment method in the club's language (`methods`: the texts' names of the known ones); one they do not name (it is free text) as stored. */
export function methodName(methods: Record<string, string>, method: string): string {
  return Object.hasOwn(methods, method) ? methods[method] : method;
}

/** The choices of a payment method field: `list` in the club's language, and `current` kept when it is not one of them (an import's free text). */
export function methodOptions(methods: Record<string, string>, list: readonly string[], current?: string | null): { value: string; label: string }[] {
  const all = current && !list.includes(current) ? [...list, current] : list;
  return all.map((m) => ({ value: m, label: methodName(methods, m) }));
}
