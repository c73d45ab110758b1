// A club's colours as everything it shows them (cards, pages, mail): #RRGGBB or a default, and
// the text colour that reads on each.

const HEX = /^#[0-9A-Fa-f]{6}$/;
/** `value` when it is a #RRGGBB colour, else `fallback`. */
export const color = (value: unknown, fallback: string) => (typeof value === "string" && HEX.test(value) ? value : fallback);

/** WCAG relative luminance of #RRGGBB. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

/** Black or white, whichever reads better on `hex`. */
export const textOn = (hex: string): string => (luminance(hex) > 0.4 ? "#111827" : "#FFFFFF");

/** The club's label colour, unless it is unreadable on the card (the default grey on a light card). */
export const labelOn = (label: string, background: string): string =>
  contrast(label, background) >= 2.5 ? label : textOn(background) === "#FFFFFF" ? "#D1D5DB" : "#4B5563";

/** The club's primary and secondary colours (defaults when unset or malformed) and the text colour on each. */
export function brandColors(club: { primary_color?: unknown; secondary_color?: unknown }) {
  const primary = color(club.primary_color, "#1F2937");
  const secondary = color(club.secondary_color, "#F59E0B");
  return { primary, onPrimary: textOn(primary), secondary, onSecondary: textOn(secondary) };
}
