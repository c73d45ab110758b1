// Reading a member spreadsheet as people save it: the bytes' encoding (UTF-8 with or without a
// BOM, UTF-16 with a BOM, else Windows-1252, Excel's "CSV" on Western Windows), the separator
// (comma, semicolon or tab, sniffed from the header line; Excel's `sep=;` first line too), the
// headings in French, German, Italian and English (accents, case and punctuation ignored), and
// cells as the export wrote them (its formula guard taken back off). Pure: no database.
import type { Locale } from "../i18n";
import { foldText } from "../../db/text";

export type Field = "first_name" | "last_name" | "email" | "membership_start" | "membership_end" | "payment_status" | "payment_method" | "tier";

/** The headings recognised for each field, per language, as people write them. */
const HEADINGS: Record<Field, Record<Locale, string[]>> = {
  first_name: {
    fr: ["prénom"],
    de: ["Vorname"],
    it: ["nome"],
    en: ["first_name", "first name", "firstname", "given name", "forename"],
  },
  last_name: {
    fr: ["nom", "nom de famille"],
    de: ["Nachname", "Familienname", "Name"],
    it: ["cognome"],
    en: ["last_name", "last name", "lastname", "surname", "family name"],
  },
  email: {
    fr: ["e-mail", "courriel", "adresse e-mail", "adresse électronique", "mail"],
    de: ["E-Mail", "E-Mail-Adresse", "Mail"],
    it: ["email", "indirizzo email", "indirizzo e-mail", "posta elettronica"],
    en: ["email", "email address", "e-mail address"],
  },
  membership_start: {
    fr: ["début abonnement", "début d'abonnement", "début d'adhésion", "début", "date de début"],
    de: ["Mitgliedschaftsbeginn", "Beginn", "Startdatum", "Beginndatum"],
    it: ["inizio abbonamento", "inizio adesione", "inizio", "data di inizio"],
    en: ["membership_start", "membership start", "start", "start date"],
  },
  membership_end: {
    fr: [
      "fin abonnement",
      "fin d'abonnement",
      "fin d'adhésion",
      "fin",
      "date de fin",
      "échéance",
      "date d'échéance",
      "expiration",
      "date d'expiration",
      "valable jusqu'au",
      "valide jusqu'au",
      "membre jusqu'au",
    ],
    de: ["Mitgliedschaftsende", "Mitglied bis", "Ende", "Enddatum", "gültig bis", "Ablaufdatum", "Ablauf", "bezahlt bis"],
    it: ["fine abbonamento", "fine adesione", "fine", "data di fine", "scadenza", "data di scadenza", "valido fino al", "socio fino al"],
    en: [
      "membership_end",
      "membership end",
      "end",
      "end date",
      "expires",
      "expiry",
      "expiry date",
      "expiration date",
      "valid until",
      "paid until",
      "member until",
    ],
  },
  payment_status: {
    fr: ["statut de paiement"],
    de: ["Zahlungsstatus"],
    it: ["stato pagamento", "stato del pagamento"],
    en: ["payment_status", "payment status"],
  },
  payment_method: {
    fr: ["moyen de paiement", "mode de paiement"],
    de: ["Zahlungsart", "Zahlungsmethode"],
    it: ["metodo di pagamento"],
    en: ["payment_method", "payment method"],
  },
  // The tier by its name (the dashboard's word for it in each language first).
  tier: {
    fr: ["catégorie", "formule", "catégorie de membre", "type de membre", "type d'adhésion", "type d'abonnement"],
    de: ["Kategorie", "Stufe", "Mitgliederkategorie", "Mitgliedschaftsart", "Mitgliedschaftstyp", "Tarif"],
    it: ["categoria", "livello", "tipo di socio", "tipo di adesione", "tipo di abbonamento"],
    en: ["tier", "tier_name", "tier name", "membership tier", "membership type", "category", "plan"],
  },
};

export const FIELDS = Object.keys(HEADINGS) as Field[];

/**
 * A heading as compared: lower case, no accents, typographic apostrophes plain, a note in
 * brackets dropped ("Fin (JJ.MM.AAAA)"), `_ - .` and runs of spaces as one space, a trailing
 * `:` or `*` (a required-field mark) dropped.
 */
export function foldHeading(heading: string): string {
  return foldText(heading.replace(/\(.*?\)|\[.*?\]/g, " "))
    .replace(/[’‘`´]/g, "'")
    .replace(/[_\-.\s]+/g, " ")
    .replace(/[\s:*]+$/, "")
    .trim();
}

/** A table of headings per field and language, folded for comparison (foldHeading). */
export function foldedHeadings<F extends string>(table: Record<F, Record<Locale, string[]>>): Record<F, Set<string>> {
  return Object.fromEntries(
    Object.entries<Record<Locale, string[]>>(table).map(([f, byLocale]) => [f, new Set(Object.values(byLocale).flat().map(foldHeading))]),
  ) as Record<F, Set<string>>;
}

const FOLDED = foldedHeadings(HEADINGS);

/** The recognised headings of `field`, those of the club's language first, each once. */
export function recognisedHeadings(field: Field, locale: Locale): string[] {
  const order = [locale, ...(["fr", "de", "it", "en"] as const).filter((l) => l !== locale)];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const l of order) {
    for (const h of HEADINGS[field][l]) {
      if (!seen.has(foldHeading(h))) out.push(h);
      seen.add(foldHeading(h));
    }
  }
  return out;
}

export type Encoding = "utf-8" | "utf-16le" | "utf-16be" | "windows-1252";

/**
 * The text of the file's bytes. A BOM decides; without one, bytes that are valid UTF-8 are UTF-8
 * (plain ASCII is both), anything else is Windows-1252: what Excel writes as "CSV" on Western
 * Windows (é = 0xE9). Its superset of Latin-1 also gives €, œ and typographic quotes.
 */
export function decodeText(bytes: Uint8Array): { text: string; encoding: Encoding } {
  const [a, b, c] = bytes;
  if (a === 0xef && b === 0xbb && c === 0xbf) return { text: new TextDecoder("utf-8").decode(bytes.subarray(3)), encoding: "utf-8" };
  if (a === 0xff && b === 0xfe) return { text: new TextDecoder("utf-16le").decode(bytes.subarray(2)), encoding: "utf-16le" };
  if (a === 0xfe && b === 0xff) return { text: new TextDecoder("utf-16be").decode(bytes.subarray(2)), encoding: "utf-16be" };
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes), encoding: "utf-8" };
  } catch {
    return { text: new TextDecoder("windows-1252").decode(bytes), encoding: "windows-1252" };
  }
}

export type Delimiter = "," | ";" | "\t";
const DELIMITERS: Delimiter[] = ["\t", ";", ","];

/**
 * The separator of the header line: the one it holds most of outside quotes (tab, then
 * semicolon, then comma on a tie: a heading may hold a comma, rarely a tab). A single column has
 * none: comma.
 */
export function sniffDelimiter(headerLine: string): Delimiter {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const ch of headerLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && counts.has(ch)) counts.set(ch, (counts.get(ch) as number) + 1);
  }
  let best: Delimiter = ",";
  let most = 0;
  for (const d of DELIMITERS) {
    const n = counts.get(d) as number;
    if (n > most) [best, most] = [d, n];
  }
  return best;
}

/**
 * A cell as the export meant it: the export puts `'` before a cell starting with = + - @ (or a
 * tab or carriage return) so that a spreadsheet does not run it as a formula (papaparse's
 * `escapeFormulae`); that mark comes back off here, so `'=1+1` imports as `=1+1`.
 */
export const unescapeCell = (cell: string): string => (cell.length > 1 && cell.charCodeAt(0) === 39 && /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

export type Column<F extends string = Field> = { heading: string; field: F | null };

/** A record of the file: its cells (trimmed, the export's formula guard off) and the line it begins on. */
export type Row = { line: number; cells: string[] };

export type SheetFile<F extends string = Field> = {
  encoding: Encoding;
  delimiter: Delimiter;
  /** Line of the header (the first record with a filled cell); 0 when the file has none. */
  headerLine: number;
  /** The header's cells, each with the field it was recognised as (null: not one of ours). */
  columns: Column<F>[];
  /** Field -> its column's index (the first column recognised as that field). */
  index: Partial<Record<F, number>>;
  /**
   * The records after the header, read from the text each time it is called: an import reads the
   * file twice (check, then write) rather than hold 100,000 rows of cells.
   */
  rows(): Generator<Row>;
};

export const isBlank = (cells: string[]) => cells.every((c) => !c);

const QUOTE = 34;
const LF = 10;
const CR = 13;

const newlines = (s: string) => (s.includes("\n") || s.includes("\r") ? s.split(/\r\n|\r|\n/).length - 1 : 0);

/**
 * The records of `text` (RFC 4180: cells in double quotes may hold the separator, quotes doubled,
 * and line breaks; CR LF, LF or CR end a record), each with the line it begins on. Nothing after
 * the last line break: a file ending in a newline has no empty last record.
 */
function* records(text: string, delimiter: Delimiter, start: number, firstLine: number): Generator<Row> {
  const d = delimiter.charCodeAt(0);
  const n = text.length;
  let i = start;
  let line = firstLine;
  while (i < n) {
    const at = line;
    const cells: string[] = [];
    for (;;) {
      let cell: string;
      if (text.charCodeAt(i) === QUOTE) {
        cell = "";
        let j = i + 1;
        for (;;) {
          const q = text.indexOf('"', j);
          if (q < 0) {
            // An unterminated quote takes the rest of the file, as spreadsheets do.
            cell += text.slice(j);
            i = n;
            break;
          }
          cell += text.slice(j, q);
          if (text.charCodeAt(q + 1) === QUOTE) {
            cell += '"';
            j = q + 2;
            continue;
          }
          i = q + 1;
          break;
        }
        line += newlines(cell);
      } else {
        cell = "";
      }
      // Unquoted text, or what follows a closing quote, up to the separator or the line's end.
      let k = i;
      for (; k < n; k++) {
        const c = text.charCodeAt(k);
        if (c === d || c === LF || c === CR) break;
      }
      cells.push(unescapeCell((cell + text.slice(i, k)).trim()).trim());
      i = k;
      if (i < n && text.charCodeAt(i) === d) {
        i++;
        continue;
      }
      if (i < n && text.charCodeAt(i) === CR) i++;
      if (i < n && text.charCodeAt(i) === LF) i++;
      line++;
      break;
    }
    yield { line: at, cells };
  }
}

/** Reads a member file (bytes, or text already decoded): its encoding, separator, header and columns. */
export const readSheet = (input: string | Uint8Array): SheetFile => readSheetWith(input, FOLDED);

/** Reads a file whose headings are those of `folded` (foldedHeadings): its encoding, separator, header and columns. */
export function readSheetWith<F extends string>(input: string | Uint8Array, folded: Record<F, Set<string>>): SheetFile<F> {
  const fields = Object.keys(folded) as F[];
  const { text, encoding } = typeof input === "string" ? { text: input.replace(/^\uFEFF/, ""), encoding: "utf-8" as const } : decodeText(input);
  // Excel's own hint, a first line `sep=;`, names the separator and is not the header.
  const hint = /^sep=(.)(\r\n|\r|\n|$)/i.exec(text);
  const start = hint ? hint[0].length : 0;
  const firstLine = hint ? 2 : 1;
  const headerText = /[^\r\n]*\S[^\r\n]*/.exec(text.slice(start, start + 65_536))?.[0] ?? "";
  const delimiter = hint && DELIMITERS.includes(hint[1] as Delimiter) ? (hint[1] as Delimiter) : sniffDelimiter(headerText);
  let headerLine = 0;
  const columns: Column<F>[] = [];
  const index: Partial<Record<F, number>> = {};
  for (const row of records(text, delimiter, start, firstLine)) {
    if (isBlank(row.cells)) continue;
    headerLine = row.line;
    row.cells.forEach((heading, i) => {
      const key = foldHeading(heading);
      const field = fields.find((f) => index[f] === undefined && folded[f].has(key)) ?? null;
      if (field) index[field] = i;
      columns.push({ heading, field });
    });
    break;
  }
  return {
    encoding,
    delimiter,
    headerLine,
    columns,
    index,
    *rows() {
      if (!headerLine) return;
      for (const row of records(text, delimiter, start, firstLine)) if (row.line > headerLine) yield row;
    },
  };
}
