// The look of a club's mail: its logo and name on a band of its primary colour, the paragraphs,
// one button in its secondary colour, the sign-off; and the same as plain text (the link written
// out). Inline styles and tables only (mail clients drop <style> and most CSS). The one thing
// loaded is the club's logo, from our own public address (lib/clubs/logo): a client that holds
// back images still shows the name beside it.
import type { MailMessage } from "./index";

/** Escapes text for HTML. */
export const escapeMailHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Replaces each `{name}` of `text` by `params[name]` (unknown names stay as they are). */
export const fillText = (text: string, params: Record<string, string>) => text.replace(/\{(\w+)\}/g, (m, k: string) => params[k] ?? m);

export type MailBrand = {
  name: string;
  primary: string;
  onPrimary: string;
  secondary: string;
  onSecondary: string;
  /** The club's logo (`logo_url`, http(s) only); none: the name alone. */
  logoUrl?: string | null;
};

/** The band's height in pixels: the logo is drawn this high, its width following. */
const LOGO_HEIGHT = 40;

export type MailContent = {
  /** Paragraphs; a `\n` inside one is a line break. */
  paragraphs: string[];
  action?: { label: string; url: string };
  /** Paragraphs after the button (a code, a note). */
  after?: string[];
  /** The sign-off line ("See you soon,"), followed by the club's name. */
  bye: string;
};

/** The text and HTML bodies of a club's mail. */
export function brandedBody(brand: MailBrand, content: MailContent): Pick<MailMessage, "text" | "html"> {
  const after = content.after ?? [];
  const text = [
    ...content.paragraphs,
    ...(content.action ? [`${content.action.label}: ${content.action.url}`] : []),
    ...after,
    `${content.bye}\n${brand.name}`,
  ].join("\n\n");
  const button = content.action
    ? `<p style="margin:8px 0 24px"><a href="${escapeMailHtml(content.action.url)}" style="display:inline-block;padding:12px 20px;border-radius:8px;background:${brand.secondary};color:${brand.onSecondary};font-weight:bold;text-decoration:none;font-size:16px">${escapeMailHtml(content.action.label)}</a></p>`
    : "";
  const html = brandedFrame(
    brand,
    `${content.paragraphs.map(mailParagraph).join("")}${button}${after.map(mailParagraph).join("")}${mailParagraph(`${content.bye}\n${brand.name}`)}`,
  );
  return { text, html };
}

/** The style of a paragraph of a club's mail (the layout's, and a mailing's Markdown). */
export const MAIL_PARAGRAPH_STYLE = "margin:0 0 16px;font-size:16px;line-height:1.5;color:#111827";

/** One paragraph of text, escaped; a `\n` is a line break. */
const mailParagraph = (s: string) => `<p style="${MAIL_PARAGRAPH_STYLE}">${escapeMailHtml(s).replace(/\n/g, "<br>")}</p>`;

/**
 * The club's frame around `inner` (HTML already safe: escaped text, or markup we made): its logo
 * and name on a band of its primary colour, a white card at most 560 px wide, and `footer`
 * (small, grey) below the card.
 */
export function brandedFrame(brand: MailBrand, inner: string, footer = ""): string {
  // On a white tile, as the pages show it: a dark logo stays visible on a dark band.
  const logo = brand.logoUrl
    ? `<img src="${escapeMailHtml(brand.logoUrl)}" alt="" height="${LOGO_HEIGHT}" style="height:${LOGO_HEIGHT}px;width:auto;max-width:160px;vertical-align:middle;margin-right:12px;background:#FFFFFF;border-radius:8px;padding:4px">`
    : "";
  const below = footer ? `<tr><td style="padding:16px 24px;font-size:13px;line-height:1.5;color:#4B5563">${footer}</td></tr>` : "";
  // Light only, said so: a client in dark mode then keeps these colours (or inverts all of them)
  // rather than darkening the background under our dark text. The viewport: 390 px phones.
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="light"><meta name="supported-color-schemes" content="light"></head><body style="margin:0;padding:0;background:#F3F4F6;font-family:Arial,Helvetica,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#F3F4F6"><tr><td align="center" style="padding:16px 8px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#FFFFFF;border-radius:12px;overflow:hidden">
<tr><td style="background:${brand.primary};color:${brand.onPrimary};padding:18px 24px;font-size:20px;font-weight:bold">${logo}${escapeMailHtml(brand.name)}</td></tr>
<tr><td style="padding:24px">${inner}</td></tr>
</table>${below ? `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px">${below}</table>` : ""}</td></tr></table></body></html>`;
}
