// The join page (DESIGN.md section 13): /join/<club_slug>, for a club with no web developer. The
// club's name, logo, colours and description, its membership mode, its active tiers with their
// prices, and the form of `POST /api/public/clubs/<slug>/join` (the same verb, `joinClub`, and the
// same schema), then the payment step: the bank transfer details, or the card payment page when
// the answer carries a `checkout_url`. A refusal shows the form again with each error beside its
// field, in the page's language.
import type { PublicCtx } from "../context";
import type { Locale } from "../i18n";
import { MEMBER_PAGE_TEXTS } from "../i18n/member-page";
import { PAGE_TEXTS, type PageTexts } from "../i18n/pages";
import { getPublicClub, joinClub } from "../join";
import { type JoinAnswer, JoinRequest, type PublicClub } from "../join/schemas";
import type { FileReply, RedirectReply } from "../reply";
import {
  codeInput,
  type FormErrors,
  formFoot,
  formHead,
  freshForm,
  NO_ERRORS,
  notFoundPage,
  type PaymentStep,
  type Posted,
  pageLocale,
  pageReply as reply,
  posted,
  postedLanguage,
  postedInFrame,
  postedProof,
  postedText,
  radioGroup,
  runPageForm,
  selectInput,
  type Shown,
  textInput,
  unless404,
} from "./form";
import { answerSection, brandVars, checkoutLink, escapeHtml, fill, layoutPage, money, topHeader, transferDetails } from "../html/layout";
import { proofScript } from "./form";

/** The page's own address (the form posts back to it). */
const joinPath = (slug: string) => `/join/${encodeURIComponent(slug)}`;

/** Refusals about one field of the form: shown beside it (and at the top). */
const FIELD_OF: Record<string, string> = {
  ALREADY_MEMBER: "email",
  "PROMO_CODE_*": "promo_code",
  PAYMENT_METHOD_UNAVAILABLE: "payment_method",
};

/** Whether the form asks the visitor to choose a subscription: the club allows one (by card, which it takes) and does not impose it. */
const asksSubscription = (club: PublicClub): boolean => club.allow_subscription && !club.subscription_only;

/** A custom field definition as the public club page gives it (every one has a key, lib/join). */
type FieldDef = Record<string, unknown> & { key: string };
const fieldsOf = (club: PublicClub) => club.custom_fields as FieldDef[];

const duration = (months: number, tx: PageTexts) => (months === 1 ? tx.join.oneMonth : fill(tx.join.months, { n: String(months) }));

/** The club's custom fields as inputs (text, number, yes/no, a list of options), each with its error. */
function customInputs(club: PublicClub, values: Posted, errors: FormErrors, tx: PageTexts): string {
  return fieldsOf(club)
    .map((def) => {
      const name = `cf.${def.key}`;
      const label = typeof def.label === "string" && def.label ? def.label : String(def.key);
      const required = def.required === true;
      const value = posted(values, name);
      const optional = required ? undefined : tx.optional;
      const options = Array.isArray(def.options)
        ? def.options.map((o): [string, string] => {
            const v: { value?: unknown; label?: unknown } = o && typeof o === "object" ? o : { value: o };
            return [String(v.value ?? ""), String(v.label ?? v.value ?? "")];
          })
        : null;
      if (options) return selectInput({ name, label, value, options, choose: tx.choose, optional }, errors);
      if (def.type === "boolean")
        return selectInput(
          {
            name,
            label,
            value,
            options: [
              ["true", tx.yes],
              ["false", tx.no],
            ],
            choose: tx.choose,
            optional,
          },
          errors,
        );
      return textInput({ name, label, value, required, type: def.type === "number" ? "number" : "text", optional, max: 1000 }, errors);
    })
    .join("");
}

/** The custom fields' answers as the verb reads them: a number for a `number` field, a boolean for a yes/no, empty left out. */
function customAnswers(club: PublicClub, values: Posted): Record<string, string | number | boolean> | undefined {
  const out: Record<string, string | number | boolean> = {};
  for (const def of fieldsOf(club)) {
    const raw = posted(values, `cf.${def.key}`);
    if (raw === "") continue;
    const optionValues = Array.isArray(def.options) ? def.options.map((o) => (o && typeof o === "object" ? (o as { value?: unknown }).value : o)) : [];
    // An option's stored value may be a number: the posted text stands for it.
    const option = optionValues.find((v) => String(v) === raw);
    if (option !== undefined && option !== null) out[def.key] = option as string | number | boolean;
    else if (def.type === "number" && raw.trim() !== "" && Number.isFinite(Number(raw))) out[def.key] = Number(raw);
    else if (def.type === "boolean" && (raw === "true" || raw === "false")) out[def.key] = raw === "true";
    else out[def.key] = raw;
  }
  return Object.keys(out).length ? out : undefined;
}

function joinForm(club: PublicClub, shown: Shown): string {
  const tx = PAGE_TEXTS[shown.locale];
  const { values, errors } = shown;
  const v = (name: string) => posted(values, name);
  const tiers = radioGroup(
    {
      name: "tier_id",
      legend: tx.join.tiers,
      value: v("tier_id") || (club.tiers.length === 1 ? club.tiers[0].id : ""),
      choices: club.tiers.map((tier) => ({
        value: tier.id,
        html: `<strong>${escapeHtml(tier.name)}</strong><span class="price">${escapeHtml(tier.price_cents ? money(tier.price_cents, tier.currency, shown.locale) : tx.join.free)}</span> · ${escapeHtml(
          duration(tier.duration_months, tx),
        )}${tier.description ? `<span class="muted pre desc">${escapeHtml(tier.description)}</span>` : ""}`,
      })),
    },
    errors,
  );
  const methods = club.payment_methods;
  const payment = methods.length
    ? radioGroup(
        {
          name: "payment_method",
          legend: tx.join.payment,
          value: v("payment_method") || (methods.length === 1 ? methods[0] : ""),
          choices: methods.map((m) => ({ value: m, html: `<strong>${escapeHtml(tx.join.methods[m])}</strong>` })),
        },
        errors,
      )
    : "";
  const subscription = asksSubscription(club)
    ? `<label class="choice" for="f-subscription"><input type="checkbox" id="f-subscription" name="subscription" value="true"${
        v("subscription") === "true" || (!Object.keys(values).length && club.subscription_default) ? " checked" : ""
      }><span>${escapeHtml(tx.join.subscription)}</span></label>`
    : "";
  const submit = club.membership_mode === "application" ? tx.join.submitApplication : tx.join.submit;
  return `${formHead(joinPath(club.slug), shown, tiers)}
${customInputs(club, values, errors, tx)}
${codeInput(shown, "promo_code", tx.promoCode, 30)}
${codeInput(shown, "referral_code", tx.join.referralCode, 30)}
${payment}${subscription}
${formFoot(shown, submit)}`;
}

/** The page around a body: the club's header (logo, name, the page's title) in its colours. */
function clubPage(club: PublicClub, locale: Locale, title: string, inner: string, script: boolean): string {
  const vars = brandVars(club.primary_color, club.secondary_color);
  return layoutPage(
    locale,
    `${club.name} — ${title}`,
    vars,
    `<div class="wrap">${topHeader(club.name, title, club.logo_url)}<main>${inner}</main></div>${script ? proofScript() : ""}`,
  );
}

function formPage(club: PublicClub, shown: Shown, status: number): FileReply {
  const locale = shown.locale;
  const tx = PAGE_TEXTS[locale];
  const about = club.description ? `<section><p class="pre">${escapeHtml(club.description)}</p></section>` : "";
  let inner: string;
  if (club.membership_mode === "closed") inner = `${about}<section><p class="alert" role="status">${escapeHtml(tx.join.closed)}</p></section>`;
  else if (!club.tiers.length) inner = `${about}<section><p>${escapeHtml(tx.join.noTier)}</p></section>`;
  else {
    const application =
      club.membership_mode === "application"
        ? `<section aria-labelledby="h-application"><h2 id="h-application">${escapeHtml(tx.join.application)}</h2>${
            club.application_instructions ? `<p class="pre">${escapeHtml(club.application_instructions)}</p>` : ""
          }</section>`
        : "";
    // The page's title (h1) names the form: no second heading saying it again.
    inner = `${about}${application}<section>${joinForm(club, shown)}</section>`;
  }
  const closed = club.membership_mode === "closed" || !club.tiers.length;
  return reply(status, clubPage(club, locale, tx.join.title, inner, !closed));
}

/** The join page of the club whose slug is `slug` (a 404 page for an unknown one), in `?lang=` or the club's language. */
export async function renderJoinPage(ctx: PublicCtx, slug: string, query: { lang?: string }): Promise<FileReply> {
  const club = await unless404(() => getPublicClub(ctx, slug));
  if (!club) return notFoundPage(ctx.locale);
  const locale = pageLocale(club.locale, query.lang);
  return formPage(club, await freshForm(ctx, locale, query.lang === locale ? locale : undefined), 200);
}

/** The answer: welcome (active), application received, or the payment step. */
function answerHtml(locale: Locale, answer: JoinAnswer): string {
  const tx = PAGE_TEXTS[locale];
  const manage = `<a class="button plain" href="${escapeHtml(answer.manage_url)}">${escapeHtml(tx.join.manage)}</a>`;
  const discount = answer.discount_cents
    ? `<p class="muted">${escapeHtml(fill(tx.join.discount, { amount: money(answer.discount_cents, answer.currency, locale) }))}</p>`
    : "";
  let title: string;
  let inner: string;
  if (answer.application_status === "pending_approval") {
    title = tx.join.appliedTitle;
    inner = `<p>${escapeHtml(tx.join.appliedText)}</p>`;
  } else if (answer.status === "active") {
    title = tx.join.activeTitle;
    inner = `<p>${escapeHtml(tx.join.activeText)}</p>${manage}`;
  } else {
    title = tx.join.payTitle;
    const bt = answer.bank_transfer;
    inner = `<p>${escapeHtml(tx.join.payText)}</p>${discount}${bt ? transferDetails(bt, MEMBER_PAGE_TEXTS[locale].transfer, locale) : ""}${manage}`;
  }
  return answerSection(title, inner);
}

/**
 * Runs the join form of the page: the posted fields read by the JSON route's schema, then
 * `joinClub`. Answers the payment step (201), a redirect to the card payment page when the answer
 * carries a `checkout_url` (inside a frame, per the request's `headers`: a link out of it), or the
 * form again with each refusal beside its field and the refusal's status.
 */
export async function submitJoinPage(ctx: PublicCtx, slug: string, input: Posted, headers: Headers): Promise<FileReply | RedirectReply> {
  const club = await unless404(() => getPublicClub(ctx, slug));
  if (!club) return notFoundPage(ctx.locale);
  const { locale, lang } = postedLanguage(club.locale, input);
  const methods = club.payment_methods;
  const request = {
    tier_id: postedText(input, "tier_id"),
    first_name: posted(input, "first_name"),
    last_name: posted(input, "last_name"),
    email: posted(input, "email").trim(),
    promo_code: postedText(input, "promo_code"),
    referral_code: postedText(input, "referral_code"),
    custom_fields: customAnswers(club, input),
    // Nothing to choose from (a free tier, or one way to pay): the verb checks it only when there is an amount.
    payment_method: postedText(input, "payment_method") ?? (methods.length === 1 ? methods[0] : methods.length ? undefined : "bank_transfer"),
    ...(asksSubscription(club) ? { subscription: posted(input, "subscription") === "true" } : {}),
    ...postedProof(input),
  };
  const tx = PAGE_TEXTS[locale];
  const page = (inner: string) => reply(201, clubPage(club, locale, tx.join.title, inner, false));
  return runPageForm(
    ctx,
    { locale, lang, values: input, errors: NO_ERRORS, challenge: "", bits: ctx.formProofBits },
    {
      schema: JoinRequest,
      request,
      fieldOf: FIELD_OF,
      run: (pageCtx, data) => joinClub(pageCtx, slug, data) as Promise<JoinAnswer & PaymentStep>,
      again: (shown, status) => formPage(club, shown, status),
      answer: (answer) => page(answerHtml(locale, answer)),
      gone: (err) => (err.status === 404 ? notFoundPage(locale) : null),
      checkout: (url) => page(checkoutLink(tx.join.payText, url, tx.continueToPayment)),
      framed: postedInFrame(headers),
    },
  );
}
