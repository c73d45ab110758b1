// The invoice as a PDF (GET .../invoices/<id>/pdf, DESIGN.md section 20): A4, the club's
// letterhead (logo, name, address), the member, number, dates, lines and total in the club's
// language, and at the bottom the payment part lib/invoices/payment-part.ts decides. Drawn with
// PDFKit, which swissqrbill draws the Swiss QR-bill into (vector QR code, SIX's fonts and sizes);
// the roster keeps lib/pdf. Why, with the timings: docs/decisions.md "Invoices (issue 27)".
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import type { Font as FontkitFont } from "fontkit";
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db";
import { members } from "../../db/schema";
import { getClubRow } from "../clubs/internal";
import { logoOnWhite } from "../clubs/logo";
import { type Ctx, verb } from "../context";
import { asLocale, type Locale } from "../i18n";
import { INVOICE_TEXTS, type InvoiceTexts } from "../i18n/invoices";
import { lazy } from "../lazy";
import { mailDay, mailMoney } from "../mail/look";
import type { FileReply } from "../reply";
import { type InvoiceRow, invoiceRow } from "./index";
import { type PaymentPart, paymentPart, type Transfer } from "./payment-part";

const pdfkit = lazy(async () => (await import("pdfkit")).default);
const qrBill = lazy(async () => (await import("swissqrbill/pdf")).SwissQRBill);
const epcPayload = lazy(async () => (await import("sepa-payment-qr-code")).default);
const qrcode = lazy(async () => (await import("qrcode")).default);

const fontkit = lazy(async () => await import("fontkit"));

/**
 * DejaVu Sans and its bold (the `dejavu-fonts-ttf` package, as the roster uses), so the letterhead
 * writes any name; the QR-bill keeps Helvetica, one of the fonts SIX allows. Parsed once: PDFKit
 * takes a parsed font as it is and subsets it per document, and parsing both files for every
 * invoice was two thirds of its time (54 ms against 16, docs/decisions.md).
 */
let fonts: Promise<{ regular: FontkitFont; bold: FontkitFont }> | undefined;
function dejavu() {
  const at = async (file: string) =>
    keepingLayouts((await fontkit()).create(readFileSync(createRequire(import.meta.url).resolve(`dejavu-fonts-ttf/ttf/${file}`))));
  fonts ??= Promise.all([at("DejaVuSans.ttf"), at("DejaVuSans-Bold.ttf")]).then(([regular, bold]) => ({ regular, bold }));
  return fonts;
}

/** Words whose layout a font keeps; past it, the kept ones are dropped and kept anew. */
const KEPT_LAYOUTS = 4000;

/**
 * `font` keeping the layout (glyphs and positions) of each word it lays out, for the process.
 * PDFKit keeps them for one document only, so every invoice had fontkit shape every word again
 * (its GSUB and GPOS lookups): about a fifth of an invoice's CPU time (docs/benchmarks.md
 * "pdf16"). A word lays out alike in every document: the layout depends on the text and the font
 * alone. PDFKit scales the positions it is given in place, so each call gets copies of them.
 */
function keepingLayouts(font: FontkitFont): FontkitFont {
  const kept = new Map<string, { glyphs: unknown[]; positions: Record<string, number>[] }>();
  const keeping: FontkitFont = Object.create(font);
  keeping.layout = (text, features) => {
    if (features) return font.layout(text, features);
    let run = kept.get(text);
    if (!run) {
      const made = font.layout(text);
      run = { glyphs: made.glyphs, positions: made.positions.map((p) => ({ ...p })) };
      if (kept.size >= KEPT_LAYOUTS) kept.clear();
      kept.set(text, run);
    }
    const positions = run.positions.map((p) => ({ ...p }));
    return {
      glyphs: run.glyphs,
      positions,
      get advanceWidth() {
        let width = 0;
        for (const p of positions) width += p.xAdvance;
        return width;
      },
    };
  };
  return keeping;
}

const MM = 72 / 25.4;
const PAGE = { width: 210 * MM, height: 297 * MM };
const LEFT = 20 * MM;
const RIGHT = PAGE.width - 20 * MM;
/** Where the QR-bill's payment part starts: its 105 mm at the foot of the page. */
const SLIP_TOP = PAGE.height - 105 * MM;

type Doc = InstanceType<Awaited<ReturnType<typeof pdfkit>>>;

/** A reference in groups as printed (QRR: 2 then fives; RF: fours), as the SIX guidelines write them. */
export function printedReference(reference: string): string {
  if (/^\d{27}$/.test(reference)) return `${reference.slice(0, 2)} ${reference.slice(2).replace(/(\d{5})/g, "$1 ")}`.trim();
  return reference.replace(/(.{4})/g, "$1 ").trim();
}

/** The transfer details as lines of text: beneficiary, IBAN, BIC, reference, amount. */
function transferLines(tx: InvoiceTexts, transfer: Transfer, locale: Locale): [string, string][] {
  return [
    [tx.beneficiary, transfer.beneficiary],
    [tx.iban, transfer.iban],
    ...(transfer.bic ? [[tx.bic, transfer.bic] as [string, string]] : []),
    [tx.reference, printedReference(transfer.reference)],
    [tx.amount, mailMoney(transfer.amount_cents, transfer.currency, locale)],
  ];
}

function drawPairs(doc: Doc, pairs: [string, string][], x: number, y: number, labelWidth: number): number {
  for (const [label, value] of pairs) {
    doc.font("bold").fontSize(9).text(label, x, y, { width: labelWidth, lineBreak: false });
    doc
      .font("regular")
      .fontSize(9)
      .text(value, x + labelWidth, y, { lineBreak: false });
    y += 13;
  }
  return y;
}

/** The EPC QR code (error correction M, as EPC069-12 asks) as filled squares, `size` points wide. */
async function drawEpcQr(doc: Doc, payload: string, x: number, y: number, size: number) {
  const qr = (await qrcode()).create(payload, { errorCorrectionLevel: "M" });
  const n = qr.modules.size;
  const quiet = 2;
  const cell = size / (n + 2 * quiet);
  doc.save().fillColor("black");
  for (let row = 0; row < n; row++)
    for (let col = 0; col < n; col++) if (qr.modules.get(row, col)) doc.rect(x + (col + quiet) * cell, y + (row + quiet) * cell, cell, cell);
  doc.fill().restore();
}

async function drawPaymentPart(doc: Doc, part: PaymentPart, tx: InvoiceTexts, locale: Locale) {
  if (part.kind === "qrbill") {
    const SwissQRBill = await qrBill();
    new SwissQRBill(part.data, { language: locale.toUpperCase() as "FR" | "DE" | "IT" | "EN" }).attachTo(doc, 0, SLIP_TOP);
    return;
  }
  const top = Math.max(doc.y + 10 * MM, SLIP_TOP);
  doc.moveTo(LEFT, top).lineTo(RIGHT, top).lineWidth(0.5).strokeColor("#999999").stroke();
  if (part.kind === "none") {
    doc
      .font("regular")
      .fontSize(10)
      .fillColor("black")
      .text(tx.why.noIban, LEFT, top + 8 * MM, { width: RIGHT - LEFT });
    return;
  }
  if (part.kind === "epc") {
    doc
      .font("bold")
      .fontSize(11)
      .fillColor("black")
      .text(tx.scanToPay, LEFT, top + 6 * MM, { lineBreak: false });
    await drawEpcQr(doc, part.payload, LEFT, top + 12 * MM, 46 * MM);
    drawPairs(doc, transferLines(tx, part.transfer, locale), LEFT + 56 * MM, top + 16 * MM, 28 * MM);
    return;
  }
  doc
    .font("bold")
    .fontSize(11)
    .fillColor("black")
    .text(tx.transfer, LEFT, top + 6 * MM, { lineBreak: false });
  let y = top + 13 * MM;
  if (part.why) {
    doc
      .font("regular")
      .fontSize(9)
      .text(tx.why[part.why], LEFT, y, { width: RIGHT - LEFT });
    y = doc.y + 4;
  }
  drawPairs(doc, transferLines(tx, part.transfer, locale), LEFT, y, 28 * MM);
}

/**
 * The characters PDFKit's standard fonts write (WinAnsiEncoding): printable ASCII, Latin-1's upper
 * half, and the 27 of Windows-1252's 0x80-0x9F (euro sign, typographic quotes and dashes, Š, Ž, Œ...).
 */
const WIN_ANSI_MORE = new Set([
  0x152, 0x153, 0x160, 0x161, 0x178, 0x17d, 0x17e, 0x192, 0x2c6, 0x2dc, 0x2013, 0x2014, 0x2018, 0x2019, 0x201a, 0x201c, 0x201d, 0x201e, 0x2020, 0x2021, 0x2022,
  0x2026, 0x2030, 0x2039, 0x203a, 0x20ac, 0x2122,
]);
export function fitsWinAnsi(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 0x20 && c < 0x7f) || (c >= 0xa0 && c <= 0xff) || c === 0x0a || c === 0x0d || WIN_ANSI_MORE.has(c))) return false;
  }
  return true;
}

/** A text of an invoice drawn in Helvetica that Helvetica's encoding cannot write: it is drawn again in DejaVu Sans. */
class OutsideWinAnsi extends Error {}

/** What an invoice's page is drawn from: the club, the invoice, its member (null once erased) and the club's logo. */
type InvoiceParts = {
  club: Awaited<ReturnType<typeof getClubRow>>;
  invoice: InvoiceRow;
  member: { first_name: string; last_name: string; email: string } | null;
  logo?: Buffer | null;
};

/**
 * The invoice's PDF bytes, drawn from the rows as they are. In Helvetica, the QR-bill's own font,
 * when every text fits its encoding (PDFKit's standard fonts: nothing to embed, no subset to make),
 * else in DejaVu Sans, which writes any name: the embedded subset cost about a third of a warm
 * invoice's CPU and a fifth of the first ones' after a start (docs/benchmarks.md "Session 19 (lead)").
 */
export async function invoicePdfBytes(
  club: InvoiceParts["club"],
  invoice: InvoiceRow,
  member: InvoiceParts["member"],
  logo: Buffer | null,
): Promise<Uint8Array> {
  const parts = { club, invoice, member, logo };
  if (fontsFor(parts) === "dejavu") return await drawInvoice(parts, "dejavu");
  try {
    return await drawInvoice(parts, "helvetica");
  } catch (error) {
    // A text the list above missed: the page is drawn again, so every name still prints.
    if (!(error instanceof OutsideWinAnsi)) throw error;
    return await drawInvoice(parts, "dejavu");
  }
}

/**
 * The fonts of a page, from the texts people typed on it (the club's, the member's, the lines'):
 * one outside WinAnsi picks DejaVu Sans before drawing, rather than drawing the page twice. The
 * club's language's own texts all fit.
 */
export function fontsFor(parts: InvoiceParts) {
  return enteredTexts(parts).every(fitsWinAnsi) ? "helvetica" : "dejavu";
}

function enteredTexts({ club, invoice, member }: InvoiceParts) {
  const texts = [
    club.name,
    club.address,
    club.postal_code,
    club.city,
    club.country,
    club.contact_email,
    club.payout_beneficiary_name,
    club.payout_bic,
    invoice.number,
  ];
  if (member) texts.push(member.first_name, member.last_name, member.email);
  for (const line of invoice.lines) texts.push(line.label);
  return texts.filter((t): t is string => !!t);
}

async function drawInvoice({ club, invoice, member, logo }: InvoiceParts, fonts: "helvetica" | "dejavu"): Promise<Uint8Array> {
  const locale = asLocale(club.locale);
  const tx = INVOICE_TEXTS[locale];
  const PDFDocument = await pdfkit();
  const doc = new PDFDocument({ size: "A4", margin: 0, info: { Title: `${tx.title} ${invoice.number}`, Author: club.name }, lang: locale });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve) => doc.on("end", () => resolve()));
  if (fonts === "helvetica") {
    doc.registerFont("regular", "Helvetica");
    doc.registerFont("bold", "Helvetica-Bold");
    // Every text the page draws (the QR-bill's too) passes here. A French amount groups its
    // thousands with a narrow no-break space, which WinAnsi lacks: a no-break space stands in.
    const text = doc.text;
    doc.text = function (this: Doc, value: unknown, ...rest: unknown[]) {
      if (typeof value === "string") {
        value = value.replaceAll("\u202f", "\u00a0");
        if (!fitsWinAnsi(value as string)) throw new OutsideWinAnsi();
      }
      return (text as (...args: unknown[]) => Doc).call(this, value, ...rest);
    } as typeof doc.text;
  } else {
    const f = await dejavu();
    // PDFKit's types name only paths and bytes; it takes a parsed font too (one with `layout`).
    doc.registerFont("regular", f.regular as unknown as Buffer);
    doc.registerFont("bold", f.bold as unknown as Buffer);
  }

  // Letterhead: the logo, then the club's name and postal address.
  let y = 15 * MM;
  if (logo) {
    doc.image(logo, LEFT, y, { fit: [60 * MM, 18 * MM] });
    y += 21 * MM;
  }
  doc
    .font("bold")
    .fontSize(12)
    .fillColor("black")
    .text(club.name, LEFT, y, { width: 90 * MM });
  doc.font("regular").fontSize(9);
  const clubLines = [club.address, [club.postal_code, club.city].filter(Boolean).join(" "), club.country, club.contact_email].filter((l): l is string => !!l);
  for (const line of clubLines) doc.text(line, LEFT, doc.y, { width: 90 * MM });

  // The member, where a window envelope shows the address.
  if (member) {
    doc
      .font("bold")
      .fontSize(11)
      .text(`${member.first_name} ${member.last_name}`, 120 * MM, 50 * MM, { width: 70 * MM });
    doc
      .font("regular")
      .fontSize(9)
      .text(member.email, 120 * MM, doc.y, { width: 70 * MM });
  }

  // Title, dates and reference.
  y = Math.max(doc.y, 80 * MM);
  doc.font("bold").fontSize(18).text(`${tx.title} ${tx.number} ${invoice.number}`, LEFT, y);
  y = drawPairs(
    doc,
    [
      [tx.issuedOn, mailDay(invoice.issued_on, locale)],
      [tx.dueOn, mailDay(invoice.due_on, locale)],
      [tx.reference, printedReference(invoice.reference)],
    ],
    LEFT,
    doc.y + 4 * MM,
    28 * MM,
  );

  // Lines and total.
  y += 6 * MM;
  const amountX = RIGHT - 40 * MM;
  doc.font("bold").fontSize(9).text(tx.description, LEFT, y, { lineBreak: false });
  doc.text(tx.amount, amountX, y, { width: 40 * MM, align: "right" });
  y += 14;
  doc
    .moveTo(LEFT, y - 3)
    .lineTo(RIGHT, y - 3)
    .lineWidth(0.5)
    .strokeColor("#000000")
    .stroke();
  doc.font("regular");
  for (const line of invoice.lines) {
    // A long invoice goes on: the payment part keeps the last page's foot.
    if (y > SLIP_TOP - 30 * MM) {
      doc.addPage();
      y = 20 * MM;
    }
    doc.text(line.label, LEFT, y, { width: amountX - LEFT - 5 * MM });
    const next = doc.y;
    doc.text(mailMoney(line.amount_cents, invoice.currency, locale), amountX, y, { width: 40 * MM, align: "right" });
    y = Math.max(next, doc.y) + 3;
  }
  doc.moveTo(LEFT, y).lineTo(RIGHT, y).stroke();
  y += 5;
  doc.font("bold").fontSize(11).text(tx.total, LEFT, y, { lineBreak: false });
  doc.text(mailMoney(invoice.amount_cents, invoice.currency, locale), amountX - 20 * MM, y, { width: 60 * MM, align: "right" });
  doc.y = y + 20;

  if (invoice.status === "cancelled" || invoice.status === "paid") {
    doc
      .font("bold")
      .fontSize(12)
      .text(invoice.status === "paid" ? tx.paid : tx.cancelled, LEFT, doc.y + 8 * MM);
  } else {
    const message = tx.message.replace("{number}", invoice.number);
    await drawPaymentPart(doc, paymentPart(club, invoice, message, await epcPayload()), tx, locale);
  }
  doc.end();
  await ended;
  return new Uint8Array(Buffer.concat(chunks));
}

/** What an invoice's PDF is drawn from, read from the database: the club, the member (null once erased) and the logo. */
export async function invoiceDocument(db: Db, invoice: InvoiceRow) {
  const club = await getClubRow(db, invoice.club_id);
  const [member] = await db.read
    .select({ first_name: members.first_name, last_name: members.last_name, email: members.email })
    .from(members)
    .where(and(eq(members.club_id, invoice.club_id), eq(members.id, invoice.member_id)))
    .limit(1);
  const logo = await logoOnWhite(db.read, invoice.club_id);
  const bytes = await invoicePdfBytes(club, invoice, member ?? null, logo);
  const filename = `${INVOICE_TEXTS[asLocale(club.locale)].title.toLowerCase()}-${invoice.number}.pdf`;
  return { club, member: member ?? null, bytes, filename };
}

/** GET .../invoices/<id>/pdf: the invoice as an A4 PDF with its payment part. */
export const invoicePdf = verb("finances:view", async function invoicePdf(ctx: Ctx, input: { invoice_id: string }): Promise<FileReply> {
  const { bytes, filename } = await invoiceDocument(ctx.db, await invoiceRow(ctx.db.read, ctx.clubId, input.invoice_id));
  return { body: bytes, contentType: "application/pdf", filename, headers: { "cache-control": "private, no-store" } };
});
