// The club's logo (issue 32): uploaded by an admin (PUT /api/clubs/<club>/logo, the dashboard's
// settings), made into the renditions each use needs (lib/clubs/logo-image), kept in the database
// (club_logos: every process on every machine serves the same file) and served from our own
// public address (GET /logos/<club>/<rendition>.png). The club's `logo_url`, `logo_square_url`
// and `logo_horizontal_url` name those addresses, which carry the rendition's hash (`?v=`): a new
// logo is a new address, so what browsers, mail clients and Google have kept never goes stale.
// SPEC "Club update payload": the logo fields are not writable through PUT /api/clubs/<club>.
import { type AnyColumn, and, eq, isNotNull, isNull, ne, or } from "drizzle-orm";
import type { Queryable } from "../../db";
import { clubLogos, clubs } from "../../db/schema";
import { type Ctx, type PublicCtx, verb } from "../context";
import { NotFound, PayloadTooLarge, ValidationFailed } from "../errors";
import { nowIso } from "../ids";
import { queuePassUpdate } from "../passes";
import type { AddressRate } from "../ratelimit";
import type { FileReply } from "../reply";
import { toClubAdmin } from "./index";
import { LOGO_FIELD, LOGO_MAX_BYTES, LOGO_VARIANTS, type LogoVariant, logoRenditions, pngOnWhite, pngPixels, SVG_DRAW_LIMIT_MS } from "./logo-image";
import type { ClubAdmin } from "./schemas";

export { LOGO_MAX_BYTES, LOGO_VARIANTS, type LogoVariant, SVG_DRAW_LIMIT_MS };

/**
 * Requests a minute per client address for the logo's public files. More than the card pages'
 * (lib/cards/public-limit): a page, a card and a mail each load the logo, and a club night puts
 * every member behind one address; a browser keeps the file a year once it has it.
 */
export const LOGO_RATE: AddressRate = { scope: "logos", perMinute: 600 };

/** The public path of a rendition: `/logos/<club>/<variant>.png`. */
export const logoPath = (clubId: string, variant: LogoVariant) => `/logos/${clubId}/${variant}.png`;

/** The public address of a rendition, with its hash as `v` (a new logo, a new address). */
export const logoUrl = (baseUrl: string, clubId: string, variant: LogoVariant, etag: string) => `${baseUrl}${logoPath(clubId, variant)}?v=${etag}`;

/** The file of an upload: the body's bytes (sent as the image itself), or a multipart form's `file`; null when there is none. */
export async function logoFileFromBody(body: unknown): Promise<Uint8Array | null> {
  if (body instanceof Uint8Array) return body.length ? body : null;
  if (body instanceof ArrayBuffer) return body.byteLength ? new Uint8Array(body) : null;
  const file = body && typeof body === "object" ? (body as { file?: unknown }).file : undefined;
  if (file instanceof Blob) return file.size ? new Uint8Array(await file.arrayBuffer()) : null;
  return null;
}

/** A short hash of a rendition's bytes: its ETag and the `v` of its address. */
const etagOf = (data: Uint8Array) => new Bun.CryptoHasher("sha256").update(data).digest("hex").slice(0, 20);

/**
 * Sets the club's logo from `file` (PNG, JPEG, WebP or SVG, told by its bytes; an SVG is cleaned,
 * then drawn): stores its renditions, points `logo_url`, `logo_square_url` and
 * `logo_horizontal_url` at them, clears `logo_circular_url`, and queues the update of the club's
 * wallet passes. 413 past LOGO_MAX_BYTES; 422 naming `file` for a file that is no such image (or
 * none). Scope `page:edit`, as the club's other branding (DESIGN.md section 4, PUT /api/clubs/<club>).
 */
export const uploadClubLogo = verb("page:edit", async function uploadClubLogo(ctx: Ctx, input: { file: Uint8Array | null }): Promise<ClubAdmin> {
  const { file } = input;
  if (!file?.length) throw new ValidationFailed([{ loc: [...LOGO_FIELD], code: "LOGO_FILE_MISSING" }]);
  if (file.length > LOGO_MAX_BYTES) throw new PayloadTooLarge({ max: LOGO_MAX_BYTES });
  // Decoded and resized before the transaction: seconds of CPU at worst, never while holding the writer.
  const made = await logoRenditions(file);
  if (!made.ok) throw new ValidationFailed([made.invalid]);
  const now = nowIso();
  const rows = made.renditions.map((r) => ({
    club_id: ctx.clubId,
    variant: r.variant,
    content_type: "image/png",
    width: r.width,
    height: r.height,
    data: r.data,
    etag: etagOf(r.data),
    created_at: now,
  }));
  const etag = (variant: LogoVariant) => rows.find((r) => r.variant === variant)?.etag as string;
  // The fourth logo field, `logo_circular_url`, is cleared: no rendition is cut round (a wallet cuts the square itself).
  const fields = {
    logo_url: logoUrl(ctx.baseUrl, ctx.clubId, "logo", etag("logo")),
    logo_square_url: logoUrl(ctx.baseUrl, ctx.clubId, "square", etag("square")),
    logo_horizontal_url: logoUrl(ctx.baseUrl, ctx.clubId, "horizontal", etag("horizontal")),
    logo_circular_url: null,
  };
  return ctx.db.tx(async (t) => {
    const changed = await setLogoFields(t, ctx.clubId, fields, now);
    if (changed) {
      await t.delete(clubLogos).where(eq(clubLogos.club_id, ctx.clubId));
      await t.insert(clubLogos).values(rows);
      await queuePassUpdate(t, ctx.clubId, null, "logo_url");
    }
    return toClubAdmin(changed ?? (await clubRowIn(t, ctx.clubId)), ctx.actor, !!ctx.stripe);
  });
});

/** Removes the club's logo: its renditions and the four logo fields; the wallet passes are updated. Scope `page:edit`. */
export const removeClubLogo = verb("page:edit", async function removeClubLogo(ctx: Ctx, _input: Record<string, never>): Promise<ClubAdmin> {
  return ctx.db.tx(async (t) => {
    const none = { logo_url: null, logo_square_url: null, logo_horizontal_url: null, logo_circular_url: null };
    const changed = await setLogoFields(t, ctx.clubId, none, nowIso());
    // A club without a logo stays as it is: no row to delete, its passes not sent again. (An
    // unconditional delete here took the images of an upload committed meanwhile, its fields kept.)
    if (changed) {
      await t.delete(clubLogos).where(eq(clubLogos.club_id, ctx.clubId));
      await queuePassUpdate(t, ctx.clubId, null, "logo_url");
    }
    return toClubAdmin(changed ?? (await clubRowIn(t, ctx.clubId)), ctx.actor, !!ctx.stripe);
  });
});

type LogoFields = Pick<typeof clubs.$inferInsert, "logo_url" | "logo_square_url" | "logo_horizontal_url" | "logo_circular_url">;

/** `column` is not `value` (null counted as a value). */
const differs = (column: AnyColumn, value: string | null | undefined) => (value == null ? isNotNull(column) : or(isNull(column), ne(column, value)));

/**
 * Writes the club's logo fields where one of them differs, first in the transaction: the club's
 * row is then locked (on PostgreSQL) until it commits, so two uploads at once replace the
 * renditions one after the other and the fields always name the renditions stored. The club as
 * written; null when it already had these fields (nothing else to do).
 */
async function setLogoFields(t: Queryable, clubId: string, set: LogoFields, now: string) {
  const [club] = await t
    .update(clubs)
    .set({ ...set, updated_at: now })
    .where(
      and(
        eq(clubs.id, clubId),
        or(
          differs(clubs.logo_url, set.logo_url),
          differs(clubs.logo_square_url, set.logo_square_url),
          differs(clubs.logo_horizontal_url, set.logo_horizontal_url),
          differs(clubs.logo_circular_url, set.logo_circular_url),
        ),
      ),
    )
    .returning();
  return club ?? null;
}

async function clubRowIn(t: Queryable, clubId: string) {
  const [club] = await t.select().from(clubs).where(eq(clubs.id, clubId)).limit(1);
  if (!club) throw new NotFound("CLUB_NOT_FOUND");
  return club;
}

/** Whether an If-None-Match header names `etag` (or is `*`). */
function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim().replace(/^W\//, "");
    return t === "*" || t === `"${etag}"`;
  });
}

/**
 * A rendition of club `club_id`'s logo as the public answers it: the PNG with its ETag, 304 when
 * the client has it already. Kept a year when asked by the address the club names (`v` is the
 * file's hash, so that address never changes content); five minutes otherwise. 404
 * `LOGO_NOT_FOUND` when the club has none. Only pixels are served (never an uploaded SVG), and
 * `nosniff` with an empty CSP keeps a browser from reading them as anything else.
 */
export async function logoFile(ctx: PublicCtx, input: { club_id: string; variant: LogoVariant; v?: string; ifNoneMatch: string | null }): Promise<FileReply> {
  const [row] = await ctx.db.read
    .select({ data: clubLogos.data, etag: clubLogos.etag, content_type: clubLogos.content_type })
    .from(clubLogos)
    .where(and(eq(clubLogos.club_id, input.club_id), eq(clubLogos.variant, input.variant)))
    .limit(1);
  if (!row) throw new NotFound("LOGO_NOT_FOUND");
  const headers: Record<string, string> = {
    etag: `"${row.etag}"`,
    "cache-control": input.v === row.etag ? "public, max-age=31536000, immutable" : "public, max-age=300",
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; sandbox",
    // Shown by other sites too: Google's wallet, mail clients, a club's own site.
    "cross-origin-resource-policy": "cross-origin",
  };
  if (matches(input.ifNoneMatch, row.etag)) return { status: 304, body: null, headers };
  return { body: new Uint8Array(row.data), contentType: row.content_type, headers };
}

/** The bytes of one rendition of the club's logo, or null when it has none (the wallet pass, the roster). */
export async function logoImage(q: Queryable, clubId: string, variant: LogoVariant): Promise<Buffer | null> {
  const [row] = await q
    .select({ data: clubLogos.data })
    .from(clubLogos)
    .where(and(eq(clubLogos.club_id, clubId), eq(clubLogos.variant, variant)))
    .limit(1);
  return row ? Buffer.from(row.data) : null;
}

/** Logos on white as invoices print them, by rendition hash (`etag`); the oldest dropped past LOGOS_ON_WHITE. */
const logosOnWhite = new Map<string, Promise<Buffer>>();
const LOGOS_ON_WHITE = 32;

/**
 * The club's horizontal logo on white (`pngOnWhite`), or null when it has none: what an invoice's
 * PDF draws. Made once per logo and process and kept by the rendition's hash: a new logo is made
 * anew, an unchanged one is neither read nor made again.
 */
export async function logoOnWhite(q: Queryable, clubId: string): Promise<Buffer | null> {
  const where = and(eq(clubLogos.club_id, clubId), eq(clubLogos.variant, "horizontal"));
  const [row] = await q.select({ etag: clubLogos.etag }).from(clubLogos).where(where).limit(1);
  if (!row) return null;
  const kept = logosOnWhite.get(row.etag);
  if (kept) return kept;
  // Read with its hash: a logo replaced since the first read is kept under its own.
  const [file] = await q.select({ etag: clubLogos.etag, data: clubLogos.data }).from(clubLogos).where(where).limit(1);
  if (!file) return null;
  const made = pngOnWhite(file.data);
  made.catch(() => logosOnWhite.delete(file.etag));
  if (logosOnWhite.size >= LOGOS_ON_WHITE) logosOnWhite.delete(logosOnWhite.keys().next().value as string);
  logosOnWhite.set(file.etag, made);
  return made;
}

/** Apple Wallet's images of the club's logo (icon.png, logo.png and their @2x, @3x), or null when it has none. */
export async function passLogoImages(q: Queryable, clubId: string): Promise<Record<string, Buffer> | null> {
  const rows = await q.select({ variant: clubLogos.variant, data: clubLogos.data }).from(clubLogos).where(eq(clubLogos.club_id, clubId));
  const of = (variant: LogoVariant) => rows.find((r) => r.variant === variant)?.data;
  const files = {
    "icon.png": of("apple-icon"),
    "icon@2x.png": of("apple-icon@2x"),
    "icon@3x.png": of("apple-icon@3x"),
    "logo.png": of("apple-logo"),
    "logo@2x.png": of("apple-logo@2x"),
    "logo@3x.png": of("horizontal"),
  };
  if (Object.values(files).some((f) => !f)) return null;
  return Object.fromEntries(Object.entries(files).map(([name, data]) => [name, Buffer.from(data as Uint8Array)]));
}

/** The club's logo as a PDF draws it (its horizontal rendition's pixels), or null when it has none. */
export async function logoForPdf(q: Queryable, clubId: string) {
  const png = await logoImage(q, clubId, "horizontal");
  return png ? pngPixels(png) : null;
}
