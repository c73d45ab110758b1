// The one place a lib/ reply (lib/reply.ts: a file, a page, an empty answer, a redirect) becomes
// an HTTP answer: its status, its media type, a download's Content-Disposition, a redirect's
// Location. The API's loader applies it to what a `raw` route's handler returns, the dashboard's
// pages to their downloads.
import type { Reply } from "../lib/reply";

const PLAIN = /^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * `attachment; filename="<name>"`; a name that is not plain ASCII (or holds a quote or a
 * backslash) gets an ASCII stand-in there and the exact name as `filename*` (RFC 6266 section
 * 4.3, RFC 8187), which every current browser prefers.
 */
export function contentDisposition(filename: string): string {
  if (PLAIN.test(filename)) return `attachment; filename="${filename}"`;
  const ascii = filename
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]|["\\]/g, "_");
  const exact = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

/** The HTTP answer of a reply: 302 (or its 303) with Location for a redirect; otherwise the body with its status (200) and headers. */
export function replyResponse(reply: Reply): Response {
  if ("redirect" in reply) return new Response(null, { status: reply.status ?? 302, headers: { location: reply.redirect, ...reply.headers } });
  const headers: Record<string, string> = { ...reply.headers };
  if (reply.contentType) headers["content-type"] = reply.contentType;
  if (reply.filename) headers["content-disposition"] = contentDisposition(reply.filename);
  return new Response(reply.body as BodyInit | null, { status: reply.status ?? 200, headers });
}
