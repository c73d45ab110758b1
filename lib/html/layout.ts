// The layout every public page of a club shares (DESIGN.md sections 13 and 14): the member's page
// (/m/<token>), the join page (/join/<slug>) and the event page (/e/<club>/<event>). Phone first,
// the club's colours as CSS variables, its language, one inline stylesheet and nothing loaded
// from another host; the page's frame (a coloured header, white sections), a short page saying
// why not, the bank transfer details, and the headers each kind of page is sent with. Below
// lib/member-page and lib/pages (it imports neither), so the areas of lib/ stay a tree.
import { escapeHtml, htmlPage } from "../cards/web";
import { textOn } from "../cards/view";
import type { Locale } from "../i18n";
import type { MemberPageTexts } from "../i18n/member-page";
import type { FileReply } from "../reply";

export { escapeHtml };

const CSS = `*{box-sizing:border-box}html{-webkit-text-size-adjust:100%}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;background:#F3F4F6;color:#111827;line-height:1.45}
.wrap{max-width:480px;margin:0 auto;padding:0 0 40px}
header.top{background:var(--primary);color:var(--on-primary);padding:18px 18px 22px}
header.top p{margin:0;font-weight:700;font-size:1.05rem;overflow-wrap:anywhere}
header.top h1{margin:6px 0 0;font-size:1.5rem;overflow-wrap:anywhere}
header.top .brand{display:flex;align-items:center;gap:12px}
header.top .logo{height:48px;width:auto;min-width:48px;max-width:144px;padding:4px;box-sizing:border-box;border-radius:10px;object-fit:contain;background:#fff;flex:none}
.status{display:flex;align-items:center;gap:8px;margin:0;padding:10px 18px;font-weight:700;color:#fff;background:var(--status)}
.status::before{content:"";width:10px;height:10px;border-radius:50%;background:#fff;flex:none}
main{padding:0 14px}
section{background:#fff;border-radius:14px;padding:16px;margin-top:14px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
h2{font-size:1.1rem;margin:0 0 10px}
h3{font-size:1rem;margin:14px 0 6px}
p{margin:0 0 10px}
.muted{color:#4B5563;font-size:.95rem}
.pre{white-space:pre-line;overflow-wrap:anywhere}
.notice{margin:14px 0 0;padding:12px 14px;border-radius:12px;background:#ECFDF5;color:#065F46;font-weight:600;border:1px solid #A7F3D0}
.alert{margin:14px 0 0;padding:12px 14px;border-radius:12px;background:#FEF2F2;color:#991B1B;font-weight:600;border:1px solid #FECACA}
.button,button{display:block;width:100%;text-align:center;margin-top:10px;padding:13px 16px;border-radius:12px;border:0;background:var(--secondary);color:var(--on-secondary);font:inherit;font-weight:700;text-decoration:none;cursor:pointer}
button[disabled]{opacity:.7;cursor:progress}
.button.dark{background:#000;color:#fff}
.button.plain,button.plain{background:#fff;color:#111827;border:2px solid #6B7280}
button.danger{background:#fff;color:#991B1B;border:2px solid #991B1B}
label,legend{display:block;font-weight:600;margin:12px 0 4px;padding:0}
fieldset{border:0;margin:0;padding:0;min-width:0}
input,select,textarea{width:100%;padding:12px;border:2px solid #6B7280;border-radius:10px;font:inherit;background:#fff;color:#111827}
input[aria-invalid=true],select[aria-invalid=true]{border-color:#B91C1C}
.choice{display:flex;align-items:flex-start;gap:10px;margin:8px 0 0;padding:12px;border:2px solid #D1D5DB;border-radius:12px;font-weight:400}
.choice input{width:auto;margin:3px 0 0;flex:none}
.choice span{flex:1;min-width:0;overflow-wrap:anywhere}
.choice strong,.choice .desc{display:block}
.price{font-weight:700}
.opt{font-weight:400;color:#4B5563}
.err{display:block;color:#B91C1C;font-weight:600;font-size:.95rem;margin-top:4px}
.hp{position:absolute;left:-9999px;width:1px;height:1px;overflow:hidden}
input:focus,select:focus,textarea:focus,button:focus,a:focus{outline:3px solid #2563EB;outline-offset:2px}
dl{margin:0}dt{font-size:.8rem;text-transform:uppercase;letter-spacing:.05em;color:#4B5563;margin-top:8px}
dd{margin:0;font-weight:600;overflow-wrap:anywhere;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
dl.facts dd{font-family:inherit}
.cover{display:block;width:100%;height:auto;border-radius:10px;margin-bottom:10px}
.gap{margin-top:12px}
.qr{margin:12px auto 0;background:#fff;padding:10px;max-width:240px;border:3px solid var(--secondary);border-radius:14px}
.qr svg{display:block;width:100%;height:auto}
ul.invoices{list-style:none;margin:0;padding:0}
ul.invoices>li{padding:12px 0;border-top:1px solid #E5E7EB;overflow-wrap:anywhere}
ul.invoices>li:first-child{border-top:0;padding-top:0}
ul.invoices p{margin:0 0 4px}
.state-overdue{color:#B91C1C;font-weight:700}
ul.tickets{list-style:none;margin:0;padding:0}
ul.tickets li{display:flex;justify-content:space-between;gap:10px;padding:8px 0;border-top:1px solid #E5E7EB}
ul.tickets li>span:last-child{text-align:right}
ul.tickets li:first-child{border-top:0}
a{color:#1D4ED8}`;

/** The CSS variables of a page in the club's colours (`extra`: more `--name:value` pairs). */
export function brandVars(primary: string, secondary: string, extra = ""): string {
  return `--primary:${primary};--on-primary:${textOn(primary)};--secondary:${secondary};--on-secondary:${textOn(secondary)}${extra ? `;${extra}` : ""}`;
}

/** The colours of a page that belongs to no club (a 404) or says why not. */
export const NEUTRAL_VARS = "--primary:#1F2937;--on-primary:#FFFFFF;--secondary:#F59E0B;--on-secondary:#111827";

/** A whole page in the shared layout: `<html lang>`, the title, the colours, the stylesheet and the body. */
export const layoutPage = (locale: Locale, title: string, vars: string, body: string) => htmlPage(locale, title, vars, body, CSS);

/** An HTML reply with `headers`. */
export const htmlReply = (status: number, body: string, headers: Record<string, string>): FileReply => ({
  status,
  body,
  contentType: "text/html; charset=utf-8",
  headers,
});

/**
 * The headers of a page a club shows to anyone (join, event): no member's secret in its address,
 * so it may be framed by the club's own site (the README's iframe); `scriptHash` lets exactly one
 * inline script run (the form's proof of work), nothing else; its forms post to this service, and
 * a refusal's redirect to a payment page (`https:`) is followed.
 */
export function openPageHeaders(scriptHash: string): Record<string, string> {
  return {
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "content-security-policy": `default-src 'none'; style-src 'unsafe-inline'; img-src https: http: data:; script-src '${scriptHash}'; base-uri 'none'; form-action 'self' https:; frame-ancestors *`,
  };
}

/** `{name}` placeholders of `s` filled from `p` (unknown ones kept). */
export const fill = (s: string, p: Record<string, string>) => s.replace(/\{(\w+)\}/g, (m, k: string) => p[k] ?? m);

/** An amount as the club's language writes it (`CHF 50.00`, `50,00 €`). */
export function money(cents: number, currency: string, locale: Locale): string {
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
}

/** A form posted back to this service. */
export const postForm = (action: string, inner: string, attrs = "") => `<form method="post" action="${escapeHtml(action)}"${attrs}>${inner}</form>`;

/** The page's coloured header: the club (its logo when it has one) and the page's title. */
export function topHeader(clubName: string, title: string, logoUrl: string | null = null): string {
  const club = logoUrl
    ? `<div class="brand"><img class="logo" src="${escapeHtml(logoUrl)}" alt=""><p>${escapeHtml(clubName)}</p></div>`
    : `<p>${escapeHtml(clubName)}</p>`;
  return `<header class="top">${club}<h1>${escapeHtml(title)}</h1></header>`;
}

/** A short page with a title, a text and a way back (a 404, a refusal), in neutral colours. */
export function messagePage(locale: Locale, title: string, text: string, back?: { href: string; label: string }): string {
  const link = back ? `<a class="button" href="${escapeHtml(back.href)}">${escapeHtml(back.label)}</a>` : "";
  return layoutPage(
    locale,
    title,
    NEUTRAL_VARS,
    `<div class="wrap"><header class="top"><h1>${escapeHtml(title)}</h1></header><main><section><p>${escapeHtml(text)}</p>${link}</section></main></div>`,
  );
}

/** The bank transfer details of an answer (lib/member-page `BankTransfer`), as this module reads them. */
type Transfer = { beneficiary: string | null; iban: string; bic: string | null; reference: string; amount_cents: number; currency: string };

/** How to pay by bank transfer: beneficiary, IBAN, BIC, the creditor reference and the amount, with the note to quote the reference. */
export function transferDetails(bt: Transfer, tx: MemberPageTexts["transfer"], locale: Locale): string {
  return `<h3>${escapeHtml(tx.title)}</h3><dl>
<dt>${escapeHtml(tx.beneficiary)}</dt><dd>${escapeHtml(bt.beneficiary ?? "")}</dd>
<dt>${escapeHtml(tx.iban)}</dt><dd>${escapeHtml(bt.iban)}</dd>
${bt.bic ? `<dt>${escapeHtml(tx.bic)}</dt><dd>${escapeHtml(bt.bic)}</dd>` : ""}
<dt>${escapeHtml(tx.reference)}</dt><dd>${escapeHtml(bt.reference)}</dd>
<dt>${escapeHtml(tx.amount)}</dt><dd>${escapeHtml(money(bt.amount_cents, bt.currency, locale))}</dd></dl>
<p class="muted">${escapeHtml(tx.note)}</p>`;
}

/** A reply of a club's open page (join, event), with the headers that let its one script run and let it be framed. */
export const openReply = (scriptHash: string) => {
  const headers = openPageHeaders(scriptHash);
  return (status: number, body: string): FileReply => htmlReply(status, body, headers);
};

/** A link out of a frame to the card payment page (which refuses to be shown inside another site's page). */
export const checkoutLink = (text: string, url: string, label: string) =>
  `<section><p>${escapeHtml(text)}</p><a class="button" href="${escapeHtml(url)}" target="_top">${escapeHtml(label)}</a></section>`;

/** The answer after a form: its title as the section's heading, announced. */
export const answerSection = (title: string, inner: string) => `<section role="status"><h2>${escapeHtml(title)}</h2>${inner}</section>`;
