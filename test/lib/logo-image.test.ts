// The image work behind the club's logo (lib/clubs/logo-image): a file's format told by its bytes,
// an SVG cleaned of what acts or reaches outside the drawing, and the renditions (all PNG, in
// their boxes), refusals coded for a file that is no image or too many pixels.
import { describe, expect, it } from "bun:test";
import sharp from "sharp";
import { drawSvg, LOGO_RENDITIONS, LOGO_VARIANTS, logoRenditions, SVG_DRAW_WALL_FACTOR, sanitizeSvg, sniffLogo } from "../../lib/clubs/logo-image";
import { drawingChildren, FILTER_BOMB_SVG, HOSTILE_SVG } from "../logo-fixtures";

const bytes = (s: string) => new TextEncoder().encode(s);
const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: "#1D4ED8" } })
    .png()
    .toBuffer();

describe("the format is told by the bytes", () => {
  it("knows PNG, JPEG, WebP and SVG by their signatures, and nothing else", async () => {
    const img = sharp({ create: { width: 4, height: 4, channels: 3, background: "#000" } });
    expect(sniffLogo(await img.clone().png().toBuffer())).toBe("png");
    expect(sniffLogo(await img.clone().jpeg().toBuffer())).toBe("jpeg");
    expect(sniffLogo(await img.clone().webp().toBuffer())).toBe("webp");
    expect(sniffLogo(bytes('\uFEFF<?xml version="1.0"?>\n<!-- made by hand -->\n<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe("svg");
    expect(sniffLogo(await img.clone().gif().toBuffer())).toBeNull();
    expect(sniffLogo(bytes("<html><svg></svg></html>"))).toBeNull();
    expect(sniffLogo(bytes("%PDF-1.7"))).toBeNull();
    expect(sniffLogo(new Uint8Array())).toBeNull();
  });
});

describe("an SVG is cleaned before it is drawn", () => {
  it("keeps no script, event handler, foreign content, inclusion, animation or outside link", async () => {
    const clean = (await sanitizeSvg(HOSTILE_SVG)) as string;
    expect(clean).not.toBeNull();
    for (const gone of [
      /<script/i,
      /\son\w+=/i,
      /foreignObject/i,
      /xi:include/i,
      /<set\b/i,
      /evil\.example/,
      /file:/,
      /javascript:/,
      /@import/,
      /ENTITY/,
      /DOCTYPE/,
      /w3\.org\/Graphics/,
    ])
      expect(clean).not.toMatch(gone);
    // What draws stays: shapes, text, a link to a part of the drawing, its own url(#...).
    expect(clean).toContain('<rect class="a" width="300" height="100" fill="#1D4ED8"');
    expect(clean).toContain(">Club</text>");
    expect(clean).toContain('<use href="#g"/>');
    expect(clean).toContain("url(#g)");
  });

  it("refuses what is not well-formed XML with an <svg> root, and an external entity", async () => {
    expect(await sanitizeSvg("<svg><g></svg>")).toBeNull();
    expect(await sanitizeSvg('<html xmlns="http://www.w3.org/1999/xhtml"/>')).toBeNull();
    expect(await sanitizeSvg('<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg><text>&x;</text></svg>')).toBeNull();
  });
});

describe("renditions", () => {
  it("makes every rendition a PNG within its box, the padded ones exactly square", async () => {
    const made = await logoRenditions(await png(1200, 400));
    if (!made.ok) throw new Error(JSON.stringify(made.invalid));
    expect(made.format).toBe("png");
    expect(made.renditions.map((r) => r.variant)).toEqual(LOGO_VARIANTS);
    for (const r of made.renditions) {
      const meta = await sharp(r.data).metadata();
      expect(meta.format).toBe("png");
      expect([meta.width, meta.height]).toEqual([r.width, r.height]);
      const box = LOGO_RENDITIONS[r.variant];
      expect(r.width).toBeLessThanOrEqual(box.width);
      expect(r.height).toBeLessThanOrEqual(box.height);
      if (box.fit === "padded") expect([r.width, r.height]).toEqual([box.width, box.height]);
    }
    // A 3:1 logo keeps its proportions: 512 x 171 for the pages.
    expect(made.renditions[0]).toMatchObject({ variant: "logo", width: 512, height: 171 });
  });

  it("never enlarges a small logo", async () => {
    const made = await logoRenditions(await png(100, 50));
    if (!made.ok) throw new Error("refused");
    expect(made.renditions.find((r) => r.variant === "logo")).toMatchObject({ width: 100, height: 50 });
  });

  it("draws the hostile SVG as pixels: its PNG carries none of its text", async () => {
    const made = await logoRenditions(bytes(HOSTILE_SVG));
    if (!made.ok) throw new Error(JSON.stringify(made.invalid));
    expect(made.format).toBe("svg");
    const logo = made.renditions[0];
    expect(logo.width).toBe(512);
    const text = Buffer.from(logo.data).toString("latin1");
    expect(text.startsWith("\x89PNG")).toBe(true);
    expect(text).not.toMatch(/script|onload|evil|svg/i);
  });

  it("refuses a file whose bytes are no image, or that announces one format and holds another", async () => {
    const fake = await logoRenditions(bytes("\x89PNG\r\n\x1a\nthis is not a picture"));
    expect(fake).toEqual({ ok: false, invalid: { loc: ["body", "file"], code: "LOGO_NOT_AN_IMAGE" } });
    const text = await logoRenditions(bytes("hello"));
    expect(text.ok).toBe(false);
    const gif = await logoRenditions(
      await sharp({ create: { width: 4, height: 4, channels: 3, background: "#000" } })
        .gif()
        .toBuffer(),
    );
    expect(gif.ok).toBe(false);
  });

  it("refuses a picture of more than 40 million pixels, however small its file", async () => {
    // A 1-pixel PNG whose header says 8000 x 6000 (its checksum made again): refused before anything is unpacked.
    const huge = Buffer.from(await png(1, 1));
    huge.writeUInt32BE(8000, 16);
    huge.writeUInt32BE(6000, 20);
    huge.writeUInt32BE(Bun.hash.crc32(huge.subarray(12, 29)) >>> 0, 29);
    const made = await logoRenditions(huge);
    expect(made).toEqual({ ok: false, invalid: { loc: ["body", "file"], code: "LOGO_TOO_MANY_PIXELS", params: { max: 40_000_000 } } });
  });
});

describe("an SVG is drawn in a child process, killed when its time is up", () => {
  const SMALL = '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100"><rect width="300" height="100" fill="#1D4ED8"/></svg>';
  /** A drawing child made of `code`, run by Bun as the real one is. */
  const child = (code: string) => ({ command: [process.execPath, "-e", code] });
  const notAnImage = { ok: false as const, invalid: { loc: ["body", "file"], code: "LOGO_NOT_AN_IMAGE" as const } };

  it("draws a logo into the 1024 px master PNG", async () => {
    const drawn = await drawSvg(SMALL);
    if (!drawn.ok) throw new Error(JSON.stringify(drawn.invalid));
    const meta = await sharp(drawn.png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 1024, 341]);
  });

  it("refuses a drawing past its limit with LOGO_TOO_COMPLEX, in time, its child killed", async () => {
    const started = performance.now();
    const drawn = await drawSvg(FILTER_BOMB_SVG, { limitMs: 1000 });
    expect(drawn).toEqual({ ok: false, invalid: { loc: ["body", "file"], code: "LOGO_TOO_COMPLEX", params: { seconds: 1 } } });
    // Its own watch stops it after 1 s of CPU; the server's kill, at four times that, is the bound.
    expect(performance.now() - started).toBeLessThan(1000 * SVG_DRAW_WALL_FACTOR + 1000);
    expect(drawingChildren()).toEqual([]);
  });

  it("a child that hangs (its watch never stops it) is killed by the server and gone when the answer comes", async () => {
    const pidFile = `${process.env.TMPDIR ?? "/tmp"}/draw-child-${process.pid}-${Date.now()}`;
    const drawn = await drawSvg(SMALL, {
      ...child(`require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`),
      limitMs: 500,
    });
    expect(drawn.ok).toBe(false);
    if (!drawn.ok) expect(drawn.invalid.code).toBe("LOGO_TOO_COMPLEX");
    const pid = Number(await Bun.file(pidFile).text());
    await Bun.file(pidFile).delete();
    expect(() => process.kill(pid, 0)).toThrow();
  });

  it("a child that crashes, fails or writes anything but a whole PNG of at most 1024 px is LOGO_NOT_AN_IMAGE, never a throw", async () => {
    const small = (await png(10, 10)).toString("base64");
    const huge = (await png(2000, 10)).toString("base64");
    const truncated = (await png(300, 300)).subarray(0, 120).toString("base64");
    for (const code of [
      'process.kill(process.pid, "SIGSEGV")',
      "process.exit(1)",
      'process.stdout.write("garbage"); process.exit(0)',
      "process.exit(0)",
      `process.stdout.write(Buffer.from("${huge}", "base64"))`,
      `process.stdout.write(Buffer.from("${truncated}", "base64"))`,
      // Far more than a PNG of 1024 px: refused as it comes, the child killed.
      "const mb = Buffer.alloc(1 << 20, 65); const write = () => process.stdout.write(mb, write); write()",
    ])
      expect(await drawSvg(SMALL, { ...child(code), limitMs: 3000 })).toEqual(notAnImage);
    // The same harness with a whole small PNG is taken: what refused the others was their output.
    expect((await drawSvg(SMALL, child(`process.stdout.write(Buffer.from("${small}", "base64"))`))).ok).toBe(true);
    expect(drawingChildren()).toEqual([]);
  });
});
