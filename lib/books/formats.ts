// How the journal is written for the programs that read it (DESIGN.md section 21): Banana
// Accounting's import, DATEV's Buchungsstapel, CSV and JSON. Each writer turns lines into text a
// chunk at a time (the journal is a stream) and knows nothing of payments: lib/books/journal.ts
// makes the lines. Sources of each format's rules: docs/decisions.md, "The books".
import { csvLines } from "../csv";

/** One double-entry line: `amount_cents` (always positive) moves from credit_account to debit_account. */
export type JournalLine = {
  date: string;
  doc: string;
  description: string;
  debit_account: string;
  credit_account: string;
  amount_cents: number;
  currency: string;
};

/** An account's movements over the period: balance_cents = debit_cents - credit_cents. */
export type AccountTotal = { account: string; name: string; debit_cents: number; credit_cents: number; balance_cents: number };

export const JOURNAL_FORMATS = ["json", "csv", "banana", "datev"] as const;
export type JournalFormat = (typeof JOURNAL_FORMATS)[number];

/** What a writer knows of the export beyond its lines. */
export type JournalHead = {
  from: string;
  to: string;
  currency: string;
  journal: string;
  /** The latest `created_at` of what the period holds: DATEV's "created on", a fixed point so that the same period gives the same bytes. */
  asOf: string;
  /** The longest account number used (DATEV's Sachkontenlänge). */
  accountLength: number;
};

export type Writer = {
  contentType: string;
  extension: string;
  head(h: JournalHead): string;
  /** The text of `lines`; `first`: no line was written before them. */
  lines(lines: JournalLine[], first: boolean): string;
  tail(accounts: AccountTotal[]): string;
  encode(text: string): Uint8Array;
};

const utf8 = new TextEncoder();
const encodeUtf8 = (text: string) => utf8.encode(text);

/** Cents as a decimal number with `mark` (Banana: `.`, DATEV: `,`), never thousands separators. */
export function decimal(cents: number, mark: "." | ","): string {
  return `${Math.trunc(cents / 100)}${mark}${String(cents % 100).padStart(2, "0")}`;
}

/** A text on one line of a tab- or semicolon-separated file: every control character (tab, line break) as a space. */
const oneLine = (text: string) => text.replace(/\p{Cc}/gu, " ");

const FIELDS = ["date", "doc", "description", "debit_account", "credit_account", "amount_cents", "currency"] as const;

const json: Writer = {
  contentType: "application/json",
  extension: "json",
  head: (h) =>
    `{"from":${JSON.stringify(h.from)},"to":${JSON.stringify(h.to)},"currency":${JSON.stringify(h.currency)},"journal":${JSON.stringify(h.journal)},"lines":[`,
  lines: (lines, first) => (lines.length ? (first ? "" : ",") + lines.map((l) => JSON.stringify(l)).join(",") : ""),
  tail: (accounts) => `],"accounts":${JSON.stringify(accounts)}}`,
  encode: encodeUtf8,
};

const csv: Writer = {
  contentType: "text/csv; charset=utf-8",
  extension: "csv",
  // The BOM tells a spreadsheet the file is UTF-8 (as the member export's).
  head: () => `\uFEFF${FIELDS.join(",")}`,
  lines: (lines) => (lines.length ? `\r\n${csvLines(lines.map((l) => FIELDS.map((f) => l[f])))}` : ""),
  tail: () => "\r\n",
  encode: encodeUtf8,
};

const banana: Writer = {
  contentType: "text/tab-separated-values; charset=utf-8",
  extension: "txt",
  // Banana's column names (its NameXml, case sensitive) on the first line; a record per "\n".
  head: () => "Date\tDoc\tDescription\tAccountDebit\tAccountCredit\tAmount\n",
  lines: (lines) =>
    lines
      .map((l) => `${l.date}\t${oneLine(l.doc)}\t${oneLine(l.description)}\t${l.debit_account}\t${l.credit_account}\t${decimal(l.amount_cents, ".")}\n`)
      .join(""),
  tail: () => "",
  encode: encodeUtf8,
};

// ---- DATEV -----------------------------------------------------------------------------------

/** Windows-1252's letters at 0x80..0x9F (the rest of 0x00..0xFF is Latin-1's). */
const CP1252_HIGH = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ";
const CP1252 = new Map<string, number>();
for (let b = 0; b < 256; b++) CP1252.set(b >= 0x80 && b < 0xa0 ? CP1252_HIGH[b - 0x80] : String.fromCharCode(b), b);

/** Letters Unicode does not decompose into a base letter and a mark (a stroke is no mark). */
const STROKED: Record<string, string> = { Ł: "L", ł: "l", Đ: "D", đ: "d", Ħ: "H", ħ: "h", ı: "i", Ŧ: "T", ŧ: "t", Ɨ: "I", ɨ: "i", Ƶ: "Z", ƶ: "z" };

/** A character Windows-1252 lacks, as the closest letters it holds (`ő` as `o`, `Ł` as `L`), or `?`. */
function closest(ch: string): string {
  const bare = (STROKED[ch] ?? ch).normalize("NFKD").replace(/\p{M}/gu, "");
  return bare && [...bare].every((c) => CP1252.has(c)) ? bare : "?";
}

/** Whether Windows-1252 holds every character of `text` (read in place: a DATEV export asks it of every line). */
export function fitsWindows1252(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // Latin-1's letters outside 0x80..0x9F are Windows-1252's; a surrogate (beyond the BMP) never is.
    if (code < 0x80 || (code >= 0xa0 && code <= 0xff)) continue;
    if (!CP1252.has(text[i])) return false;
  }
  return true;
}

/** `text` in Windows-1252, a character it lacks as its closest letters (`closest`). */
export function encodeWindows1252(text: string): Uint8Array {
  // One byte a UTF-16 unit, but for the rare letter written as two (`ǆ` as `dz`): grown then.
  let out = new Uint8Array(text.length);
  let n = 0;
  const put = (b: number) => {
    if (n === out.length) {
      const bigger = new Uint8Array(out.length * 2 + 16);
      bigger.set(out);
      out = bigger;
    }
    out[n++] = b;
  };
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // Latin-1's letters outside 0x80..0x9F are Windows-1252's too, at the same place.
    if (code < 0x80 || (code >= 0xa0 && code <= 0xff)) {
      put(code);
      continue;
    }
    const ch = String.fromCodePoint(text.codePointAt(i) as number);
    if (ch.length === 2) i++;
    const b = CP1252.get(ch);
    if (b !== undefined) put(b);
    else for (const c of closest(ch)) put(CP1252.get(c) as number);
  }
  return out.subarray(0, n);
}

/** A DATEV text field: in quotes, a quote doubled, at most `max` characters (code points; a text of at most `max` UTF-16 units is whole). */
function text(value: string, max: number): string {
  const one = oneLine(value);
  const cut = one.length <= max ? one : [...one].slice(0, max).join("");
  return `"${cut.replace(/"/g, '""')}"`;
}
const compact = (isoDay: string) => isoDay.replace(/-/g, "");

/** The Buchungsstapel's columns this export fills (the first 14 of format version 13; the later ones are optional). */
const DATEV_COLUMNS = [
  "Umsatz (ohne Soll/Haben-Kz)",
  "Soll/Haben-Kennzeichen",
  "WKZ Umsatz",
  "Kurs",
  "Basis-Umsatz",
  "WKZ Basis-Umsatz",
  "Konto",
  "Gegenkonto (ohne BU-Schlüssel)",
  "BU-Schlüssel",
  "Belegdatum",
  "Belegfeld 1",
  "Belegfeld 2",
  "Skonto",
  "Buchungstext",
];

/** DATEV's placeholders for the tax adviser's and the client's numbers, which the product does not know: the accountant's import assigns its own. */
const DATEV_ADVISER = 1001;
const DATEV_CLIENT = 1;

const datev: Writer = {
  contentType: "text/csv; charset=windows-1252",
  extension: "csv",
  head: (h) => {
    const created = `${h.asOf.slice(0, 23).replace(/[-T:.Z]/g, "")}`.padEnd(17, "0");
    const header = [
      '"EXTF"',
      700,
      21,
      '"Buchungsstapel"',
      13,
      created,
      "",
      '"RE"',
      '""',
      '""',
      DATEV_ADVISER,
      DATEV_CLIENT,
      `${h.from.slice(0, 4)}0101`,
      Math.min(9, Math.max(4, h.accountLength)),
      compact(h.from),
      compact(h.to),
      text(h.journal || "Journal", 30),
      '""',
      1,
      0,
      0,
      `"${h.currency}"`,
      "",
      '""',
      "",
      "",
      '""',
      "",
      "",
      '""',
      '""',
    ];
    return `${header.join(";")}\r\n${DATEV_COLUMNS.join(";")}\r\n`;
  },
  // Konto is the debit account (S: Soll); Belegdatum is day and month (TTMM), the year is the header's.
  lines: (lines) =>
    lines
      .map(
        (l) =>
          `${decimal(l.amount_cents, ",")};"S";"${l.currency}";;;;${l.debit_account};${l.credit_account};;${l.date.slice(8, 10)}${l.date.slice(5, 7)};${text(l.doc, 36)};;;${text(l.description, 60)}\r\n`,
      )
      .join(""),
  tail: () => "",
  encode: encodeWindows1252,
};

export const WRITERS: Record<JournalFormat, Writer> = { json, csv, banana, datev };
