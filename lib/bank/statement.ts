// Reading a bank statement as banks hand it out (DESIGN.md section 13): a CSV export (columns
// date, amount, currency, reference, counterparty, headed in English, French, German or Italian,
// `;` or `,` between cells, amounts with `.` or `,` as the decimal mark and `'`, `.`, `,` or
// spaces between thousands) or an ISO 20022 camt.053 statement (BkToCstmrStmt/Stmt) or camt.054
// debit/credit notification (BkToCstmrDbtCdtNtfctn/Ntfctn, the same entries: a QR-bill batch
// comes so): each entry, or each transaction of a batch entry, with its amount, currency,
// credit/debit mark, booking date, structured creditor reference (SCOR or QRR) and the debtor's name. Each line gets a key that is the same
// whenever the same statement is read again, so an import records a line once. Pure: no database.
import type { Locale } from "../i18n";
import { sha256Hex } from "../ids";
import { decodeText, foldedHeadings, readSheetWith } from "../members/import-file";
import { lazy } from "../lazy";

/** The XML parser loads with the first camt file read (lib/lazy). */
const xmlPackage = lazy(() => import("fast-xml-parser"));

export type StatementLine = {
  /** The line of the file it starts on (CSV: the record's line; camt.053: the entry's or transaction's opening tag). */
  line: number;
  /** YYYY-MM-DD, the booking date. */
  date: string | null;
  /** Cents, positive; a debit is `credit: false`. */
  amount_cents: number | null;
  currency: string | null;
  credit: boolean;
  /** As written, spaces taken out and upper-cased; "" when none. */
  reference: string;
  counterparty: string | null;
  /** The line's free text as written (case kept): the reference cell, or camt's unstructured remittance and additional information. A provider's payout is told by it (lib/books/payouts). */
  text: string;
  /** What makes the line unreadable (a date or amount that is not one), else null. */
  problem: string | null;
  /** The same for the same line of the same statement however often it is read. */
  key: string;
};

export type Statement = { format: "csv" | "camt.053" | "camt.054"; lines: StatementLine[] };

/** Why a file is not a statement: 422 STATEMENT_UNREADABLE (`problem`) or STATEMENT_COLUMNS_MISSING (`columns`). */
export class StatementRefused extends Error {
  constructor(
    readonly code: "STATEMENT_UNREADABLE" | "STATEMENT_COLUMNS_MISSING",
    readonly params: Record<string, string>,
  ) {
    super(code);
  }
}

type Column = "date" | "amount" | "currency" | "reference" | "counterparty";

/** The headings banks and treasurers give each column, per language. */
const HEADINGS: Record<Column, Record<Locale, string[]>> = {
  date: {
    fr: ["date", "date comptable", "date de comptabilisation", "date de valeur", "date d'opération", "date de l'opération"],
    de: ["Datum", "Buchungsdatum", "Buchungstag", "Valutadatum", "Valuta-Datum"],
    it: ["data", "data contabile", "data di registrazione", "data valuta", "data operazione"],
    en: ["date", "booking date", "value date", "transaction date", "posting date"],
  },
  amount: {
    fr: ["montant", "crédit", "montant du crédit"],
    de: ["Betrag", "Gutschrift", "Betrag Gutschrift"],
    it: ["importo", "accredito", "importo accredito"],
    en: ["amount", "credit", "credit amount", "amount received"],
  },
  currency: {
    fr: ["devise", "monnaie"],
    de: ["Währung"],
    it: ["valuta", "divisa"],
    en: ["currency", "ccy"],
  },
  reference: {
    fr: ["référence", "référence de paiement", "référence du créancier", "communication"],
    de: ["Referenz", "Zahlungsreferenz", "Referenznummer", "Gläubigerreferenz", "Mitteilung"],
    it: ["riferimento", "riferimento pagamento", "riferimento del creditore", "causale"],
    en: ["reference", "payment reference", "creditor reference", "remittance information"],
  },
  counterparty: {
    fr: ["contrepartie", "donneur d'ordre", "payeur", "émetteur", "nom"],
    de: ["Gegenpartei", "Auftraggeber", "Zahler", "Absender", "Name"],
    it: ["controparte", "ordinante", "pagatore", "mittente", "nome"],
    en: ["counterparty", "payer", "sender", "name", "from"],
  },
};
const FOLDED = foldedHeadings(HEADINGS);
const REQUIRED: Column[] = ["date", "amount", "reference"];

/** The reference as compared: no spaces, upper case. */
const referenceOf = (text: string | null | undefined) => (text ?? "").replace(/\s+/g, "").toUpperCase();

/**
 * An amount as banks write it, in cents: `1'234.50`, `1 234,50`, `1.234,50`, `-50.00`, `50.00-`.
 * With both marks the last is the decimal one; a lone mark followed by three digits groups
 * thousands, by one or two digits is the decimal mark. Null when it is not an amount (or too large to be exact).
 */
export function parseAmount(text: string): number | null {
  let s = text.replace(/[\s\u00a0\u202f'’]/g, "");
  let sign = 1;
  if (/^[+-]/.test(s)) {
    sign = s[0] === "-" ? -1 : 1;
    s = s.slice(1);
  } else if (/[+-]$/.test(s)) {
    sign = s.endsWith("-") ? -1 : 1;
    s = s.slice(0, -1);
  }
  const lastDot = s.lastIndexOf(".");
  const lastComma = s.lastIndexOf(",");
  let decimal: string | null = null;
  if (lastDot >= 0 && lastComma >= 0) decimal = lastDot > lastComma ? "." : ",";
  else if (lastDot >= 0 || lastComma >= 0) {
    const mark = lastDot >= 0 ? "." : ",";
    const after = s.length - s.lastIndexOf(mark) - 1;
    const once = s.indexOf(mark) === s.lastIndexOf(mark);
    if (once && after >= 1 && after <= 2) decimal = mark;
    else if (after !== 3) return null;
  }
  const grouping = decimal === "." ? "," : decimal === "," ? "." : /[.,]/.exec(s)?.[0];
  if (grouping) s = s.split(grouping).join("");
  if (decimal === ",") s = s.replace(",", ".");
  if (!/^\d+(\.\d{1,2})?$/.test(s)) return null;
  const [whole, frac = ""] = s.split(".");
  const cents = Number(whole) * 100 + Number(frac.padEnd(2, "0"));
  // More digits than a number holds exactly is no amount (the answer's integers would fail).
  return Number.isSafeInteger(cents) ? sign * cents : null;
}

/** A booking date as banks write it: `2026-11-03` (a time after it ignored), `03.11.2026`, `03/11/2026`, `3.11.26`. Null otherwise. */
export function parseDate(text: string): string | null {
  const s = text.trim();
  let y: number;
  let m: number;
  let d: number;
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/.exec(s);
  const eu = /^(\d{1,2})[./-](\d{1,2})[./-](\d{2}|\d{4})$/.exec(s);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (eu) [d, m, y] = [Number(eu[1]), Number(eu[2]), eu[3].length === 2 ? 2000 + Number(eu[3]) : Number(eu[3])];
  else return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}

/**
 * Keys for lines without the bank's own id: a hash of what the line says, and its rank among the
 * identical lines of the file (two equal transfers on one day are two payments).
 */
function keyer(prefix: string) {
  const seen = new Map<string, number>();
  return (parts: (string | number | boolean | null)[]) => {
    const hash = sha256Hex(JSON.stringify(parts));
    const n = (seen.get(hash) ?? 0) + 1;
    seen.set(hash, n);
    return `${prefix}:${hash.slice(0, 40)}:${n}`;
  };
}

function readCsv(text: string): Statement {
  const sheet = readSheetWith(text, FOLDED);
  const missing = REQUIRED.filter((c) => sheet.index[c] === undefined);
  if (!sheet.headerLine || missing.length) throw new StatementRefused("STATEMENT_COLUMNS_MISSING", { columns: missing.join(", ") || REQUIRED.join(", ") });
  const key = keyer("csv");
  const lines: StatementLine[] = [];
  const cell = (cells: string[], c: Column) => (sheet.index[c] === undefined ? "" : (cells[sheet.index[c] as number] ?? "").trim());
  for (const row of sheet.rows()) {
    if (row.cells.every((c) => !c.trim())) continue;
    const date = parseDate(cell(row.cells, "date"));
    const signed = parseAmount(cell(row.cells, "amount"));
    const currency = cell(row.cells, "currency").toUpperCase() || null;
    const reference = referenceOf(cell(row.cells, "reference"));
    const counterparty = cell(row.cells, "counterparty") || null;
    const problems = [date ? null : `date "${cell(row.cells, "date")}"`, signed === null ? `amount "${cell(row.cells, "amount")}"` : null].filter(Boolean);
    lines.push({
      line: row.line,
      date,
      amount_cents: signed === null ? null : Math.abs(signed),
      currency,
      credit: signed === null || signed > 0,
      reference,
      counterparty,
      text: cell(row.cells, "reference"),
      problem: problems.length ? problems.join(", ") : null,
      key: key([date, signed, currency, reference, counterparty]),
    });
  }
  return { format: "csv", lines };
}

// ---- camt.053 --------------------------------------------------------------------------------

type Node = Record<string, unknown>;
const ARRAYS = new Set(["Stmt", "Ntfctn", "Ntry", "NtryDtls", "TxDtls", "Strd", "CdtrRefInf", "Ustrd"]);
const asNode = (v: unknown): Node => (v && typeof v === "object" && !Array.isArray(v) ? (v as Node) : {});
const list = (v: unknown): Node[] => (Array.isArray(v) ? v.map(asNode) : v === undefined ? [] : [asNode(v)]);
const text = (v: unknown): string | null => {
  if (typeof v === "string") return v.trim() || null;
  if (v && typeof v === "object" && "#text" in (v as Node)) return text((v as Node)["#text"]);
  return null;
};
const path = (n: unknown, ...names: string[]): unknown => names.reduce<unknown>((at, name) => asNode(at)[name], n);

/** The offsets where each `<Ntry>` (any namespace prefix) and each `<TxDtls>` opens, as line numbers. */
function tagLines(xml: string, tag: string): { at: number; line: number }[] {
  const out: { at: number; line: number }[] = [];
  const re = new RegExp(`<(?:[\\w.-]+:)?${tag}[\\s>/]`, "g");
  let line = 1;
  let last = 0;
  for (let m = re.exec(xml); m; m = re.exec(xml)) {
    for (let i = last; i < m.index; i++) if (xml.charCodeAt(i) === 10) line++;
    last = m.index;
    out.push({ at: m.index, line });
  }
  return out;
}

/** A structured creditor reference of a transaction (RmtInf/Strd/CdtrRefInf/Ref, whatever its Tp says: SCOR, QRR), else "". */
function creditorRef(tx: Node): string {
  for (const strd of list(path(tx, "RmtInf", "Strd"))) for (const inf of list(strd.CdtrRefInf)) if (text(inf.Ref)) return referenceOf(text(inf.Ref));
  return "";
}

/** The debtor's name: Dbtr/Nm (camt.053.001.04) or Dbtr/Pty/Nm (.08 and later). */
const debtorOf = (tx: Node) => text(path(tx, "RltdPties", "Dbtr", "Nm")) ?? text(path(tx, "RltdPties", "Dbtr", "Pty", "Nm"));

async function readCamt(xml: string): Promise<Statement> {
  // A bank's camt.053 has no DTD; one here would only serve entity tricks.
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new StatementRefused("STATEMENT_UNREADABLE", { problem: "DOCTYPE" });
  const { XMLParser } = await xmlPackage();
  let doc: Node;
  try {
    doc = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "@",
      removeNSPrefix: true,
      parseTagValue: false,
      parseAttributeValue: false,
      processEntities: true,
      htmlEntities: false,
      isArray: (name) => ARRAYS.has(name),
    }).parse(xml, true) as Node;
  } catch (err) {
    throw new StatementRefused("STATEMENT_UNREADABLE", { problem: err instanceof Error ? err.message.slice(0, 200) : "XML" });
  }
  // camt.053's statements and camt.054's notifications hold the same entries.
  const statement = path(doc, "Document", "BkToCstmrStmt");
  const notification = path(doc, "Document", "BkToCstmrDbtCdtNtfctn");
  const reports =
    statement && typeof statement === "object"
      ? list(asNode(statement).Stmt)
      : notification && typeof notification === "object"
        ? list(asNode(notification).Ntfctn)
        : null;
  if (!reports) throw new StatementRefused("STATEMENT_UNREADABLE", { problem: "no Document/BkToCstmrStmt or Document/BkToCstmrDbtCdtNtfctn" });
  const entryLines = tagLines(xml, "Ntry");
  const txLines = tagLines(xml, "TxDtls");
  const key = keyer("camt");
  const lines: StatementLine[] = [];
  let entryIndex = 0;
  for (const stmt of reports) {
    for (const entry of list(stmt.Ntry)) {
      const opened = entryLines[entryIndex] ?? { at: 0, line: 0 };
      const next = entryLines[entryIndex + 1]?.at ?? Number.POSITIVE_INFINITY;
      entryIndex++;
      const credit = text(entry.CdtDbtInd) === "CRDT";
      // A notification may give the value date alone (BookgDt is optional in camt.054).
      const rawDate =
        text(path(entry, "BookgDt", "Dt")) ??
        text(path(entry, "BookgDt", "DtTm")) ??
        text(path(entry, "ValDt", "Dt")) ??
        text(path(entry, "ValDt", "DtTm")) ??
        "";
      const date = parseDate(rawDate);
      const entryRef = text(entry.AcctSvcrRef);
      const txs = list(entry.NtryDtls).flatMap((d) => list(d.TxDtls));
      const ownLines = txLines.filter((t) => t.at > opened.at && t.at < next);
      // A batch entry (several transactions) is read transaction by transaction, each with its amount.
      const parts = txs.length > 1 ? txs : [txs[0] ?? {}];
      parts.forEach((tx, i) => {
        const amt = txs.length > 1 ? (path(tx, "Amt") ?? path(tx, "AmtDtls", "TxAmt", "Amt")) : entry.Amt;
        const amountText = text(amt) ?? "";
        const cents = /^\d+(\.\d{1,2})?$/.test(amountText) ? parseAmount(amountText) : null;
        const currency = text(asNode(amt)["@Ccy"])?.toUpperCase() ?? null;
        const reference = creditorRef(tx);
        const counterparty = debtorOf(tx);
        const txRef = text(path(tx, "Refs", "AcctSvcrRef"));
        const problems = [date ? null : `BookgDt "${rawDate}"`, cents === null ? `Amt "${amountText}"` : null].filter(Boolean);
        lines.push({
          line: txs.length > 1 ? (ownLines[i]?.line ?? opened.line) : opened.line,
          date,
          amount_cents: cents,
          currency,
          credit,
          reference,
          counterparty,
          text: [...[path(tx, "RmtInf", "Ustrd")].flat().map(text), text(path(tx, "AddtlTxInf")), text(entry.AddtlNtryInf)].filter(Boolean).join(" "),
          problem: problems.length ? problems.join(", ") : null,
          // The bank's own id of the entry (and transaction) when it gives one.
          key:
            txRef || entryRef
              ? `camt:${sha256Hex(`${entryRef ?? ""}|${txRef ?? ""}|${i}`).slice(0, 40)}`
              : key([date, cents, currency, credit, reference, counterparty]),
        });
      });
    }
  }
  return { format: statement && typeof statement === "object" ? "camt.053" : "camt.054", lines };
}

/** Reads `file` (bytes or text) as a camt.053 or camt.054 document when it is XML, else as a CSV export. 422 (StatementRefused) when it is neither. */
export async function readStatement(file: string | Uint8Array): Promise<Statement> {
  const content = typeof file === "string" ? file.replace(/^\uFEFF/, "") : decodeText(file).text;
  if (!content.trim()) throw new StatementRefused("STATEMENT_UNREADABLE", { problem: "empty" });
  return content.trimStart().startsWith("<") ? readCamt(content) : readCsv(content);
}
