// CSV as the exports write it (the member export, the journal): comma-separated, lines ended by
// CRLF, a cell quoted only when it must be (a quote, comma, line break or BOM in it, a space at
// either end), and a cell that a spreadsheet would run as a formula (=, +, -, @, tab, CR first)
// prefixed with ' and quoted (OWASP's CSV injection advice). The bytes are papaparse's
// `unparse` with `escapeFormulae: /^[=+\-@\t\r]/` (test/lib/csv.test.ts compares them on
// random text); written here because papaparse took 3.5 times as long for 10,000 members
// (110 ms against 31, docs/decisions.md), and papaparse's own `escapeFormulae: true` lets a
// formula through when a line break follows it (`/^[=+\-@\t\r].*$/` stops at the line's end).
const FORMULA = /^[=+\-@\t\r]/;
const MUST_QUOTE = /[",\r\n\uFEFF]|^ | $/;

/** One cell: empty for null and undefined, numbers and booleans as written, text quoted as it must be. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  const text = value instanceof Date ? (Number.isNaN(value.getTime()) ? "" : value.toISOString()) : String(value);
  if (FORMULA.test(text)) return `"'${text.replaceAll('"', '""')}"`;
  return MUST_QUOTE.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * Rows of cells as CSV lines joined by CRLF (no line break after the last), with `header` first
 * when given; a header alone ends with its line break (as papaparse writes it, and so the
 * exports of a club without members have always been).
 */
export function csvLines(rows: readonly (readonly unknown[])[], header?: readonly string[]): string {
  let out = header ? header.map(csvCell).join(",") : "";
  if (header && !rows.length) return `${out}\r\n`;
  for (let r = 0; r < rows.length; r++) {
    if (header || r) out += "\r\n";
    const row = rows[r];
    for (let i = 0; i < row.length; i++) out += i ? `,${csvCell(row[i])}` : csvCell(row[i]);
  }
  return out;
}
