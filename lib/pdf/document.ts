// A PDF written as it is made: each page leaves as soon as it is drawn, so a document of
// thousands of pages never sits in memory. Text is set in one embedded TrueType font (any
// character the font has, Polish and Czech included), as glyph ids with a ToUnicode map so that
// text can be searched and copied. What must wait for the last page (the page tree and the font
// subset, which depends on the glyphs used) is written after it, which PDF allows: objects are
// found through the cross-reference table at the end, not by their order in the file.
import { deflateSync } from "node:zlib";
import type { TrueTypeFont } from "./truetype";

const MM = 72 / 25.4;
export const A4 = { width: 210, height: 297 } as const;

const encoder = new TextEncoder();

/** A number as PDF writes it: at most two decimals, no exponent. */
function num(n: number): string {
  return String(Math.round(n * 100) / 100);
}

/** A PDF text string in UTF-16BE, which any reader shows as written. */
function textString(s: string): string {
  let hex = "FEFF";
  for (let i = 0; i < s.length; i++) hex += s.charCodeAt(i).toString(16).padStart(4, "0");
  return `<${hex}>`;
}

function pdfDate(d: Date): string {
  return `D:${d.toISOString().replace(/[-:T]/g, "").slice(0, 14)}Z`;
}

export type DocumentInfo = { title: string; lang: string; created: Date };

/** A picture a document draws (the club's logo): 8-bit RGB pixels, row by row, and their opacity apart. */
export type PdfImage = { width: number; height: number; rgb: Uint8Array; alpha: Uint8Array };

const HEX = Array.from("0123456789abcdef", (c) => c.charCodeAt(0));

/** A growing byte buffer, reused for each page's content so that drawing a page makes little garbage. */
class ByteBuffer {
  private bytes = new Uint8Array(1 << 16);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const bigger = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    bigger.set(this.bytes.subarray(0, this.length));
    this.bytes = bigger;
  }

  /** Text of PDF syntax: ASCII only. */
  ascii(s: string): void {
    this.room(s.length);
    for (let i = 0; i < s.length; i++) this.bytes[this.length++] = s.charCodeAt(i);
  }

  /** A glyph id as four hex digits. */
  hex4(g: number): void {
    this.room(4);
    const b = this.bytes;
    b[this.length++] = HEX[(g >> 12) & 15];
    b[this.length++] = HEX[(g >> 8) & 15];
    b[this.length++] = HEX[(g >> 4) & 15];
    b[this.length++] = HEX[g & 15];
  }

  view(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

/** What a page shows, in millimetres from the top left corner (as on paper). */
export class Page {
  private size = 0;

  constructor(
    private readonly doc: PdfDocument,
    private readonly out: ByteBuffer,
  ) {
    out.length = 0;
    out.ascii("BT\n");
  }

  /** Text with its baseline at y; `align: "right"` ends it at x. */
  text(s: string, x: number, y: number, size: number, options: { align?: "left" | "right" } = {}): void {
    const left = options.align === "right" ? x - this.doc.textWidth(s, size) : x;
    if (this.size !== size) this.out.ascii(`/F1 ${num(size)} Tf\n`);
    this.size = size;
    this.out.ascii(`1 0 0 1 ${num(left * MM)} ${num((A4.height - y) * MM)} Tm <`);
    this.doc.glyphs(s, (g) => this.out.hex4(g));
    this.out.ascii("> Tj\n");
  }

  /** The document's image (PdfDocument `image`) in the box at x, y (its top left corner) of width w and height h, in mm. */
  image(x: number, y: number, w: number, h: number): void {
    this.out.ascii(`ET q ${num(w * MM)} 0 0 ${num(h * MM)} ${num(x * MM)} ${num((A4.height - y - h) * MM)} cm /Im1 Do Q BT\n`);
  }

  line(x1: number, y1: number, x2: number, y2: number, width = 0.2): void {
    this.out.ascii(`ET ${num(width * MM)} w ${num(x1 * MM)} ${num((A4.height - y1) * MM)} m ${num(x2 * MM)} ${num((A4.height - y2) * MM)} l S BT\n`);
  }

  /** The content stream's bytes (valid until the next page is drawn). */
  content(): Uint8Array {
    this.out.ascii("ET");
    return this.out.view();
  }
}

// Object numbers fixed before the first page, so that pages can point at the page tree and
// the font that are only written at the end.
const CATALOG = 1;
const PAGES = 2;
const RESOURCES = 3;
const FONT = 4;
const CID_FONT = 5;
const DESCRIPTOR = 6;
const FONT_FILE = 7;
const TO_UNICODE = 8;
const INFO = 9;
const FIRST_FREE = 10;

/**
 * One A4 portrait document. Call `start()`, then `page()` for each page (each returns the bytes
 * to send), then `finish()`. The document keeps the byte offset of each object, the page ids and
 * the glyphs used: a few bytes per page, whatever the pages hold.
 */
export class PdfDocument {
  private readonly offsets: number[] = [];
  private readonly pageIds: number[] = [];
  private readonly unicodeOf = new Map<number, string>();
  private readonly buffer = new ByteBuffer();
  private nextId = FIRST_FREE;
  private position = 0;
  private readonly fallback: number;
  private readonly space: number;

  constructor(
    private readonly font: TrueTypeFont,
    private readonly info: DocumentInfo,
    /** One picture every page may draw (`Page.image`), written once with the shared resources. */
    private readonly picture: PdfImage | null = null,
  ) {
    this.fallback = font.glyph(0xfffd) || font.glyph(0x3f);
    this.space = font.glyph(0x20);
  }

  /** Width in millimetres of `s` set at `size` points. */
  textWidth(s: string, size: number): number {
    let units = 0;
    this.glyphs(
      s,
      (g) => {
        units += this.font.advance(g);
      },
      false,
    );
    return ((units / this.font.metrics.unitsPerEm) * size) / MM;
  }

  /** The longest start of `s` that, followed by "…", fits in `width` mm (`s` itself if it fits). */
  fit(s: string, width: number, size: number): string {
    if (this.textWidth(s, size) <= width) return s;
    const room = ((width - this.textWidth("…", size)) * MM * this.font.metrics.unitsPerEm) / size;
    let units = 0;
    let cut = -1;
    this.glyphs(
      s,
      (g, end) => {
        units += this.font.advance(g);
        if (units <= room) cut = end;
      },
      false,
    );
    // At least the first character, so that a cell never shows "…" alone.
    const first = s.codePointAt(0) ?? 0;
    return `${s.slice(0, Math.max(cut, first > 0xffff ? 2 : 1))}…`;
  }

  /**
   * Calls `each` with the glyph of each character of `s` and the index just after it. Unless
   * `drawn` is false, notes the glyph for the subset and its character for ToUnicode.
   */
  glyphs(s: string, each: (glyph: number, end: number) => void, drawn = true): void {
    for (let i = 0; i < s.length; i++) {
      let cp = s.charCodeAt(i);
      if (cp >= 0xd800 && cp < 0xdc00 && i + 1 < s.length) {
        const low = s.charCodeAt(i + 1);
        if (low >= 0xdc00 && low < 0xe000) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
          i++;
        }
      }
      // Control characters print as spaces; a character the font lacks as U+FFFD (or "?").
      const g = cp < 0x20 || (cp >= 0x7f && cp < 0xa0) ? this.space : this.font.glyph(cp) || this.fallback;
      if (drawn && !this.unicodeOf.has(g))
        this.unicodeOf.set(
          g,
          g === this.fallback ? String.fromCodePoint(this.font.glyph(0xfffd) ? 0xfffd : 0x3f) : String.fromCodePoint(g === this.space ? 0x20 : cp),
        );
      each(g, i + 1);
    }
  }

  /** The header, catalog and shared resources (the picture among them). */
  start(): Uint8Array {
    const lang = this.info.lang.replace(/[^A-Za-z-]/g, "");
    // The header's second line marks the file as binary: bytes above 127, written one per char.
    const header = Uint8Array.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", (c) => c.charCodeAt(0));
    this.position += header.length;
    const picture = this.picture;
    // Numbered only when there is one: the cross-reference table lists every number up to the last.
    const image = picture ? this.nextId++ : 0;
    const mask = picture ? this.nextId++ : 0;
    const xobject = picture ? ` /XObject << /Im1 ${image} 0 R >>` : "";
    return this.join([
      header,
      this.object(CATALOG, `<< /Type /Catalog /Pages ${PAGES} 0 R /Lang (${lang}) >>`),
      this.object(RESOURCES, `<< /Font << /F1 ${FONT} 0 R >>${xobject} /ProcSet [/PDF /Text /ImageC] >>`),
      ...(picture
        ? [
            this.stream(
              image,
              `/Type /XObject /Subtype /Image /Width ${picture.width} /Height ${picture.height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /SMask ${mask} 0 R`,
              picture.rgb,
            ),
            this.stream(
              mask,
              `/Type /XObject /Subtype /Image /Width ${picture.width} /Height ${picture.height} /ColorSpace /DeviceGray /BitsPerComponent 8`,
              picture.alpha,
            ),
          ]
        : []),
    ]);
  }

  /** One page drawn by `draw`, as the bytes of its content stream and page object. */
  page(draw: (page: Page) => void): Uint8Array {
    const page = new Page(this, this.buffer);
    draw(page);
    const contentId = this.nextId++;
    const pageId = this.nextId++;
    this.pageIds.push(pageId);
    return this.join([
      this.stream(contentId, "", page.content()),
      this.object(
        pageId,
        `<< /Type /Page /Parent ${PAGES} 0 R /MediaBox [0 0 ${num(A4.width * MM)} ${num(A4.height * MM)}] /Resources ${RESOURCES} 0 R /Contents ${contentId} 0 R >>`,
      ),
    ]);
  }

  /** The page tree, the font (subset to the glyphs used), the document info and the cross-reference table. */
  finish(): Uint8Array {
    const m = this.font.metrics;
    const em = (v: number) => Math.round((v * 1000) / m.unitsPerEm);
    const glyphs = [...this.unicodeOf.keys()].sort((a, b) => a - b);
    const fontFile = this.font.subset(glyphs);
    const name = `${subsetTag(glyphs)}+${m.name}`;
    const widths = glyphs.map((g) => `${g} [${em(this.font.advance(g))}]`).join(" ");
    const flags = (m.fixedPitch ? 1 : 0) | 32 | (m.italicAngle !== 0 ? 64 : 0);
    const parts = [
      this.object(PAGES, `<< /Type /Pages /Count ${this.pageIds.length} /Kids [${this.pageIds.map((id) => `${id} 0 R`).join(" ")}] >>`),
      this.object(
        FONT,
        `<< /Type /Font /Subtype /Type0 /BaseFont /${name} /Encoding /Identity-H /DescendantFonts [${CID_FONT} 0 R] /ToUnicode ${TO_UNICODE} 0 R >>`,
      ),
      this.object(
        CID_FONT,
        `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /${name} /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor ${DESCRIPTOR} 0 R /CIDToGIDMap /Identity /DW ${em(m.unitsPerEm / 2)} /W [${widths}] >>`,
      ),
      this.object(
        DESCRIPTOR,
        `<< /Type /FontDescriptor /FontName /${name} /Flags ${flags} /FontBBox [${m.bbox.map(em).join(" ")}] /ItalicAngle ${num(m.italicAngle)} /Ascent ${em(m.ascent)} /Descent ${em(m.descent)} /CapHeight ${em(m.capHeight)} /StemV 80 /FontFile2 ${FONT_FILE} 0 R >>`,
      ),
      this.stream(FONT_FILE, `/Length1 ${fontFile.length}`, fontFile),
      this.stream(TO_UNICODE, "", encoder.encode(toUnicodeCMap(this.unicodeOf))),
      this.object(INFO, `<< /Title ${textString(this.info.title)} /Producer (club platform) /CreationDate (${pdfDate(this.info.created)}) >>`),
    ];
    const xrefAt = this.position;
    const size = this.nextId;
    let xref = `xref\n0 ${size}\n0000000000 65535 f \n`;
    for (let id = 1; id < size; id++) xref += `${String(this.offsets[id]).padStart(10, "0")} 00000 n \n`;
    xref += `trailer\n<< /Size ${size} /Root ${CATALOG} 0 R /Info ${INFO} 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
    const tail = encoder.encode(xref);
    this.position += tail.length;
    return this.join([...parts, tail]);
  }

  private object(id: number, dict: string): Uint8Array {
    return this.bytes(id, encoder.encode(`${id} 0 obj\n${dict}\nendobj\n`));
  }

  private stream(id: number, extra: string, data: Uint8Array): Uint8Array {
    const packed = deflateSync(data);
    const head = encoder.encode(`${id} 0 obj\n<< /Length ${packed.length} /Filter /FlateDecode${extra ? ` ${extra}` : ""} >>\nstream\n`);
    const tail = encoder.encode("\nendstream\nendobj\n");
    const out = new Uint8Array(head.length + packed.length + tail.length);
    out.set(head);
    out.set(packed, head.length);
    out.set(tail, head.length + packed.length);
    return this.bytes(id, out);
  }

  /** Notes where object `id` starts. Objects are handed out in the order they were made. */
  private bytes(id: number, out: Uint8Array): Uint8Array {
    this.offsets[id] = this.position;
    this.position += out.length;
    return out;
  }

  private join(chunks: Uint8Array[]): Uint8Array {
    const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}

/** Six capitals naming this subset (PDF 9.6.4), the same for the same glyphs. */
function subsetTag(glyphs: number[]): string {
  let h = 2166136261;
  for (const g of glyphs) h = Math.imul(h ^ g, 16777619) >>> 0;
  let tag = "";
  for (let i = 0; i < 6; i++) {
    tag += String.fromCharCode(65 + (h % 26));
    h = Math.floor(h / 26);
  }
  return tag;
}

/** The CMap from glyph ids back to Unicode, so that copied and searched text is the names. */
function toUnicodeCMap(unicodeOf: Map<number, string>): string {
  const entries = [...unicodeOf].sort((a, b) => a[0] - b[0]);
  const blocks: string[] = [];
  for (let i = 0; i < entries.length; i += 100) {
    const block = entries.slice(i, i + 100);
    const lines = block.map(([g, s]) => {
      let hex = "";
      for (let k = 0; k < s.length; k++) hex += s.charCodeAt(k).toString(16).padStart(4, "0");
      return `<${g.toString(16).padStart(4, "0")}> <${hex}>`;
    });
    blocks.push(`${block.length} beginbfchar\n${lines.join("\n")}\nendbfchar`);
  }
  return [
    "/CIDInit /ProcSet findresource begin",
    "12 dict begin",
    "begincmap",
    "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
    "/CMapName /Adobe-Identity-UCS def",
    "/CMapType 2 def",
    "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange",
    ...blocks,
    "endcmap",
    "CMapName currentdict /CMap defineresource pop",
    "end",
    "end",
  ].join("\n");
}
