// lib/pdf: the TrueType subset keeps the glyphs a document used (at their ids, composites with
// their parts) and is a valid font; a streamed document is a valid PDF whose text reads back and
// whose glyphs are drawn (rasterised with poppler), whatever the characters.
import { afterAll, describe, expect, it } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { A4, PdfDocument } from "../../lib/pdf/document";
import { TrueTypeFont } from "../../lib/pdf/truetype";

const dir = mkdtempSync(join(tmpdir(), "club-pdf-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const font = new TrueTypeFont(readFileSync(createRequire(import.meta.url).resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf")));
const g = (ch: string) => font.glyph(ch.codePointAt(0) as number);

function sfntSum(bytes: Uint8Array): number {
  const padded = new Uint8Array((bytes.length + 3) & ~3);
  padded.set(bytes);
  const d = new DataView(padded.buffer);
  let sum = 0;
  for (let i = 0; i < padded.length; i += 4) sum = (sum + d.getUint32(i)) >>> 0;
  return sum;
}

describe("TrueTypeFont", () => {
  it("maps characters to glyphs, outside Latin-1 too, and has none for what DejaVu Sans lacks", () => {
    for (const ch of ["A", "é", "Ł", "ż", "ř", "Ω", "Ж", "…", "\ufffd"]) expect(g(ch)).toBeGreaterThan(0);
    expect(g("山")).toBe(0);
    expect(g("🎉")).toBe(0);
    expect(font.metrics.name).toBe("DejaVuSans");
    expect(font.metrics.unitsPerEm).toBe(2048);
    expect(font.advance(g("W"))).toBeGreaterThan(font.advance(g("i")));
  });

  it("a subset keeps the used glyphs (and a composite's parts) at their ids, empties the rest, and is a valid sfnt", () => {
    const used = [g("A"), g("é"), g("Ł")];
    const original = new Uint8Array(font.bytes);
    const bytes = font.subset(used);
    expect(font.bytes).toEqual(original);
    expect(bytes.length).toBeLessThan(font.bytes.length / 4);
    const sub = new TrueTypeFont(bytes);
    expect(sub.numGlyphs).toBe(font.numGlyphs);
    for (const id of used) {
      expect(sub.outline(id)).toEqual(font.outline(id));
      expect(sub.advance(id)).toBe(font.advance(id));
    }
    // é is drawn from e and the acute accent in DejaVu Sans: they must come along.
    const e = font.outline(g("é"));
    expect(new DataView(e.buffer, e.byteOffset).getInt16(0)).toBeLessThan(0);
    expect(sub.outline(g("e"))).toEqual(font.outline(g("e")));
    expect(sub.outline(g("Z")).length).toBe(0);
    expect(font.outline(g("Z")).length).toBeGreaterThan(0);
    expect(sub.glyph("A".codePointAt(0) as number)).toBe(g("A"));
    // Whole-file checksum (head.checkSumAdjustment) and each table's own.
    expect(sfntSum(bytes)).toBe(0xb1b0afba);
    const d = new DataView(bytes.buffer, bytes.byteOffset);
    for (let i = 0; i < d.getUint16(4); i++) {
      const at = 12 + 16 * i;
      const tag = String.fromCharCode(...bytes.subarray(at, at + 4));
      const table = bytes.subarray(d.getUint32(at + 8), d.getUint32(at + 8) + d.getUint32(at + 12));
      if (tag !== "head") expect(sfntSum(table)).toBe(d.getUint32(at + 4));
    }
  });
});

/** The document's bytes, read from its stream as a download would. */
async function write(
  pages: ((doc: PdfDocument) => (page: import("../../lib/pdf/document").Page) => void)[],
  title = "Essai",
): Promise<{ file: string; chunks: Uint8Array[] }> {
  const doc = new PdfDocument(font, { title, lang: "fr", created: new Date("2026-11-22T10:00:00Z") });
  const chunks = [doc.start(), ...pages.map((p) => doc.page(p(doc))), doc.finish()];
  const file = join(dir, `${Bun.randomUUIDv7()}.pdf`);
  writeFileSync(file, Buffer.concat(chunks));
  return { file, chunks };
}

function run(cmd: string[]): { out: string; err: string; code: number } {
  const p = Bun.spawnSync(cmd);
  return { out: p.stdout.toString(), err: p.stderr.toString(), code: p.exitCode ?? -1 };
}

/** Dark pixels of page 1 at 36 dpi within a box given in millimetres. */
function ink(file: string, box: { x: number; y: number; w: number; h: number }): number {
  const base = join(dir, "raster");
  expect(run(["pdftoppm", "-gray", "-r", "36", "-f", "1", "-l", "1", file, base]).code).toBe(0);
  const pgm = readFileSync(`${base}-1.pgm`);
  const header = pgm.toString("latin1", 0, 40).match(/^P5\s+(\d+)\s+(\d+)\s+255\s/) as RegExpMatchArray;
  const [width] = [Number(header[1])];
  const pixels = pgm.subarray(header[0].length);
  const px = 36 / 25.4;
  let dark = 0;
  for (let y = Math.floor(box.y * px); y < (box.y + box.h) * px; y++)
    for (let x = Math.floor(box.x * px); x < (box.x + box.w) * px; x++) if (pixels[y * width + x] < 128) dark++;
  return dark;
}

describe("PdfDocument", () => {
  it("writes a valid A4 document whose text reads back, in any script, with a placeholder for what the font lacks", async () => {
    const { file } = await write(
      [
        () => (p) => {
          p.text("Łódź Żółć Dvořák Ελλάδα Жанна", 20, 30, 12);
          p.text("山田 🎉 tab\there", 20, 40, 12);
          p.line(20, 45, 190, 45);
          p.text("page 1 / 2", 195, 290, 8, { align: "right" });
        },
        () => (p) => {
          p.text("page 2 / 2", 195, 290, 8, { align: "right" });
        },
      ],
      "Club de Łódź — liste",
    );
    const info = run(["pdfinfo", file]);
    expect(info.err).toBe("");
    expect(info.out).toMatch(/Pages:\s+2\n/);
    expect(info.out).toMatch(/Page size:\s+595\.\d+ x 841\.\d+ pts \(A4\)/);
    expect(info.out).toContain("Title:           Club de Łódź — liste");
    const fonts = run(["pdffonts", file]).out;
    expect(fonts).toMatch(/[A-Z]{6}\+DejaVuSans\s+CID TrueType\s+Identity-H\s+yes yes yes/);
    const text = run(["pdftotext", "-layout", file, "-"]);
    expect(text.err).toBe("");
    expect(text.out).toContain("Łódź Żółć Dvořák Ελλάδα Жанна");
    expect(text.out).toContain("\ufffd\ufffd \ufffd tab here");
    expect(text.out).toContain("page 2 / 2");
  });

  it("draws the glyphs: the embedded subset has their outlines (rasterised, there is ink where the text is and none elsewhere)", async () => {
    const { file } = await write([() => (p) => p.text("ŁÓDŹ Žluťoučký", 20, 60, 40)]);
    expect(ink(file, { x: 20, y: 45, w: 150, h: 18 })).toBeGreaterThan(300);
    expect(ink(file, { x: 20, y: 100, w: 150, h: 100 })).toBe(0);
  });

  it("the cross-reference table gives each object's exact offset, and each page leaves as its own chunk", async () => {
    const { file, chunks } = await write(Array.from({ length: 5 }, (_, i) => () => (p) => p.text(`page ${i + 1}`, 20, 20, 12)));
    expect(chunks).toHaveLength(7);
    const bytes = readFileSync(file);
    const text = bytes.toString("latin1");
    const startxref = Number(text.match(/startxref\n(\d+)\n%%EOF\n$/)?.[1]);
    const table = text.slice(startxref).match(/^xref\n0 (\d+)\n([\s\S]*?)trailer/) as RegExpMatchArray;
    const entries = table[2].trim().split("\n").slice(1);
    expect(entries).toHaveLength(Number(table[1]) - 1);
    entries.forEach((e, i) => {
      const offset = Number(e.slice(0, 10));
      expect(text.slice(offset, offset + 12)).toStartWith(`${i + 1} 0 obj\n`);
    });
  });

  it("fit() cuts a text that is too wide with an ellipsis so that it fits, and leaves one that fits", async () => {
    const doc = new PdfDocument(font, { title: "t", lang: "fr", created: new Date() });
    const long = "a.very.long.email.address@some-long-domain.example.org";
    const cut = doc.fit(long, 30, 9);
    expect(cut.endsWith("…")).toBe(true);
    expect(long.startsWith(cut.slice(0, -1))).toBe(true);
    expect(doc.textWidth(cut, 9)).toBeLessThanOrEqual(30);
    expect(doc.textWidth(`${long.slice(0, cut.length)}…`, 9)).toBeGreaterThan(30);
    expect(doc.fit("Anna", 30, 9)).toBe("Anna");
    expect(doc.fit("WWWWWWWW", 1, 9)).toBe("W…");
    expect(doc.fit("😀😀😀😀😀😀", 1, 9)).toBe("😀…");
    expect(doc.fit("🎉🎉🎉🎉🎉🎉", 1, 9)).toBe("🎉…");
    expect(A4.width).toBe(210);
  });
});
