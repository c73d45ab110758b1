// What a mailing's mail says and looks like: its merge fields checked and filled, its Markdown
// rendered by markdown-it with raw HTML off (a `<script>` or an `onerror=` in the body is shown
// as text, never as markup), inside the club's mail layout, with a plain-text part and the
// unsubscribe footer and headers (RFC 8058). Rendered once per mailing: each recipient's mail is
// the template with their values put in (escaped), so 10,000 mails cost one Markdown pass.
import type { Invalid } from "../errors";
import { MAILING_TEXTS } from "../i18n/mailings";
import type { MailMessage } from "../mail";
import { brandedFrame, escapeMailHtml, fillText, MAIL_PARAGRAPH_STYLE } from "../mail/layout";
import type { ClubMailLook } from "../mail/look";
import { MERGE_FIELDS } from "./schemas";
import { lazy } from "../lazy";

export type MergeField = (typeof MERGE_FIELDS)[number];
export type MergeValues = Record<MergeField, string>;

/** `{{ name }}`: a merge field as written (spaces inside the braces allowed). */
const FIELD = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The 422 items of the unknown merge fields of `text` (at `loc`), one per name. */
export function unknownMergeFields(text: string, loc: (string | number)[]): Invalid[] {
  const unknown = new Set<string>();
  for (const m of text.matchAll(FIELD)) if (!(MERGE_FIELDS as readonly string[]).includes(m[1])) unknown.add(m[1]);
  return [...unknown].map((field) => ({
    loc,
    code: "MAILING_MERGE_FIELD_UNKNOWN",
    params: { field: `{{${field}}}`, fields: MERGE_FIELDS.map((f) => `{{${f}}}`).join(", ") },
  }));
}

/** Whether `text` uses the merge field `name`. */
export const usesField = (text: string, name: MergeField): boolean => [...text.matchAll(FIELD)].some((m) => m[1] === name);

// One renderer: raw HTML off (escaped as text), links made from bare URLs, no typographic
// replacements. Its own link check refuses javascript:, vbscript:, file: and data: (but images) URLs.
// Made with the first mailing rendered: the package loads then (lib/lazy).
const renderer = lazy(async () => {
  const MarkdownIt = (await import("markdown-it")).default;
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: true });
  // Mail clients drop <style>: the layout's paragraph look goes on each paragraph.
  md.renderer.rules.paragraph_open = () => `<p style="${MAIL_PARAGRAPH_STYLE}">`;
  return md;
});

// Each merge field becomes a word Markdown leaves alone (letters and digits only: no emphasis, no
// escaping, the same inside a link's URL), and the recipient's value, escaped, replaces it after.
const marker = (f: MergeField) => `zqmergefield${f.replace(/_/g, "x")}zq`;
const MARKERS = new RegExp(MERGE_FIELDS.map(marker).join("|"), "g");
const FIELD_OF_MARKER = new Map(MERGE_FIELDS.map((f) => [marker(f), f]));

/** A mailing's mail with the merge fields still open: `personal` fills them for one member. */
export type MailingTemplate = { subject: string; html: string; text: string };

/** Renders a mailing once, in the club's look; the unsubscribe link is a merge of its own (per recipient). */
export async function mailingTemplate(look: ClubMailLook, mailing: { subject: string; body_markdown: string }): Promise<MailingTemplate> {
  const tx = MAILING_TEXTS[look.locale];
  const marked = (s: string) => s.replace(FIELD, (_, name: string) => marker(name as MergeField));
  const footerText = fillText(tx.footer, { club: look.brand.name });
  const inner = (await renderer()).render(marked(mailing.body_markdown));
  const footer = `${escapeMailHtml(footerText)} <a href="${UNSUBSCRIBE_MARK}" style="color:#4B5563">${escapeMailHtml(tx.unsubscribeLabel)}</a>`;
  return {
    subject: mailing.subject,
    html: brandedFrame(look.brand, inner, footer),
    text: `${mailing.body_markdown.trim()}\n\n-- \n${footerText}\n${tx.unsubscribeLabel}: ${UNSUBSCRIBE_MARK}\n`,
  };
}

const UNSUBSCRIBE_MARK = "zqunsubscribezq";

/** Fills `text` (Markdown source or a subject) with `values`, as they are. */
const fillPlain = (text: string, values: MergeValues) => text.replace(FIELD, (m, name: string) => values[name as MergeField] ?? m);

/** The mail one member gets: the template filled with their values and their unsubscribe link. */
export function personalMail(
  look: ClubMailLook,
  template: MailingTemplate,
  to: string,
  values: MergeValues,
  unsubscribe: { url: string; mailto: string },
): MailMessage {
  const html = template.html
    .replace(MARKERS, (m) => escapeMailHtml(values[FIELD_OF_MARKER.get(m) as MergeField]))
    .replace(UNSUBSCRIBE_MARK, escapeMailHtml(unsubscribe.url));
  return {
    ...look.sender,
    to,
    subject: fillPlain(template.subject, values),
    html,
    text: fillPlain(template.text, values).replace(UNSUBSCRIBE_MARK, unsubscribe.url),
    headers: {
      "List-Unsubscribe": `<${unsubscribe.url}>, <${unsubscribe.mailto}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}

/** The mailto of a club's unsubscribe header: its contact address (else the sender's), "unsubscribe" as the subject. */
export function unsubscribeMailto(look: ClubMailLook): string {
  const address = look.sender.replyTo ?? (typeof look.sender.from === "string" ? look.sender.from : look.sender.from.address);
  return `mailto:${address}?subject=unsubscribe`;
}
