// The member's web card (DESIGN.md section 9): GET /c/<pass_serial_number>, a server-rendered
// HTML page with no credentials (the unguessable serial is the secret). It carries the club's
// branding, the member's name, tier and validity, a status banner in the club's language, the QR
// code (inline SVG: the page works offline), the perks of `card_back_fields` with their partner
// details, the other back fields, the club's locations and its custom link. Every stored value
// is HTML-escaped, and only http(s)/mailto/tel links are ever rendered as links.
import { and, eq } from "drizzle-orm";
import { members } from "../../db/schema";
import type { CardBackField } from "../clubs/schemas";
import type { PublicCtx } from "../context";
import type { Locale } from "../i18n";
import type { MemberStatus } from "../members/schemas";
import { walletUrls } from "../passes";
import { qrSvg } from "../qr";
import type { FileReply } from "../reply";
import { CARD_TEXTS, type CardTexts } from "../i18n/texts";
import { type CardView, cardView, httpUrl, loadCard } from "./view";

const STATUS_COLORS: Record<MemberStatus, string> = { active: "#15803D", expired: "#B91C1C", suspended: "#7F1D1D", pending: "#B45309" };

export function escapeHtml(value: unknown): string {
  return String(value ?? "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** An http(s) address (lib/cards/view `httpUrl`), escaped for an attribute; anything else (javascript:, data:...) is no link. */
function safeHttpUrl(value: string | null | undefined): string | null {
  const url = httpUrl(value);
  return url ? escapeHtml(url) : null;
}
const safeEmail = (value: string | null | undefined) => {
  const v = value?.trim();
  return v && /^[^\s@"'<>]+@[^\s@"'<>]+$/.test(v) ? v : null;
};
const telHref = (value: string) => value.replace(/[^+0-9]/g, "");

/** A back field's value: a link for `link`, `email` and `phone` fields, escaped text otherwise. */
function fieldValue(f: CardBackField): string {
  const text = escapeHtml(f.value);
  if (f.type === "link") {
    const href = safeHttpUrl(f.value);
    return href ? `<a href="${href}" rel="noopener noreferrer">${escapeHtml(f.link_text || f.value)}</a>` : text;
  }
  if (f.type === "email") {
    const email = safeEmail(f.value);
    return email ? `<a href="mailto:${escapeHtml(email)}">${text}</a>` : text;
  }
  if (f.type === "phone" && telHref(f.value)) return `<a href="tel:${escapeHtml(telHref(f.value))}">${text}</a>`;
  return text;
}

/** Small inline icons (no font has every symbol, and the page loads nothing). */
const svg = (d: string) =>
  `<svg class="ico" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${d}</svg>`;
const ICONS = {
  pin: svg('<path d="M12 21s-7-6.2-7-11.5a7 7 0 0 1 14 0C19 14.8 12 21 12 21z"/><circle cx="12" cy="9.5" r="2.5"/>'),
  clock: svg('<circle cx="12" cy="12" r="9"/><path d="M12 7v5l3 2"/>'),
  web: svg('<circle cx="12" cy="12" r="9"/><path d="M3 12h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18"/>'),
  mail: svg('<rect x="3" y="5" width="18" height="14" rx="2"/><path d="M3 7l9 6 9-6"/>'),
  phone: svg('<path d="M5 3h4l2 5-2.5 1.5a11 11 0 0 0 6 6L16 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 5a2 2 0 0 1 2-2z"/>'),
};

function perkHtml(f: CardBackField, tx: CardTexts): string {
  const logo = safeHttpUrl(f.partner_logo_url);
  const website = safeHttpUrl(f.partner_website);
  const email = safeEmail(f.partner_email);
  const details: string[] = [];
  if (f.partner_address) details.push(`<li>${ICONS.pin}${escapeHtml(f.partner_address)}</li>`);
  if (f.partner_hours) details.push(`<li>${ICONS.clock}<span class="sr">${escapeHtml(tx.hours)}: </span>${escapeHtml(f.partner_hours)}</li>`);
  if (f.partner_website)
    details.push(
      `<li>${ICONS.web}${website ? `<a href="${website}" rel="noopener noreferrer">${escapeHtml(f.partner_website.replace(/^https?:\/\//i, ""))}</a>` : escapeHtml(f.partner_website)}</li>`,
    );
  if (f.partner_email)
    details.push(`<li>${ICONS.mail}${email ? `<a href="mailto:${escapeHtml(email)}">${escapeHtml(email)}</a>` : escapeHtml(f.partner_email)}</li>`);
  if (f.partner_phone)
    details.push(
      `<li>${ICONS.phone}${telHref(f.partner_phone) ? `<a href="tel:${escapeHtml(telHref(f.partner_phone))}">${escapeHtml(f.partner_phone)}</a>` : escapeHtml(f.partner_phone)}</li>`,
    );
  return `<article class="perk">
  <div class="perk-head">${logo ? `<img class="perk-logo" src="${logo}" alt="" loading="lazy">` : ""}<h3>${escapeHtml(f.label)}</h3></div>
  ${f.value ? `<p class="perk-value">${fieldValue(f)}</p>` : ""}
  ${details.length ? `<ul class="partner">${details.join("")}</ul>` : ""}
  ${f.redeem_instructions ? `<div class="redeem"><strong>${escapeHtml(tx.redeem)}</strong><p>${escapeHtml(f.redeem_instructions)}</p></div>` : ""}
</article>`;
}

const CSS = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;background:#F3F4F6;color:#111827;line-height:1.45}
.wrap{max-width:440px;margin:0 auto;padding:16px 14px 40px}
.card{background:var(--primary);color:var(--on-primary);border-radius:20px;overflow:hidden;box-shadow:0 10px 30px rgba(0,0,0,.18)}
.card-head{display:flex;align-items:center;gap:12px;padding:18px 20px 14px}
.logo{height:44px;width:auto;min-width:44px;max-width:132px;padding:4px;box-sizing:border-box;border-radius:10px;object-fit:contain;background:rgba(255,255,255,.9)}
.club{font-size:1.15rem;font-weight:700;margin:0;overflow-wrap:anywhere}
.status{display:flex;align-items:center;gap:8px;padding:9px 20px;font-weight:700;font-size:.95rem;color:#fff;background:var(--status)}
.status::before{content:"";width:10px;height:10px;border-radius:50%;background:#fff;flex:none}
.card-body{padding:16px 20px 20px}
.label{display:block;font-size:.72rem;text-transform:uppercase;letter-spacing:.06em;color:var(--label);margin-bottom:2px}
.name{font-size:1.45rem;font-weight:700;margin:0 0 14px;overflow-wrap:anywhere}
.row{display:flex;gap:16px;flex-wrap:wrap}
.row>div{flex:1 1 120px;min-width:0}
.row .value{font-weight:600;overflow-wrap:anywhere}
.qr{margin:18px auto 0;background:#fff;color:#111827;border-radius:14px;padding:14px;text-align:center;max-width:260px;border:3px solid var(--secondary)}
.qr svg{display:block;width:100%;height:auto}
.code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:1.05rem;letter-spacing:.12em;font-weight:700;margin-top:6px}
.hint{font-size:.8rem;color:#4B5563;margin:4px 0 0}
.hint.invalid{font-size:.9rem;font-weight:700;color:var(--status)}
.welcome{margin:18px 4px 0;font-size:.95rem}
section.block{margin-top:22px}
h2{font-size:1.05rem;margin:0 0 10px 4px;padding-bottom:4px;border-bottom:3px solid var(--secondary);display:inline-block}
.perk,.info,.loc{background:#fff;border-radius:14px;padding:14px 16px;margin-bottom:10px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
.perk-head{display:flex;align-items:center;gap:10px}
.perk-logo{width:40px;height:40px;border-radius:8px;object-fit:contain;flex:none;background:#F9FAFB}
h3{font-size:1rem;margin:0;overflow-wrap:anywhere}
.perk-value{margin:6px 0 0;overflow-wrap:anywhere}
.partner{list-style:none;margin:10px 0 0;padding:0;font-size:.9rem;color:#374151}
.partner li{display:flex;gap:8px;padding:2px 0;overflow-wrap:anywhere}
.ico{width:16px;height:16px;flex:none;margin-top:2px;color:#6B7280}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.redeem{margin-top:10px;background:#F9FAFB;border-left:4px solid var(--secondary);border-radius:6px;padding:8px 10px;font-size:.9rem}
.redeem p{margin:2px 0 0}
dl{margin:0}
.info dt{font-size:.75rem;text-transform:uppercase;letter-spacing:.05em;color:#6B7280}
.info dd{margin:0 0 8px;overflow-wrap:anywhere}
.info dd:last-child{margin-bottom:0}
.loc strong{display:block}
.loc p{margin:2px 0 4px;color:#374151;font-size:.9rem}
a{color:#1D4ED8}
.wallets .button{background:#000;color:#fff}
.button{display:block;text-align:center;margin-top:22px;padding:13px 16px;border-radius:12px;background:var(--secondary);color:var(--on-secondary);font-weight:700;text-decoration:none;overflow-wrap:anywhere}
.missing{text-align:center;padding-top:80px}
.missing h1{font-size:1.4rem}
`;

/** A page of the service's own (the web card, the member's page): no script, its CSS inline. */
export function htmlPage(locale: Locale, title: string, vars: string, body: string, css = CSS): string {
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>:root{${vars}}${css}</style>
</head>
<body>
${body}
</body>
</html>`;
}

/**
 * Headers of a page whose address holds a member's secret (a serial, a token): never sent
 * elsewhere, cached or indexed; `forms` lets its own forms post back (`payments`: and follow a
 * form's redirect to a payment page, which CSP's form-action also governs).
 */
export function privatePageHeaders(forms: "none" | "self" | "payments" = "none"): Record<string, string> {
  const formAction = forms === "payments" ? "'self' https:" : `'${forms}'`;
  return {
    "cache-control": "no-store",
    // The secret in the URL must never reach a partner's site.
    "referrer-policy": "no-referrer",
    "x-robots-tag": "noindex, nofollow",
    "x-content-type-options": "nosniff",
    "content-security-policy": `default-src 'none'; style-src 'unsafe-inline'; img-src https: http: data:; base-uri 'none'; form-action ${formAction}; frame-ancestors 'none'`,
  };
}

const HEADERS = privatePageHeaders();

/** The page as a reply, with the headers that keep the serial private. */
const htmlReply = (status: 200 | 404, html: string): FileReply => ({ status, body: html, contentType: "text/html; charset=utf-8", headers: HEADERS });

function notFoundPage(locale: Locale): string {
  const tx = CARD_TEXTS[locale];
  return htmlPage(
    locale,
    tx.notFoundTitle,
    "--primary:#1F2937;--secondary:#F59E0B",
    `<main class="wrap missing"><h1>${escapeHtml(tx.notFoundTitle)}</h1><p>${escapeHtml(tx.notFoundText)}</p></main>`,
  );
}

/**
 * The web card of the member whose pass serial is `serial` (any club: the serial is unique and
 * unguessable), or a 404 page in the visitor's language. The first view sets the member's
 * `has_web` (the member now has the web card; `card_installed_at` is left to wallet passes).
 * The page comes with headers that keep the serial private.
 */
export async function renderWebCard(ctx: PublicCtx, serial: string): Promise<FileReply> {
  const { db } = ctx;
  const data = await loadCard(db.read, { serial });
  if (!data) return htmlReply(404, notFoundPage(ctx.locale));
  const { member } = data;

  if (!member.has_web) {
    await db.tx((t) =>
      t
        .update(members)
        .set({ has_web: true })
        .where(and(eq(members.id, member.id), eq(members.has_web, false))),
    );
  }

  const wallets = walletUrls(ctx, member.pass_serial_number);
  const card = cardView(data);
  return htmlReply(200, await webCardHtml(card, wallets));
}

/**
 * The web card's page for `card`: the one drawing of a card, for the member's page above and for
 * the dashboard's live preview of the card's appearance (lib/cards/preview).
 */
export async function webCardHtml(card: CardView, wallets: { apple: string | null; google: string | null }): Promise<string> {
  const { locale, texts: tx, status, clubName, holderName: name } = card;
  const { primary, onPrimary, secondary, onSecondary, label } = card.colors;
  const vars = `--primary:${primary};--on-primary:${onPrimary};--secondary:${secondary};--on-secondary:${onSecondary};--label:${label};--status:${STATUS_COLORS[status]}`;

  const logo = card.logoUrl ? escapeHtml(card.logoUrl) : null;
  // The QR code always carries the referral code; other barcode formats are for wallet passes.
  const qr = await qrSvg(card.code);

  const perks = card.backFields.filter((f) => f.is_perk);
  const others = card.backFields.filter((f) => !f.is_perk);
  const locations = card.locations;
  const linkUrl = card.link ? escapeHtml(card.link.url) : null;
  const linkLabel = card.link ? card.link.label || card.link.url : "";
  const walletButtons = [
    wallets.apple ? `<a class="button wallet wallet-apple" href="${escapeHtml(wallets.apple)}">${escapeHtml(tx.addApple)}</a>` : "",
    wallets.google ? `<a class="button wallet wallet-google" href="${escapeHtml(wallets.google)}">${escapeHtml(tx.addGoogle)}</a>` : "",
  ].join("");

  const body = `<main class="wrap">
<section class="card" aria-label="${escapeHtml(clubName)}">
  <header class="card-head">${logo ? `<img class="logo" src="${logo}" alt="">` : ""}<p class="club">${escapeHtml(clubName)}</p></header>
  <div class="status status-${status}" role="status">${escapeHtml(tx.status[status])}</div>
  <div class="card-body">
    <span class="label">${escapeHtml(tx.member)}</span>
    <h1 class="name">${escapeHtml(name)}</h1>
    <div class="row">
      ${card.tierName ? `<div><span class="label">${escapeHtml(tx.tier)}</span><span class="value">${escapeHtml(card.tierName)}</span></div>` : ""}
      <div><span class="label">${escapeHtml(tx.validUntil)}</span><span class="value">${escapeHtml(card.validUntil)}</span></div>
    </div>
    <div class="qr">${qr}<div class="code">${escapeHtml(card.code)}</div><p class="hint${status === "active" ? "" : " invalid"}">${escapeHtml(tx.scanHint[status].replace("{date}", card.validUntil))}</p></div>
  </div>
</section>
${card.welcome ? `<p class="welcome">${escapeHtml(card.welcome)}</p>` : ""}
${perks.length ? `<section class="block perks"><h2>${escapeHtml(tx.perks)}</h2>${perks.map((f) => perkHtml(f, tx)).join("\n")}</section>` : ""}
${
  others.length
    ? `<section class="block"><h2>${escapeHtml(tx.info)}</h2><div class="info"><dl>${others.map((f) => `<dt>${escapeHtml(f.label)}</dt><dd>${fieldValue(f)}</dd>`).join("")}</dl></div></section>`
    : ""
}
${
  locations.length
    ? `<section class="block"><h2>${escapeHtml(tx.locations)}</h2>${locations
        .map(
          (l) =>
            `<div class="loc">${l.label ? `<strong>${escapeHtml(l.label)}</strong>` : ""}${l.address ? `<p>${escapeHtml(l.address)}</p>` : ""}<a href="https://www.openstreetmap.org/?mlat=${l.latitude}&amp;mlon=${l.longitude}#map=17/${l.latitude}/${l.longitude}" rel="noopener noreferrer">${escapeHtml(tx.map)}</a></div>`,
        )
        .join("")}</section>`
    : ""
}
${walletButtons ? `<nav class="wallets">${walletButtons}</nav>` : ""}
${linkUrl ? `<a class="button" href="${linkUrl}" rel="noopener noreferrer">${escapeHtml(linkLabel)}</a>` : ""}
</main>`;
  return htmlPage(locale, `${clubName} — ${name}`, vars, body);
}
