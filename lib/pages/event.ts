// The event page (DESIGN.md section 13): the event's `public_url`, /e/<club_slug>/<event_slug>,
// and its calendar file at the same address with `.ics`. The title, the date and time in the
// club's time zone, the place, the description, the tickets with their prices and what is left,
// and the form of `POST /api/public/events/<id>/registrations` (the same verb,
// `registerForEvent`, and the same schema); then the answer: confirmed (the ticket's code to
// show at the door), pending (how to pay, or the card payment page when the answer carries a
// `checkout_url`), or on the waiting list.
import { clubCardView, httpUrl } from "../cards/view";
import { clubTimeZone } from "../clubs/time-zone";
import type { PublicCtx } from "../context";
import { eventCalendar } from "../events/ics";
import { getPublicEvent, type PublicEventPage } from "../events/public";
import { type PublicEvent, type PublicRegistration, PublicRegistrationCreate } from "../events/schemas";
import type { Locale } from "../i18n";
import { MEMBER_PAGE_TEXTS } from "../i18n/member-page";
import { PAGE_TEXTS, type PageTexts } from "../i18n/pages";
import { qrSvg } from "../qr";
import { registerForEvent } from "../registrations/public";
import type { FileReply, RedirectReply } from "../reply";
import * as forms from "./form";
import { answerSection, brandVars, checkoutLink, escapeHtml, fill, layoutPage, money, topHeader, transferDetails } from "../html/layout";

/** Refusals about one field of the form: shown beside it (and at the top). */
const FIELD_OF: Record<string, string> = {
  MEMBERSHIP_NOT_ACTIVE: "member_code",
  EVENT_MEMBERS_ONLY: "member_code",
  TICKET_MEMBERS_ONLY: "member_code",
  TICKET_SOLD_OUT: "ticket_id",
  TICKET_INACTIVE: "ticket_id",
  TICKET_NOT_FOUND: "ticket_id",
  EMAIL_ALREADY_REGISTERED: "email",
  "PROMO_CODE_*": "promo_code",
};

/** Dates and times in the club's language and time zone: `country` gives both the style (`fr-CH`) and the zone. */
function clock(locale: Locale, country: string | null) {
  const timeZone = clubTimeZone(country);
  const tag = (() => {
    try {
      return Intl.DateTimeFormat.supportedLocalesOf(country ? `${locale}-${country}` : locale).length ? `${locale}${country ? `-${country}` : ""}` : locale;
    } catch {
      return locale;
    }
  })();
  const dateTime = new Intl.DateTimeFormat(tag, { dateStyle: "full", timeStyle: "short", timeZone });
  const zoneName = (at: Date) =>
    new Intl.DateTimeFormat(tag, { timeZone, timeZoneName: "short" }).formatToParts(at).find((p) => p.type === "timeZoneName")?.value ?? "";
  return {
    /** `start` to `end` (the end's date left out on the same day), with the zone's name. */
    span(start: string, end: string | null): string {
      const from = new Date(start);
      const text = end ? dateTime.formatRange(from, new Date(end)) : dateTime.format(from);
      return `${text} (${zoneName(from)})`;
    },
    at: (iso: string) => dateTime.format(new Date(iso)),
  };
}

/** A ticket's prices as the page shows them: one price for all, members' and others', or members only. */
function ticketPrice(t: PublicEvent["tickets"][number], currency: string, locale: Locale, tx: PageTexts): string {
  const price = (cents: number) => (cents ? money(cents, currency, locale) : tx.event.free);
  if (t.non_member_price_cents === null) return `${tx.event.membersOnly} · ${price(t.member_price_cents)}`;
  if (t.non_member_price_cents === t.member_price_cents && !t.tier_prices) return price(t.member_price_cents);
  return `${fill(tx.event.memberPrice, { price: price(t.member_price_cents) })} · ${fill(tx.event.guestPrice, { price: price(t.non_member_price_cents) })}`;
}

/** Why the form is not shown (cancelled, not open yet, closed, sold out), or null when it is. */
function closedReason(page: PublicEventPage, tx: PageTexts, at: (iso: string) => string, now = new Date().toISOString()): string | null {
  const e = page.event;
  if (page.cancelled) return tx.event.cancelled;
  if (e.registration_opens_at && now < e.registration_opens_at) return fill(tx.event.notOpen, { date: at(e.registration_opens_at) });
  if ((e.registration_closes_at && now >= e.registration_closes_at) || now >= (e.ends_at ?? e.starts_at) || !e.tickets.length) return tx.event.closed;
  if (!e.waitlist_enabled && e.tickets.every((t) => t.sold_out)) return tx.event.soldOut;
  return null;
}

/** The page's own address (the form posts back to it). */
const pagePath = (page: PublicEventPage) => new URL(page.event.public_url).pathname;

function registrationForm(page: PublicEventPage, shown: forms.Shown): string {
  const tx = PAGE_TEXTS[shown.locale];
  const e = page.event;
  const open = e.tickets.filter((t) => e.waitlist_enabled || !t.sold_out);
  const tickets = forms.radioGroup(
    {
      name: "ticket_id",
      legend: tx.event.ticket,
      value: forms.posted(shown.values, "ticket_id") || (open.length === 1 ? open[0].id : ""),
      choices: e.tickets.map((t) => ({
        value: t.id,
        disabled: !e.waitlist_enabled && t.sold_out,
        html: `<strong>${escapeHtml(t.name)}</strong><span>${escapeHtml(ticketPrice(t, e.currency, shown.locale, tx))}</span>${
          t.sold_out ? ` · <span class="price">${escapeHtml(tx.event.soldOut)}</span>` : ""
        }`,
      })),
    },
    shown.errors,
  );
  const full = e.places_left === 0 || e.tickets.every((t) => t.sold_out);
  const members = e.access === "members";
  const notes = `${members ? `<p class="muted">${escapeHtml(tx.event.membersOnlyEvent)}</p>` : ""}${
    full && e.waitlist_enabled ? `<p class="notice">${escapeHtml(tx.event.waitlist)}</p>` : ""
  }`;
  return `${forms.formHead(pagePath(page), shown, `${notes}${tickets}`)}
${forms.codeInput(shown, "member_code", tx.event.memberCode, 40, members)}
${forms.codeInput(shown, "promo_code", tx.promoCode, 30)}
${forms.formFoot(shown, tx.event.register)}`;
}

/** The page around a body, in the club's colours, under its header with the event's title. */
function eventPage(page: PublicEventPage, locale: Locale, inner: string, script: boolean): string {
  const view = clubCardView(page.club);
  return layoutPage(
    locale,
    `${page.event.title} — ${view.clubName}`,
    brandVars(view.colors.primary, view.colors.secondary),
    `<div class="wrap">${topHeader(view.clubName, page.event.title, view.logoUrl)}<main>${inner}</main></div>${script ? forms.proofScript() : ""}`,
  );
}

function formPage(page: PublicEventPage, shown: forms.Shown, status: number): FileReply {
  const locale = shown.locale;
  const tx = PAGE_TEXTS[locale];
  const e = page.event;
  const time = clock(locale, clubCardView(page.club).country);
  const image = httpUrl(e.image_url);
  const place = [e.location_name, e.location_address].filter(Boolean).join(", ");
  const facts = `<section>${image ? `<img class="cover" src="${escapeHtml(image)}" alt="">` : ""}<dl class="facts"><dt>${escapeHtml(tx.event.when)}</dt><dd>${escapeHtml(time.span(e.starts_at, e.ends_at))}</dd>${
    place ? `<dt>${escapeHtml(tx.event.where)}</dt><dd>${escapeHtml(place)}</dd>` : ""
  }</dl>${e.description ? `<p class="pre gap">${escapeHtml(e.description)}</p>` : ""}<a class="button plain" href="${escapeHtml(
    `${e.public_url}.ics`,
  )}">${escapeHtml(tx.event.calendar)}</a></section>`;
  const left = e.places_left !== null && e.places_left > 0 ? `<p class="muted">${escapeHtml(fill(tx.event.placesLeft, { n: String(e.places_left) }))}</p>` : "";
  const reason = closedReason(page, tx, time.at);
  // With the form open its tickets are its choices; closed, the list still tells what there was.
  const list =
    reason && e.tickets.length
      ? `<section aria-labelledby="h-tickets"><h2 id="h-tickets">${escapeHtml(tx.event.tickets)}</h2>${left}<ul class="tickets">${e.tickets
          .map(
            (t) =>
              `<li><span>${escapeHtml(t.name)}</span><span class="price">${escapeHtml(t.sold_out ? tx.event.soldOut : ticketPrice(t, e.currency, locale, tx))}</span></li>`,
          )
          .join("")}</ul></section>`
      : "";
  const form = reason
    ? `<section><p class="alert" role="status">${escapeHtml(reason)}</p></section>`
    : `<section aria-labelledby="h-register"><h2 id="h-register">${escapeHtml(tx.event.register)}</h2>${left}${registrationForm(page, shown)}</section>`;
  return forms.pageReply(status, eventPage(page, locale, `${facts}${list}${form}`, !reason));
}

/**
 * The event page, or its calendar file when the address ends in `.ics` (a 404 page for an
 * unknown club or event, or a draft), in `?lang=` or the club's language.
 */
export async function renderEventPage(ctx: PublicCtx, clubSlug: string, eventSlug: string, query: { lang?: string }): Promise<FileReply> {
  const ics = eventSlug.endsWith(".ics");
  const page = await forms.unless404(() => getPublicEvent(ctx, clubSlug, ics ? eventSlug.slice(0, -4) : eventSlug));
  if (!page) return forms.notFoundPage(ctx.locale);
  if (ics) {
    const e = page.event;
    return eventCalendar(
      { ...e, status: page.cancelled ? "cancelled" : "published" },
      { uid: `${e.id}@club-api`, description: [e.description, clubCardView(page.club).clubName].filter(Boolean).join("\n\n"), url: e.public_url },
    );
  }
  const locale = forms.pageLocale(page.club.locale, query.lang);
  return formPage(page, await forms.freshForm(ctx, locale, query.lang === locale ? locale : undefined), 200);
}

/** The registration's answer: its status, and what to do next. */
async function answerHtml(page: PublicEventPage, locale: Locale, answer: PublicRegistration & forms.PaymentStep): Promise<string> {
  const tx = PAGE_TEXTS[locale];
  const time = clock(locale, clubCardView(page.club).country);
  const calendar = `<a class="button plain" href="${escapeHtml(answer.ics_url)}">${escapeHtml(tx.event.calendar)}</a>`;
  const what = `<p><strong>${escapeHtml(answer.ticket_name)}</strong> · ${escapeHtml(`${answer.first_name} ${answer.last_name}`)}${
    answer.amount_cents ? ` · <span class="price">${escapeHtml(money(answer.amount_cents, answer.currency, locale))}</span>` : ""
  }</p>`;
  let title: string;
  let inner: string;
  if (answer.status === "confirmed") {
    title = tx.event.confirmedTitle;
    inner = `${what}<p>${escapeHtml(tx.event.confirmedText)}</p><div class="qr" role="img" aria-label="${escapeHtml(tx.event.ticketCode)}">${await qrSvg(
      answer.qr_token,
    )}</div><dl><dt>${escapeHtml(tx.event.ticketCode)}</dt><dd>${escapeHtml(answer.qr_token)}</dd></dl>${calendar}`;
  } else if (answer.status === "pending") {
    title = tx.event.pendingTitle;
    const until = answer.hold_expires_at ? `<p class="muted">${escapeHtml(fill(tx.event.pendingUntil, { date: time.at(answer.hold_expires_at) }))}</p>` : "";
    const bt = answer.bank_transfer;
    const contact = page.club.contact_email;
    const how = bt
      ? transferDetails(bt, MEMBER_PAGE_TEXTS[locale].transfer, locale)
      : contact
        ? `<p>${escapeHtml(tx.event.payContact)} <a href="mailto:${escapeHtml(contact)}">${escapeHtml(contact)}</a></p>`
        : "";
    inner = `${what}<p>${escapeHtml(tx.event.pendingText)}</p>${until}${how}${calendar}`;
  } else {
    title = tx.event.waitlistedTitle;
    inner = `${what}<p>${escapeHtml(tx.event.waitlistedText)}</p>`;
  }
  return answerSection(title, inner);
}

/**
 * Runs the registration form of the event page: the forms.posted fields read by the JSON route's
 * schema, then `registerForEvent`. Answers the registration's page (201), a redirect to the card
 * payment page when the answer carries a `checkout_url` (inside a frame, per the request's
 * `headers`: a link out of it), or the form again with each refusal beside its field and the
 * refusal's status.
 */
export async function submitEventPage(
  ctx: PublicCtx,
  clubSlug: string,
  eventSlug: string,
  input: forms.Posted,
  headers: Headers,
): Promise<FileReply | RedirectReply> {
  const page = await forms.unless404(() => getPublicEvent(ctx, clubSlug, eventSlug));
  if (!page) return forms.notFoundPage(ctx.locale);
  const { locale, lang } = forms.postedLanguage(page.club.locale, input);
  const request = {
    ticket_id: forms.postedText(input, "ticket_id"),
    first_name: forms.posted(input, "first_name"),
    last_name: forms.posted(input, "last_name"),
    email: forms.posted(input, "email").trim(),
    member_code: forms.postedText(input, "member_code"),
    promo_code: forms.postedText(input, "promo_code"),
    ...forms.postedProof(input),
  };
  const tx = PAGE_TEXTS[locale];
  const shown = (inner: string) => forms.pageReply(201, eventPage(page, locale, inner, false));
  return forms.runPageForm(
    ctx,
    { locale, lang, values: input, errors: forms.NO_ERRORS, challenge: "", bits: ctx.formProofBits },
    {
      schema: PublicRegistrationCreate,
      request,
      fieldOf: FIELD_OF,
      run: (pageCtx, data) => registerForEvent(pageCtx, page.event.id, data) as Promise<PublicRegistration & forms.PaymentStep>,
      // The page again as it is now (a place taken meanwhile, registration closed...).
      again: async (form, status) => formPage((await forms.unless404(() => getPublicEvent(ctx, clubSlug, eventSlug))) ?? page, form, status),
      answer: async (answer) => shown(await answerHtml(page, locale, answer)),
      gone: (err) => (err.code === "EVENT_NOT_FOUND" ? forms.notFoundPage(locale) : null),
      checkout: (url) => shown(checkoutLink(tx.event.pendingText, url, tx.continueToPayment)),
      framed: forms.postedInFrame(headers),
    },
  );
}
