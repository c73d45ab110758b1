// The time zone a club's times are shown in (the event page, DESIGN.md section 13) and typed in
// (the dashboard's forms, issue 32): the club has no time zone setting, but its `country` (ISO
// 3166 alpha-2) names one for every country with a single zone; elsewhere, and without a
// country, the default of the product (Swiss clubs first, as the CHF and French defaults). The
// API stays in UTC (SPEC: dates are ISO 8601 UTC); the wall clock's conversions are below.
const ZONES: Record<string, string> = {
  AD: "Europe/Andorra",
  AT: "Europe/Vienna",
  BE: "Europe/Brussels",
  CH: "Europe/Zurich",
  CZ: "Europe/Prague",
  DE: "Europe/Berlin",
  DK: "Europe/Copenhagen",
  FI: "Europe/Helsinki",
  FR: "Europe/Paris",
  GB: "Europe/London",
  GR: "Europe/Athens",
  HR: "Europe/Zagreb",
  HU: "Europe/Budapest",
  IE: "Europe/Dublin",
  IT: "Europe/Rome",
  LI: "Europe/Vaduz",
  LU: "Europe/Luxembourg",
  MC: "Europe/Monaco",
  MT: "Europe/Malta",
  NL: "Europe/Amsterdam",
  NO: "Europe/Oslo",
  PL: "Europe/Warsaw",
  PT: "Europe/Lisbon",
  SE: "Europe/Stockholm",
  SI: "Europe/Ljubljana",
  SK: "Europe/Bratislava",
  SM: "Europe/San_Marino",
  ES: "Europe/Madrid",
  VA: "Europe/Vatican",
};

export const DEFAULT_TIME_ZONE = "Europe/Zurich";

/** The IANA time zone of a club in `country` (null, unknown or with several zones: the default). */
export const clubTimeZone = (country: string | null | undefined): string => (country && ZONES[country.toUpperCase()]) || DEFAULT_TIME_ZONE;

const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of `timeZone` at instant `ms`, as the UTC milliseconds of the same figures (seconds dropped). */
function wallClock(ms: number, timeZone: string): number {
  let f = wallClocks.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" });
    wallClocks.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute));
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/**
 * A local date and time typed in the club's zone (`2026-07-01T19:00`, a `datetime-local` field)
 * as the instant it names, ISO 8601 UTC. Daylight saving: the hour the clocks skip in spring
 * (02:00-02:59 in Europe) names no instant: `skipped`, to be refused (the admin chooses); the
 * hour lived twice in autumn names the first (the summer time one), as calendars do. `invalid`
 * for anything else than that shape or a date that does not exist.
 */
export function localToUtc(local: string, timeZone: string): { iso: string } | { skipped: true } | { invalid: true } {
  const m = LOCAL.exec(local);
  if (!m) return { invalid: true };
  const asUtc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  if (Number.isNaN(asUtc) || new Date(asUtc).toISOString().slice(0, 16) !== local) return { invalid: true };
  // The zone's offsets half a day either side hold every offset that can apply at that wall time (one change a day at most).
  const offsets = [asUtc - 43_200_000, asUtc + 43_200_000].map((at) => wallClock(at, timeZone) - at);
  const instants = [...new Set(offsets.map((o) => asUtc - o))].filter((at) => wallClock(at, timeZone) === asUtc).sort((a, b) => a - b);
  return instants.length ? { iso: new Date(instants[0]).toISOString() } : { skipped: true };
}

/** An instant (ISO 8601) as the club's wall clock shows it, `2026-07-01T19:00` (a `datetime-local` field's value). */
export function utcToLocal(iso: string, timeZone: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? "" : new Date(wallClock(ms, timeZone)).toISOString().slice(0, 16);
}
