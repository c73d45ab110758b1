// A TrueType font as a PDF needs it: the glyph of each character, advance widths, the metrics of
// the font descriptor, and a subset that keeps only the glyphs a document used. The subset keeps
// every glyph at its original id (unused ones empty), so that a PDF can show glyph ids as they
// are (CIDToGIDMap /Identity) while pages are written before the set of used glyphs is known.

export type FontMetrics = {
  /** PostScript name, for BaseFont and FontName. */
  name: string;
  unitsPerEm: number;
  bbox: [number, number, number, number];
  ascent: number;
  descent: number;
  capHeight: number;
  italicAngle: number;
  fixedPitch: boolean;
};

type TableRecord = { offset: number; length: number };

export class TrueTypeFont {
  readonly metrics: FontMetrics;
  readonly numGlyphs: number;
  private readonly data: DataView;
  private readonly tables = new Map<string, TableRecord>();
  private readonly advances: Uint16Array;
  private readonly glyphOf = new Map<number, number>();
  private readonly longLoca: boolean;

  constructor(readonly bytes: Uint8Array) {
    this.data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const d = this.data;
    const version = d.getUint32(0);
    if (version !== 0x00010000 && version !== 0x74727565) throw new Error("not a TrueType font (glyf outlines)");
    const count = d.getUint16(4);
    for (let i = 0; i < count; i++) {
      const at = 12 + 16 * i;
      this.tables.set(this.tag(at), { offset: d.getUint32(at + 8), length: d.getUint32(at + 12) });
    }
    for (const required of ["head", "hhea", "hmtx", "maxp", "cmap", "loca", "glyf"])
      if (!this.tables.has(required)) throw new Error(`font has no ${required} table`);
    const head = this.table("head").offset;
    const hhea = this.table("hhea").offset;
    const unitsPerEm = d.getUint16(head + 18);
    this.longLoca = d.getInt16(head + 50) === 1;
    this.numGlyphs = d.getUint16(this.table("maxp").offset + 4);

    const longMetrics = d.getUint16(hhea + 34);
    const hmtx = this.table("hmtx").offset;
    this.advances = new Uint16Array(this.numGlyphs);
    for (let g = 0; g < this.numGlyphs; g++) this.advances[g] = d.getUint16(hmtx + 4 * Math.min(g, longMetrics - 1));

    this.readCmap();

    const os2 = this.tables.get("OS/2");
    const post = this.tables.get("post");
    const ascent = d.getInt16(hhea + 4);
    this.metrics = {
      name: this.postScriptName() ?? "Font",
      unitsPerEm,
      bbox: [d.getInt16(head + 36), d.getInt16(head + 38), d.getInt16(head + 40), d.getInt16(head + 42)],
      ascent,
      descent: d.getInt16(hhea + 6),
      capHeight: os2 && os2.length >= 90 && d.getUint16(os2.offset) >= 2 ? d.getInt16(os2.offset + 88) : Math.round(ascent * 0.7),
      italicAngle: post ? d.getInt32(post.offset + 4) / 65536 : 0,
      fixedPitch: post ? d.getUint32(post.offset + 12) !== 0 : false,
    };
  }

  /** The glyph id for a Unicode code point, 0 (.notdef) when the font has none. */
  glyph(codePoint: number): number {
    return this.glyphOf.get(codePoint) ?? 0;
  }

  /** The glyph's outline as stored in the glyf table (empty for a blank glyph such as the space). */
  outline(glyph: number): Uint8Array {
    const r = this.glyphRange(glyph);
    return this.bytes.subarray(r.offset, r.offset + r.length);
  }

  /** Advance width of a glyph in font units. */
  advance(glyph: number): number {
    return this.advances[glyph] ?? 0;
  }

  /**
   * The font with only `used` glyphs (and the glyphs their composites are built from) kept, each
   * at its own id, plus glyph 0. Tables a PDF viewer does not read for an embedded CID font
   * (layout, kerning, glyph names) are left out.
   */
  subset(used: Iterable<number>): Uint8Array {
    const keep = new Set<number>([0]);
    const pending = [...used];
    while (pending.length) {
      const g = pending.pop() as number;
      if (g < 0 || g >= this.numGlyphs || keep.has(g)) continue;
      keep.add(g);
      pending.push(...this.components(g));
    }
    // glyf: the kept glyphs' outlines, each padded to 4 bytes; loca (long form) points into it.
    const loca = new DataView(new ArrayBuffer(4 * (this.numGlyphs + 1)));
    let size = 0;
    for (let g = 0; g < this.numGlyphs; g++) {
      loca.setUint32(4 * g, size);
      if (keep.has(g)) size += pad4(this.outline(g).length);
    }
    loca.setUint32(4 * this.numGlyphs, size);
    const glyf = new Uint8Array(size);
    for (let g = 0, at = 0; g < this.numGlyphs; g++) {
      if (!keep.has(g)) continue;
      const outline = this.outline(g);
      glyf.set(outline, at);
      at += pad4(outline.length);
    }
    // Copies (new Uint8Array), not slice(): on a Node Buffer slice() is a view, and writing to it
    // would change the font itself.
    const head = new Uint8Array(this.raw("head"));
    const headView = new DataView(head.buffer);
    headView.setUint32(8, 0);
    headView.setInt16(50, 1);
    // post version 3: the same metrics without glyph names (62 KB in DejaVu Sans).
    const post = this.tables.has("post") ? new Uint8Array(this.raw("post").subarray(0, 32)) : undefined;
    if (post) new DataView(post.buffer).setUint32(0, 0x00030000);

    const out = new Map<string, Uint8Array>();
    for (const tag of ["OS/2", "cmap", "cvt ", "fpgm", "hhea", "hmtx", "maxp", "name", "prep"]) if (this.tables.has(tag)) out.set(tag, this.raw(tag));
    out.set("glyf", glyf);
    out.set("head", head);
    out.set("loca", new Uint8Array(loca.buffer));
    if (post) out.set("post", post);
    return assemble(out);
  }

  private table(tag: string): TableRecord {
    const t = this.tables.get(tag);
    if (!t) throw new Error(`font has no ${tag} table`);
    return t;
  }

  private raw(tag: string): Uint8Array {
    const t = this.table(tag);
    return this.bytes.subarray(t.offset, t.offset + t.length);
  }

  private tag(at: number): string {
    return String.fromCharCode(this.bytes[at], this.bytes[at + 1], this.bytes[at + 2], this.bytes[at + 3]);
  }

  private glyphRange(g: number): TableRecord {
    if (!(g >= 0 && g < this.numGlyphs)) return { offset: 0, length: 0 };
    const loca = this.table("loca").offset;
    const glyf = this.table("glyf").offset;
    const d = this.data;
    const [start, end] = this.longLoca
      ? [d.getUint32(loca + 4 * g), d.getUint32(loca + 4 * g + 4)]
      : [2 * d.getUint16(loca + 2 * g), 2 * d.getUint16(loca + 2 * g + 2)];
    return { offset: glyf + start, length: Math.max(0, end - start) };
  }

  /** The glyphs a composite glyph is drawn from (none for a simple glyph). */
  private components(g: number): number[] {
    const r = this.glyphRange(g);
    const d = this.data;
    if (r.length < 10 || d.getInt16(r.offset) >= 0) return [];
    const out: number[] = [];
    let at = r.offset + 10;
    for (;;) {
      const flags = d.getUint16(at);
      out.push(d.getUint16(at + 2));
      at += 4 + (flags & 0x0001 ? 4 : 2);
      if (flags & 0x0008) at += 2;
      else if (flags & 0x0040) at += 4;
      else if (flags & 0x0080) at += 8;
      if (!(flags & 0x0020)) return out;
    }
  }

  /** Unicode to glyph: the full-repertoire subtable (format 12) when there is one, else the BMP one (format 4). */
  private readCmap(): void {
    const d = this.data;
    const cmap = this.table("cmap").offset;
    const subtables: { platform: number; encoding: number; offset: number; format: number }[] = [];
    for (let i = 0, n = d.getUint16(cmap + 2); i < n; i++) {
      const at = cmap + 4 + 8 * i;
      const offset = cmap + d.getUint32(at + 4);
      subtables.push({ platform: d.getUint16(at), encoding: d.getUint16(at + 2), offset, format: d.getUint16(offset) });
    }
    const unicode = (s: (typeof subtables)[number]) => s.platform === 0 || (s.platform === 3 && (s.encoding === 1 || s.encoding === 10));
    const chosen = subtables.find((s) => unicode(s) && s.format === 12) ?? subtables.find((s) => unicode(s) && s.format === 4);
    if (!chosen) throw new Error("font has no Unicode cmap");
    const at = chosen.offset;
    if (chosen.format === 12) {
      for (let i = 0, n = d.getUint32(at + 12); i < n; i++) {
        const group = at + 16 + 12 * i;
        const start = d.getUint32(group);
        const end = d.getUint32(group + 4);
        const first = d.getUint32(group + 8);
        for (let c = start; c <= end; c++) this.glyphOf.set(c, first + c - start);
      }
      return;
    }
    const segments = d.getUint16(at + 6) / 2;
    const ends = at + 14;
    const starts = ends + 2 * segments + 2;
    const deltas = starts + 2 * segments;
    const rangeOffsets = deltas + 2 * segments;
    for (let i = 0; i < segments; i++) {
      const start = d.getUint16(starts + 2 * i);
      const end = d.getUint16(ends + 2 * i);
      const delta = d.getUint16(deltas + 2 * i);
      const rangeOffset = d.getUint16(rangeOffsets + 2 * i);
      for (let c = start; c <= end && c !== 0xffff; c++) {
        let g: number;
        if (rangeOffset === 0) g = (c + delta) & 0xffff;
        else {
          g = d.getUint16(rangeOffsets + 2 * i + rangeOffset + 2 * (c - start));
          if (g !== 0) g = (g + delta) & 0xffff;
        }
        if (g !== 0) this.glyphOf.set(c, g);
      }
    }
  }

  /** Name id 6 from the Windows (UTF-16BE) or Macintosh (Roman) records. */
  private postScriptName(): string | undefined {
    const t = this.tables.get("name");
    if (!t) return undefined;
    const d = this.data;
    const strings = t.offset + d.getUint16(t.offset + 4);
    for (let i = 0, n = d.getUint16(t.offset + 2); i < n; i++) {
      const at = t.offset + 6 + 12 * i;
      if (d.getUint16(at + 6) !== 6) continue;
      const platform = d.getUint16(at);
      const length = d.getUint16(at + 8);
      const start = strings + d.getUint16(at + 10);
      let s = "";
      if (platform === 3 || platform === 0) for (let k = 0; k + 1 < length; k += 2) s += String.fromCharCode(d.getUint16(start + k));
      else for (let k = 0; k < length; k++) s += String.fromCharCode(this.bytes[start + k]);
      const clean = s.replace(/[^\x21-\x7e]|[[\](){}<>/%#]/g, "");
      if (clean) return clean;
    }
    return undefined;
  }
}

function pad4(n: number): number {
  return (n + 3) & ~3;
}

function checksum(bytes: Uint8Array): number {
  const padded = new Uint8Array(pad4(bytes.length));
  padded.set(bytes);
  const d = new DataView(padded.buffer);
  let sum = 0;
  for (let i = 0; i < padded.length; i += 4) sum = (sum + d.getUint32(i)) >>> 0;
  return sum;
}

/** An sfnt file from its tables (sorted by tag, 4-byte aligned, with checksums and head's adjustment). */
function assemble(tables: Map<string, Uint8Array>): Uint8Array {
  const tags = [...tables.keys()].sort();
  const n = tags.length;
  const headerSize = 12 + 16 * n;
  let size = headerSize;
  for (const tag of tags) size += pad4((tables.get(tag) as Uint8Array).length);
  const out = new Uint8Array(size);
  const d = new DataView(out.buffer);
  const power = 2 ** Math.floor(Math.log2(n));
  d.setUint32(0, 0x00010000);
  d.setUint16(4, n);
  d.setUint16(6, power * 16);
  d.setUint16(8, Math.log2(power));
  d.setUint16(10, n * 16 - power * 16);
  let at = headerSize;
  let headAt = -1;
  tags.forEach((tag, i) => {
    const bytes = tables.get(tag) as Uint8Array;
    const record = 12 + 16 * i;
    for (let k = 0; k < 4; k++) out[record + k] = tag.charCodeAt(k);
    d.setUint32(record + 4, checksum(bytes));
    d.setUint32(record + 8, at);
    d.setUint32(record + 12, bytes.length);
    out.set(bytes, at);
    if (tag === "head") headAt = at;
    at += pad4(bytes.length);
  });
  if (headAt >= 0) d.setUint32(headAt + 8, (0xb1b0afba - checksum(out)) >>> 0);
  return out;
}
