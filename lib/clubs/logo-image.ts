// The image work behind the club's logo (lib/clubs/logo.ts): what a sent file is, read from its
// bytes (never from the Content-Type it was declared with), an SVG cleaned of everything that
// reaches outside the drawing, and the PNG renditions each use of the logo needs. SVG is drawn
// into PNGs here and never served as SVG: a served SVG runs its scripts in our origin, which is
// also the dashboard's, so only pixels leave. Images are decoded and resized with sharp (libvips),
// loaded with the first upload (docs/decisions.md, "The club's logo").
import type { Invalid } from "../errors";
import { lazy } from "../lazy";

/** The formats a logo may be sent in, as found in its bytes. */
export type LogoFormat = "png" | "jpeg" | "webp" | "svg";

/** Largest file accepted, in bytes (413 beyond). */
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;
/** Largest picture accepted, in pixels: a small file may still unpack to gigabytes (a "decompression bomb"). */
export const LOGO_MAX_PIXELS = 40_000_000;

/**
 * Every rendition made of an upload: its box in pixels and how the logo fills it. `inside`: the
 * whole logo, scaled down to fit (never up), its own proportions; `padded`: the logo centred in a
 * square of that side, inside the circle a wallet cuts out of it (Google shows the logo as a disc).
 */
export const LOGO_RENDITIONS = {
  /** `logo_url`: the public pages, the web card, the mails, the dashboard. */
  logo: { width: 512, height: 512, fit: "inside" },
  /** `logo_square_url`: Google Wallet's program logo (660 px, its recommended size), on white. */
  square: { width: 660, height: 660, fit: "padded" },
  /** `logo_horizontal_url`, and Apple Wallet's logo.png at @3x (160 x 50 points). */
  horizontal: { width: 480, height: 150, fit: "inside" },
  "apple-logo": { width: 160, height: 50, fit: "inside" },
  "apple-logo@2x": { width: 320, height: 100, fit: "inside" },
  /** Apple Wallet's icon.png (29 points, square), shown with notifications. */
  "apple-icon": { width: 29, height: 29, fit: "padded" },
  "apple-icon@2x": { width: 58, height: 58, fit: "padded" },
  "apple-icon@3x": { width: 87, height: 87, fit: "padded" },
} as const satisfies Record<string, { width: number; height: number; fit: "inside" | "padded" }>;

export type LogoVariant = keyof typeof LOGO_RENDITIONS;
export const LOGO_VARIANTS = Object.keys(LOGO_RENDITIONS) as LogoVariant[];

export type Rendition = { variant: LogoVariant; width: number; height: number; data: Buffer };

/** Where a refusal of the file points (422 `detail[].loc`): the multipart field, or the body itself. */
export const LOGO_FIELD = ["body", "file"] as const;

/** The sent file is none of the four formats (or does not decode as the one its bytes announce). */
export const notAnImage = (): Invalid => ({ loc: [...LOGO_FIELD], code: "LOGO_NOT_AN_IMAGE" });

/** The format of `bytes`, read from their first bytes (PNG, JPEG and WebP signatures; an XML document whose root is `<svg>`); null for anything else. */
export function sniffLogo(bytes: Uint8Array): LogoFormat | null {
  const at = (i: number, ...b: number[]) => b.every((v, k) => bytes[i + k] === v);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "png";
  if (at(0, 0xff, 0xd8, 0xff)) return "jpeg";
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return "webp";
  // An SVG is text: its root element, after any declaration, comments and doctype, is <svg.
  const head = new TextDecoder("utf-8", { fatal: false }).decode(bytes.subarray(0, 4096)).replace(/^\uFEFF/, "");
  const start = head.replace(/^(\s+|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>)*/i, "");
  return /^<svg[\s>/]/.test(start) ? "svg" : null;
}

// ---- SVG ------------------------------------------------------------------------------------

/**
 * Elements dropped with everything inside them: scripts, foreign content (HTML in the drawing),
 * inclusions of other files (librsvg draws `<xi:include parse="text">` of a local file as text),
 * embedded documents, and animation (a still logo needs none; `<set>` can rewrite a link).
 */
const DROPPED_ELEMENTS = new Set([
  "script",
  "foreignobject",
  "include",
  "iframe",
  "embed",
  "object",
  "audio",
  "video",
  "animate",
  "animatecolor",
  "animatemotion",
  "animatetransform",
  "set",
  "discard",
  "handler",
  "listener",
]);

/** A link the cleaned drawing may keep: to a part of itself, or a picture carried inline (a raster one: an inline SVG could carry its own links). */
const SAFE_LINK = /^\s*(#|data:image\/(png|jpeg|webp|gif);)/i;

const XML_OPTIONS = {
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  // A doctype's own entities are expanded once (old Illustrator files name the SVG namespace by
  // one), not within each other (no "billion laughs"); an external entity is refused.
  processEntities: true,
  allowBooleanAttributes: true,
  commentPropName: "#comment",
  cdataPropName: "#cdata",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
} as const;

type XmlNode = Record<string, unknown> & { ":@"?: Record<string, string> };

const localName = (name: string) => name.slice(name.indexOf(":") + 1).toLowerCase();

/** CSS with its imports removed and every `url(...)` that points outside the drawing replaced by `none`. */
function cleanCss(css: string): string {
  return css.replace(/@import[^;]*;?/gi, "").replace(/url\(\s*(['"]?)(?!#)[^)]*\)/gi, "none");
}

/** A text or CDATA child of a `<style>` element, its CSS cleaned. */
function cleanStyleText(node: XmlNode): XmlNode {
  if (typeof node["#text"] === "string") return { "#text": cleanCss(node["#text"]) };
  if (Array.isArray(node["#cdata"])) return { "#cdata": (node["#cdata"] as XmlNode[]).map(cleanStyleText) };
  return node;
}

function cleanAttributes(attrs: Record<string, string>): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(attrs)) {
    const local = localName(name);
    if (local.startsWith("on")) continue;
    if ((local === "href" || local === "src") && !SAFE_LINK.test(String(value))) continue;
    if (name.toLowerCase() === "xml:base") continue;
    // A presentation attribute may name an outside resource too (fill="url(https://...)").
    out[name] = local === "style" || /url\s*\(/i.test(String(value)) ? cleanCss(String(value)) : value;
  }
  return Object.keys(out).length ? out : undefined;
}

function cleanNodes(nodes: XmlNode[]): XmlNode[] {
  const out: XmlNode[] = [];
  for (const node of nodes) {
    const name = Object.keys(node).find((k) => k !== ":@");
    if (!name) continue;
    if (name === "#text" || name === "#comment") {
      if (name === "#text") out.push(node);
      continue;
    }
    if (name === "#cdata") {
      out.push(node);
      continue;
    }
    if (DROPPED_ELEMENTS.has(localName(name))) continue;
    let children = cleanNodes((node[name] as XmlNode[]) ?? []);
    if (localName(name) === "style") children = children.map(cleanStyleText);
    const cleaned: XmlNode = { [name]: children };
    const attrs = node[":@"] ? cleanAttributes(node[":@"]) : undefined;
    if (attrs) cleaned[":@"] = attrs;
    out.push(cleaned);
  }
  return out;
}

/** The XML parser and builder load with the first SVG logo (lib/lazy). */
const xmlPackage = lazy(() => import("fast-xml-parser"));

/**
 * The SVG `text` without what could act or reach outside the drawing: scripts, `on*` event
 * handlers, foreign content, inclusions, animation, links that are not to a part of the drawing
 * (or an inline raster picture), CSS imports and outside `url()`s, the doctype (its own entities
 * expanded). Null when it is not well-formed XML with an `<svg>` root, or names an external entity.
 */
export async function sanitizeSvg(text: string): Promise<string | null> {
  const { XMLBuilder, XMLParser, XMLValidator } = await xmlPackage();
  let tree: XmlNode[];
  try {
    if (XMLValidator.validate(text) !== true) return null;
    tree = new XMLParser(XML_OPTIONS).parse(text) as XmlNode[];
  } catch {
    return null;
  }
  const cleaned = cleanNodes(tree).filter((n) => !("#text" in n) || String(n["#text"]).trim() !== "");
  if (cleaned.length !== 1 || localName(Object.keys(cleaned[0]).find((k) => k !== ":@") ?? "") !== "svg") return null;
  return String(new XMLBuilder({ ...XML_OPTIONS, suppressEmptyNode: true }).build(cleaned));
}

// ---- Renditions -----------------------------------------------------------------------------

const sharpModule = lazy(async () => {
  const sharp = (await import("sharp")).default;
  // Nothing is kept between uploads: each one is decoded once, and the process stays small.
  sharp.cache(false);
  return sharp;
});

/** The longest side an SVG is drawn at before it is resized: enough for the largest rendition. */
export const SVG_DRAWN_AT = 1024;
/** The side of the padded square the logo itself takes: inside the circle a wallet cuts out of it. */
const PADDED_SHARE = Math.SQRT1_2 * 0.96;

/**
 * The renditions of a logo sent as `bytes`, every one a PNG (LOGO_RENDITIONS). Refuses (422
 * `LOGO_NOT_AN_IMAGE`, `LOGO_TOO_MANY_PIXELS`, `LOGO_TOO_COMPLEX`) a file that is none of the four
 * formats, that does not decode as the format its bytes announce, whose picture is larger than
 * LOGO_MAX_PIXELS, or an SVG that does not draw within SVG_DRAW_LIMIT_MS (`drawSvg`).
 * The size limit (LOGO_MAX_BYTES) is the caller's: it knows how the file came.
 */
export async function logoRenditions(bytes: Uint8Array): Promise<{ ok: true; format: LogoFormat; renditions: Rendition[] } | { ok: false; invalid: Invalid }> {
  const format = sniffLogo(bytes);
  if (!format) return { ok: false, invalid: notAnImage() };
  const sharp = await sharpModule();
  let master: Buffer;
  if (format === "svg") {
    const clean = await sanitizeSvg(new TextDecoder().decode(bytes));
    if (!clean) return { ok: false, invalid: notAnImage() };
    const drawn = await drawSvg(clean);
    if (!drawn.ok) return drawn;
    master = drawn.png;
  } else {
    try {
      const image = sharp(Buffer.from(bytes), { limitInputPixels: LOGO_MAX_PIXELS });
      // What sharp read must be what the bytes announced: a GIF or a TIFF behind another name is refused.
      if ((await image.metadata()).format !== format) return { ok: false, invalid: notAnImage() };
      // Turned upright as the camera said (EXIF orientation), then drawn once at the largest size any rendition needs.
      master = await image.rotate().resize(1024, 1024, { fit: "inside", withoutEnlargement: true }).ensureAlpha().png().toBuffer();
    } catch (err) {
      return { ok: false, invalid: refusalOf(err) };
    }
  }
  const renditions: Rendition[] = [];
  try {
    for (const variant of LOGO_VARIANTS) renditions.push(await render(sharp, master, variant));
  } catch {
    // A master that does not decode (a drawing child's broken output) is the file's fault, not a 500.
    return { ok: false, invalid: notAnImage() };
  }
  return { ok: true, format, renditions };
}

function refusalOf(err: unknown): Invalid {
  const message = err instanceof Error ? err.message : "";
  if (/pixel limit/i.test(message)) return tooManyPixels();
  return notAnImage();
}

const tooManyPixels = (): Invalid => ({ loc: [...LOGO_FIELD], code: "LOGO_TOO_MANY_PIXELS", params: { max: LOGO_MAX_PIXELS } });

// ---- SVG drawn in a child process -----------------------------------------------------------

/**
 * CPU time an SVG logo may take to draw, the child's start included (the child stops itself:
 * lib/clubs/draw-svg). Measured
 * (docs/decisions.md, "logo27"): a plain logo takes 0.1-0.2 s of CPU in the child, the heaviest
 * real ones found (an 880 KB traced logo, one with six blurs) 1.5-1.8 s, 1.7-3.8 s of wall
 * clock on a loaded host; the fuzzer's filter bomb 14.5 s. Past the heavy real ones with room,
 * and short enough that a bomb holds a core for seconds, not minutes.
 */
export const SVG_DRAW_LIMIT_MS = 5000;
/**
 * The server kills a drawing child after this many times its limit in wall-clock time: for a child
 * whose own watch never runs. A host so loaded that an ordinary logo waits that long is not served
 * anyway; the CPU limit is the one a logo meets.
 */
export const SVG_DRAW_WALL_FACTOR = 4;
/** Most a drawing child may write: a 1024 px RGBA PNG stored raw is 4 MiB and some. */
const DRAWN_MAX_BYTES = 6 * 1024 * 1024;
/** The drawing child's exit codes (lib/clubs/draw-svg). */
export const DRAW_EXIT = { drawn: 0, notAnImage: 2, tooManyPixels: 3, timedOut: 4 } as const;
const DRAW_SCRIPT = `${import.meta.dir}/draw-svg.ts`;

/** Drawings at once; the next waits its turn: bombs sent together hold at most half the cores for SVG_DRAW_LIMIT_MS each. */
const DRAWINGS_AT_ONCE = Math.max(1, Math.floor(navigator.hardwareConcurrency / 2));
let drawings = 0;
const waiting: (() => void)[] = [];

async function drawingTurn(): Promise<() => void> {
  if (drawings < DRAWINGS_AT_ONCE) drawings++;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  // Handed on to the next in line, or given back.
  return () => {
    const next = waiting.shift();
    if (next) next();
    else drawings--;
  };
}

/**
 * The cleaned SVG `svg` drawn into the master PNG (longest side SVG_DRAWN_AT) by a child process
 * (lib/clubs/draw-svg), stopped when it has spent SVG_DRAW_LIMIT_MS of CPU: librsvg cannot be stopped
 * inside this process, and a few hundred bytes of filters or nested `<use>` draw for many seconds.
 * 422 `LOGO_TOO_COMPLEX` past the limit; `LOGO_NOT_AN_IMAGE` for a child that fails, crashes or
 * writes anything but a PNG of at most SVG_DRAWN_AT pixels a side. No child outlives the call.
 */
export async function drawSvg(
  svg: string,
  how: { command?: string[]; limitMs?: number } = {},
): Promise<{ ok: true; png: Buffer } | { ok: false; invalid: Invalid }> {
  const limitMs = how.limitMs ?? SVG_DRAW_LIMIT_MS;
  const release = await drawingTurn();
  try {
    return await drawInChild(svg, how.command ?? [process.execPath, DRAW_SCRIPT, String(limitMs)], limitMs);
  } finally {
    release();
  }
}

async function drawInChild(svg: string, cmd: string[], limitMs: number): Promise<{ ok: true; png: Buffer } | { ok: false; invalid: Invalid }> {
  // None of the server's environment (its database address, its secrets) reaches the process that reads hostile files.
  const child = Bun.spawn(cmd, { stdin: Buffer.from(svg), stdout: "pipe", stderr: "ignore", env: {} });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, limitMs * SVG_DRAW_WALL_FACTOR);
  try {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of child.stdout) {
      size += chunk.length;
      if (size > DRAWN_MAX_BYTES) return { ok: false, invalid: notAnImage() };
      chunks.push(chunk);
    }
    const code = await child.exited;
    if (timedOut || code === DRAW_EXIT.timedOut) return { ok: false, invalid: tooComplex(limitMs) };
    if (code === DRAW_EXIT.tooManyPixels) return { ok: false, invalid: tooManyPixels() };
    if (code !== DRAW_EXIT.drawn) return { ok: false, invalid: notAnImage() };
    const png = Buffer.concat(chunks);
    // Only a whole PNG no larger than asked for goes on to be resized here (decoding its 1024 px takes milliseconds).
    const sharp = await sharpModule();
    const meta = await sharp(png)
      .metadata()
      .catch(() => null);
    if (meta?.format !== "png" || !meta.width || !meta.height || Math.max(meta.width, meta.height) > SVG_DRAWN_AT) return { ok: false, invalid: notAnImage() };
    const whole = await sharp(png)
      .raw()
      .toBuffer()
      .then(
        () => true,
        () => false,
      );
    return whole ? { ok: true, png } : { ok: false, invalid: notAnImage() };
  } catch {
    return { ok: false, invalid: timedOut ? tooComplex(limitMs) : notAnImage() };
  } finally {
    clearTimeout(timer);
    // Refused for its output before it ended: killed, and waited for, so that not even its entry in the process table stays.
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await child.exited;
    }
  }
}

const tooComplex = (limitMs: number): Invalid => ({ loc: [...LOGO_FIELD], code: "LOGO_TOO_COMPLEX", params: { seconds: limitMs / 1000 } });

type Sharp = Awaited<ReturnType<typeof sharpModule>>;

async function render(sharp: Sharp, master: Buffer, variant: LogoVariant): Promise<Rendition> {
  const box = LOGO_RENDITIONS[variant];
  const png = { compressionLevel: 9, adaptiveFiltering: true } as const;
  if (box.fit === "inside") {
    const { data, info } = await sharp(master)
      .resize(box.width, box.height, { fit: "inside", withoutEnlargement: true })
      .png(png)
      .toBuffer({ resolveWithObject: true });
    return { variant, width: info.width, height: info.height, data };
  }
  const inner = Math.max(1, Math.floor(box.width * PADDED_SHARE));
  const logo = await sharp(master).resize(inner, inner, { fit: "inside" }).png().toBuffer();
  // Google's disc is drawn on white; Apple's icon keeps the logo's own transparency.
  const background = variant === "square" ? { r: 255, g: 255, b: 255, alpha: 1 } : { r: 0, g: 0, b: 0, alpha: 0 };
  const data = await sharp({ create: { width: box.width, height: box.height, channels: 4, background } })
    .composite([{ input: logo, gravity: "centre" }])
    .png(png)
    .toBuffer();
  return { variant, width: box.width, height: box.height, data };
}

/**
 * A PNG as an opaque PNG on white (RGB, no alpha): what PDFKit embeds as it is, its compressed
 * rows copied into the PDF, where a PNG with transparency is decoded, split and compressed again
 * for every document (lib/invoices/pdf.ts). The page is white, so it prints the same.
 */
export async function pngOnWhite(png: Uint8Array): Promise<Buffer> {
  const sharp = await sharpModule();
  return sharp(png)
    .flatten({ background: { r: 255, g: 255, b: 255 } })
    .png()
    .toBuffer();
}

/** A PNG's pixels as a PDF takes them: RGB and the alpha channel apart (lib/pdf `PdfImage`). */
export async function pngPixels(png: Uint8Array): Promise<{ width: number; height: number; rgb: Uint8Array; alpha: Uint8Array }> {
  const sharp = await sharpModule();
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const pixels = info.width * info.height;
  const rgb = new Uint8Array(pixels * 3);
  const alpha = new Uint8Array(pixels);
  for (let i = 0; i < pixels; i++) {
    rgb[i * 3] = data[i * 4];
    rgb[i * 3 + 1] = data[i * 4 + 1];
    rgb[i * 3 + 2] = data[i * 4 + 2];
    alpha[i] = data[i * 4 + 3];
  }
  return { width: info.width, height: info.height, rgb, alpha };
}
