// The member's own page as HTML (DESIGN.md section 14): /m/<manage_token>, phone first, in the
// club's colours and language, drawn on the server from the same data as the JSON twin
// (lib/members/page). No script and nothing from another host (the club's logo is served by us:
// lib/clubs/logo): each action is a plain HTML form posted to /m/<token>/<action>, which answers
// a redirect back to the page (post/redirect/get) with a line saying it was done, or a short page
// saying why not. Every renewal is a form (POST /m/<token>/renew), never a link, since a GET is
// fetched by previews and prefetches and must change and send nothing: by bank transfer it mails
// the payment details and redirects to the page showing them (?renew=bank_transfer, which only
// shows); by card it leads on to Stripe's page (a Checkout Session is a write); with nothing to
// pay, the same form without a method renews.
import { privatePageHeaders } from "../cards/web";
import { formatDate } from "../cards/view";
import type { PublicCtx } from "../context";
import { AppError } from "../errors";
import { labelled, type Locale, t } from "../i18n";
import { MAILING_TEXTS } from "../i18n/mailings";
import { MEMBER_PAGE_TEXTS, type MemberPageTexts } from "../i18n/member-page";
import type { FileReply, RedirectReply } from "../reply";
import { memberPageUrl } from "../members/internal";
import { brandVars, escapeHtml, fill, htmlReply, layoutPage, messagePage, money, postForm as form, topHeader, transferDetails } from "../html/layout";
import {
  confirmEmailChange,
  getMemberPage,
  memberPageView,
  renewalQuote,
  renewMembership,
  requestEmailChange,
  requestErasure,
  setAutoRenewal,
  setMailings,
  updateMemberName,
} from "./index";
import type { BankTransfer, MemberPage } from "./schemas";

const STATUS_COLORS = { active: "#15803D", expired: "#B91C1C", suspended: "#7F1D1D", pending: "#B45309" } as const;

// Its card form redirects on to Stripe's payment page.
const HEADERS = privatePageHeaders("payments");

const reply = (status: number, body: string): FileReply => htmlReply(status, body, HEADERS);

function notFound(locale: Locale): FileReply {
  const tx = MEMBER_PAGE_TEXTS[locale];
  return reply(404, messagePage(locale, tx.notFoundTitle, tx.notFoundText));
}

function body(
  page: MemberPage,
  country: string | null,
  token: string,
  baseUrl: string,
  tx: MemberPageTexts,
  notice: string | null,
  transfer: BankTransfer | null,
  nothingToPay: boolean,
): string {
  const { member: m, club, card } = page;
  const locale = club.locale as Locale;
  const here = memberPageUrl("", token);
  const date = (d: string) => formatDate(d, locale, country);
  const validity = m.status === "expired" ? fill(tx.endedOn, { date: date(m.membership_end) }) : fill(tx.until, { date: date(m.membership_end) });
  const byCard = page.payment_methods.includes("stripe")
    ? form(`${here}/renew`, `<input type="hidden" name="payment_method" value="stripe"><button type="submit">${escapeHtml(tx.renewByCard)}</button>`)
    : "";
  const byTransfer = page.payment_methods.includes("bank_transfer")
    ? form(`${here}/renew`, `<input type="hidden" name="payment_method" value="bank_transfer"><button type="submit">${escapeHtml(tx.renewByTransfer)}</button>`)
    : "";
  const renew = nothingToPay
    ? `<p>${escapeHtml(tx.renewFree)}</p>${form(`${here}/renew`, `<button type="submit">${escapeHtml(tx.renewNow)}</button>`)}`
    : page.payment_methods.length
      ? `${byCard}${byTransfer}`
      : `<p class="muted">${escapeHtml(tx.renewNone)}${club.contact_email ? ` <a href="mailto:${escapeHtml(club.contact_email)}">${escapeHtml(club.contact_email)}</a>` : ""}</p>`;
  const transferBlock = transfer ? transferDetails(transfer, tx.transfer, locale) : "";
  const invoices = page.invoices.length
    ? `<section id="invoices" aria-labelledby="h-invoices"><h2 id="h-invoices">${escapeHtml(tx.invoices.title)}</h2><ul class="invoices">${page.invoices
        .map((i) => invoiceItem(i, tx, locale, country))
        .join("")}</ul></section>`
    : "";
  const wallets = [
    `<a class="button" href="${escapeHtml(card.web)}">${escapeHtml(tx.openCard)}</a>`,
    card.apple ? `<a class="button dark" href="${escapeHtml(card.apple)}">${escapeHtml(tx.addApple)}</a>` : "",
    card.google ? `<a class="button dark" href="${escapeHtml(card.google)}">${escapeHtml(tx.addGoogle)}</a>` : "",
  ].join("");
  const auto =
    m.auto_renewal === null
      ? ""
      : `<section aria-labelledby="h-auto"><h2 id="h-auto">${escapeHtml(tx.autoRenewal)}</h2><p>${escapeHtml(m.auto_renewal ? tx.autoOn : tx.autoOff)}</p>${form(
          `${here}/auto-renewal`,
          `<input type="hidden" name="enabled" value="${m.auto_renewal ? "false" : "true"}"><button class="plain" type="submit">${escapeHtml(m.auto_renewal ? tx.turnOff : tx.turnOn)}</button>`,
        )}</section>`;
  const mt = MAILING_TEXTS[locale];
  const mailings = `<section aria-labelledby="h-mailings"><h2 id="h-mailings">${escapeHtml(mt.mailings)}</h2><p>${escapeHtml(m.mailings ? mt.mailingsOn : mt.mailingsOff)}</p>${form(
    `${here}/mailings`,
    `<input type="hidden" name="enabled" value="${m.mailings ? "false" : "true"}"><button class="plain" type="submit">${escapeHtml(m.mailings ? mt.turnOff : mt.turnOn)}</button>`,
  )}</section>`;
  const erasure = m.erasure_requested_at
    ? `<p>${escapeHtml(fill(tx.erasureAsked, { date: date(m.erasure_requested_at.slice(0, 10)) }))}</p>`
    : `<p class="muted">${escapeHtml(tx.erasureText)}</p>${form(`${here}/erasure-request`, `<button class="danger" type="submit">${escapeHtml(tx.erasureAsk)}</button>`)}`;
  return `<div class="wrap">
${topHeader(club.name, `${m.first_name} ${m.last_name}`, club.logo_url)}
<p class="status" role="status">${escapeHtml(tx.status[m.status])}</p>
<main>
${notice ? `<p class="notice" role="status">${escapeHtml(notice)}</p>` : ""}
<section aria-labelledby="h-membership"><h2 id="h-membership">${escapeHtml(tx.title)}</h2><p>${escapeHtml(validity)}</p>${m.tier_name ? `<p class="muted">${escapeHtml(labelled(locale, tx.tier, m.tier_name))}</p>` : ""}</section>
<section id="renew" aria-labelledby="h-renew"><h2 id="h-renew">${escapeHtml(tx.renew)}</h2>${renew}${transferBlock}</section>
${invoices}
<section aria-labelledby="h-card"><h2 id="h-card">${escapeHtml(tx.card)}</h2>${wallets}</section>
${auto}
${mailings}
<section aria-labelledby="h-name"><h2 id="h-name">${escapeHtml(tx.name)}</h2>${form(
    `${here}/name`,
    `<label for="first_name">${escapeHtml(tx.firstName)}</label><input id="first_name" name="first_name" required maxlength="200" autocomplete="given-name" value="${escapeHtml(m.first_name)}">
<label for="last_name">${escapeHtml(tx.lastName)}</label><input id="last_name" name="last_name" required maxlength="200" autocomplete="family-name" value="${escapeHtml(m.last_name)}">
<button type="submit">${escapeHtml(tx.save)}</button>`,
  )}</section>
<section aria-labelledby="h-email"><h2 id="h-email">${escapeHtml(tx.email)}</h2><p>${escapeHtml(m.email)}</p>${m.pending_email ? `<p class="muted">${escapeHtml(fill(tx.pendingEmail, { email: m.pending_email }))}</p>` : ""}${form(
    `${here}/email`,
    `<label for="email">${escapeHtml(tx.newEmail)}</label><input id="email" name="email" type="email" required maxlength="320" autocomplete="email"><button type="submit">${escapeHtml(tx.sendLink)}</button>`,
  )}</section>
<section aria-labelledby="h-data"><h2 id="h-data">${escapeHtml(tx.data)}</h2><p class="muted">${escapeHtml(tx.dataText)}</p><a class="button plain" href="${escapeHtml(`${baseUrl}/api/public/manage/${token}/data-export`)}" download="data.json">${escapeHtml(tx.download)}</a></section>
<section aria-labelledby="h-erasure"><h2 id="h-erasure">${escapeHtml(tx.erasure)}</h2>${erasure}</section>
</main></div>`;
}

/** One of the member's invoices: number, dates, amount and state, its PDF, and while open how to pay it. */
function invoiceItem(i: MemberPage["invoices"][number], tx: MemberPageTexts, locale: Locale, country: string | null): string {
  const date = (d: string) => formatDate(d, locale, country);
  const state = i.overdue ? "overdue" : i.status;
  const p = { number: i.number, date: date(i.issued_on), amount: money(i.amount_cents - i.paid_cents, i.currency, locale) };
  const lines = [
    `<strong>${escapeHtml(fill(tx.invoices.invoice, p))}</strong> · ${escapeHtml(money(i.amount_cents, i.currency, locale))} · <span class="state state-${state}">${escapeHtml(tx.invoices.states[state])}</span>`,
    escapeHtml(fill(tx.invoices.issued, p)),
    ...(i.status === "open" ? [escapeHtml(fill(tx.invoices.due, { date: date(i.due_on) }))] : []),
    ...(i.status === "open" && i.paid_cents > 0 ? [escapeHtml(fill(tx.invoices.left, p))] : []),
  ];
  const pdf = `<a class="button plain" href="${escapeHtml(i.pdf_url)}" download>${escapeHtml(fill(tx.invoices.pdf, p))}</a>`;
  return `<li><p>${lines[0]}</p><p class="muted">${lines.slice(1).join("<br>")}</p>${pdf}${i.bank_transfer ? transferDetails(i.bank_transfer, tx.transfer, locale) : ""}</li>`;
}

const DONE = ["name", "email", "email_confirmed", "auto_renewal", "mailings", "erasure", "renewed"] as const;
type Done = (typeof DONE)[number];

/** The member's page, or the 404 page in the visitor's language. `done` says which action just succeeded; `renew=bank_transfer` shows the payment details (and sends nothing); `checkout` is how Stripe's page was left. */
export async function renderMemberPage(
  ctx: PublicCtx,
  token: string,
  query: { done?: string; renew?: string; checkout?: string } = {},
): Promise<FileReply | RedirectReply> {
  let page: MemberPage;
  let country: string | null;
  try {
    ({ page, country } = await memberPageView(ctx, token));
  } catch (err) {
    if (err instanceof AppError && err.status === 404) return notFound(ctx.locale);
    throw err;
  }
  const locale = page.club.locale as Locale;
  const tx = MEMBER_PAGE_TEXTS[locale];
  // Renewing (and mailing the transfer details) happens only by the page's forms (a POST), never
  // by this GET: `?renew=bank_transfer` (where the form's redirect lands) only shows the details,
  // and an old `?renew=stripe` link shows the page.
  const quote = await renewalQuote(ctx, token);
  const nothingToPay = page.member.status !== "suspended" && quote.amount_cents === 0;
  const transfer = query.renew === "bank_transfer" ? quote.bank_transfer : null;
  const back = query.checkout === "success" || query.checkout === "cancelled" ? tx.checkout[query.checkout] : null;
  const notice = DONE.includes(query.done as Done) ? tx.done[query.done as Done] : back;
  const vars = brandVars(page.club.primary_color, page.club.secondary_color, `--status:${STATUS_COLORS[page.member.status]}`);
  return reply(200, layoutPage(locale, `${page.club.name} — ${tx.title}`, vars, body(page, country, token, ctx.baseUrl, tx, notice, transfer, nothingToPay)));
}

export type PageAction = "name" | "email" | "email_confirm" | "auto_renewal" | "mailings" | "erasure" | "renew";

/**
 * Runs one form of the page and answers a redirect back to it (the new page's address after an
 * email change), or, when refused, a short page in the club's language saying why.
 */
export async function memberPageAction(ctx: PublicCtx, token: string, action: PageAction, input: Record<string, unknown>): Promise<FileReply | RedirectReply> {
  const back = (t: string, done: Done): RedirectReply => ({
    redirect: `${memberPageUrl(ctx.baseUrl, t)}?done=${done}`,
    headers: { "referrer-policy": "no-referrer" },
  });
  try {
    switch (action) {
      case "name":
        await updateMemberName(ctx, token, { first_name: text(input.first_name), last_name: text(input.last_name) });
        return back(token, "name");
      case "email":
        await requestEmailChange(ctx, token, { email: text(input.email) ?? "" });
        return back(token, "email");
      case "email_confirm": {
        const done = await confirmEmailChange(ctx, token, { code: text(input.code) ?? "" });
        return { redirect: `${done.manage_url}?done=email_confirmed`, headers: { "referrer-policy": "no-referrer" } };
      }
      case "auto_renewal":
        await setAutoRenewal(ctx, token, { enabled: input.enabled === "true" || input.enabled === true });
        return back(token, "auto_renewal");
      case "mailings":
        await setMailings(ctx, token, { enabled: input.enabled === "true" || input.enabled === true });
        return back(token, "mailings");
      case "erasure":
        await requestErasure(ctx, token);
        return back(token, "erasure");
      case "renew": {
        // By card: on to Stripe's payment page, which brings the member back here (?checkout=...).
        // By transfer: the details are mailed (once a day for one amount) and shown on the page.
        // Without a method, the form of a renewal with nothing to pay; should a price have
        // appeared meanwhile, it is taken as a transfer and the page shows how to pay it.
        const renewal = await renewMembership(ctx, token, { payment_method: input.payment_method === "stripe" ? "stripe" : "bank_transfer" });
        if (renewal.checkout_url) return { redirect: renewal.checkout_url, headers: { "referrer-policy": "no-referrer" } };
        if (renewal.renewed) return back(token, "renewed");
        return { redirect: `${memberPageUrl(ctx.baseUrl, token)}?renew=bank_transfer#renew`, headers: { "referrer-policy": "no-referrer" } };
      }
    }
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.status === 404) return notFound(ctx.locale);
    let locale = ctx.locale;
    try {
      locale = (await getMemberPage(ctx, token)).club.locale as Locale;
    } catch {}
    return refused(ctx, locale, token, err);
  }
}

/** A refusal as a short page in `locale` saying why, with the way back to the member's page. */
function refused(ctx: PublicCtx, locale: Locale, token: string, err: AppError): FileReply {
  const tx = MEMBER_PAGE_TEXTS[locale];
  return reply(err.status, messagePage(locale, tx.problem, t(locale, err.code, err.params), { href: memberPageUrl(ctx.baseUrl, token), label: tx.back }));
}

/** A form field as trimmed text (absent or not text: undefined); the verbs' own checks apply. */
function text(v: unknown): string | undefined {
  // Not trimmed here: the verb's schema refuses a control character before it trims, as the JSON route does.
  return typeof v === "string" && v.trim() !== "" ? v : undefined;
}
