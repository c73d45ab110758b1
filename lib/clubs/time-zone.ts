// The time zone a club's dates are shown in (the event page, DESIGN.md section 13): the club has
// no time zone setting, but its `country` (ISO 3166 alpha-2) names one for every country with a
// single zone; elsewhere, and without a country, the default of the product (Swiss clubs first,
// as the CHF and French defaults).
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
