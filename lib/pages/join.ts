// The join page (DESIGN.md section 13): /join/<club_slug>, for a club with no web developer. The
// club's name, logo, colours and description, its membership mode, its active tiers with their
// prices, and the form of `POST /api/public/clubs/<slug>/join` (the same verb, `joinClub`, and the
// same schema), then the payment step: the bank transfer details, or the card payment page when
// the answer carries a `checkout_url`. A refusal shows the form again with each error beside its
// field, in the page's language.
import type { PublicCtx } from "../context";
import { AppError } from "../errors";
import { formChallenge } from "../forms";
import type { Locale } from "../i18n";
import { MEMBER_PAGE_TEXTS } from "../i18n/member-page";
import { PAGE_TEXTS, type PageTexts } from "../i18n/pages";
import { getPublicClub, joinClub } from "../join";
import { type JoinAnswer, JoinRequest, type PublicClub } from "../join/schemas";
import type { FileReply, RedirectReply } from "../reply";
import {
  challengeFor,
  type FormErrors,
  formAlert,
  formTag,
  NO_ERRORS,
  type Posted,
  pageCtx,
  pageLocale,
  posted,
  PROOF_SCRIPT_HASH,
  proofFields,
  proofScript,
  radioGroup,
  readForm,
  refusalOf,
  selectInput,
  textInput,
} from "./form";
import { brandVars, escapeHtml, fill, htmlReply, layoutPage, messagePage, money, openPageHeaders, topHeader, transferDetails } from "./layout";

const HEADERS = openPageHeaders(PROOF_SCRIPT_HASH);
const reply = (status: number, body: string): FileReply => htmlReply(status, body, HEADERS);

/** The page's own address (the form posts back to it), keeping the visitor's `?lang=`. */
const joinPath = (slug: string, lang: string | undefined) => `/join/${encodeURIComponent(slug)}${lang ? `?lang=${lang}` : ""}`;

/** Refusals about one field of the form: shown beside it (and at the top). */
const FIELD_OF: Record<string, string> = {
  ALREADY_MEMBER: "email",
  "PROMO_CODE_*": "promo_code",
  PAYMENT_METHOD_UNAVAILABLE: "payment_method",
};

/** What a club with the subscription settings of issue 13 tells its page (absent until card payments exist). */
type SubscriptionOffer = { allow_subscription?: boolean; subscription_only?: boolean; subscription_default?: boolean };

/** Whether the form asks the visitor to choose a subscription: the club allows one, does not impose it, and takes cards. */
function asksSubscription(club: PublicClub): boolean {
  const offer = club as PublicClub & SubscriptionOffer;
  return offer.allow_subscription === true && offer.subscription_only !== true && club.payment_methods.includes("stripe");
}

function notFound(locale: Locale): FileReply {
  const tx = PAGE_TEXTS[locale];
  return reply(404, messagePage(locale, tx.notFoundTitle, tx.notFoundText));
}

async function clubOr404(ctx: PublicCtx, slug: string): Promise<PublicClub | null> {
  try {
    return await getPublicClub(ctx, slug);
  } catch (err) {
    if (err instanceof AppError && err.status === 404) return null;
    throw err;
  }
}

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

function joinForm(club: PublicClub, locale: Locale, lang: string | undefined, values: Posted, errors: FormErrors, challenge: string, bits: number): string {
  const tx = PAGE_TEXTS[locale];
  const v = (name: string) => posted(values, name);
  const tiers = radioGroup(
    {
      name: "tier_id",
      legend: tx.join.tiers,
      value: v("tier_id") || (club.tiers.length === 1 ? club.tiers[0].id : ""),
      choices: club.tiers.map((tier) => ({
        value: tier.id,
        html: `<strong>${escapeHtml(tier.name)}</strong><span class="price">${escapeHtml(tier.price_cents ? money(tier.price_cents, tier.currency, locale) : tx.join.free)}</span> · ${escapeHtml(
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
        v("subscription") === "true" || (!Object.keys(values).length && (club as PublicClub & SubscriptionOffer).subscription_default !== false)
          ? " checked"
          : ""
      }><span>${escapeHtml(tx.join.subscription)}</span></label>`
    : "";
  const submit = club.membership_mode === "application" ? tx.join.submitApplication : tx.join.submit;
  return `${formTag(joinPath(club.slug, lang), bits)}${formAlert(errors, tx.formProblem)}
${tiers}
${textInput({ name: "first_name", label: tx.firstName, value: v("first_name"), required: true, autocomplete: "given-name", max: 100 }, errors)}
${textInput({ name: "last_name", label: tx.lastName, value: v("last_name"), required: true, autocomplete: "family-name", max: 100 }, errors)}
${textInput({ name: "email", label: tx.email, value: v("email"), type: "email", required: true, autocomplete: "email", max: 320 }, errors)}
${customInputs(club, values, errors, tx)}
${textInput({ name: "promo_code", label: tx.promoCode, value: v("promo_code"), optional: tx.optional, max: 30, autocomplete: "off" }, errors)}
${textInput({ name: "referral_code", label: tx.join.referralCode, value: v("referral_code"), optional: tx.optional, max: 30, autocomplete: "off" }, errors)}
${payment}${subscription}
${lang ? `<input type="hidden" name="lang" value="${escapeHtml(lang)}">` : ""}${proofFields(challenge)}
<button type="submit">${escapeHtml(submit)}</button></form>`;
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

async function formPage(
  ctx: PublicCtx,
  club: PublicClub,
  locale: Locale,
  lang: string | undefined,
  values: Posted,
  errors: FormErrors,
  challenge: string,
  status: number,
): Promise<FileReply> {
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
    inner = `${about}${application}<section>${joinForm(club, locale, lang, values, errors, challenge, ctx.formProofBits)}</section>`;
  }
  const closed = club.membership_mode === "closed" || !club.tiers.length;
  return reply(status, clubPage(club, locale, tx.join.title, inner, !closed));
}

/** The join page of the club whose slug is `slug` (a 404 page for an unknown one), in `?lang=` or the club's language. */
export async function renderJoinPage(ctx: PublicCtx, slug: string, query: { lang?: string }): Promise<FileReply> {
  const club = await clubOr404(ctx, slug);
  if (!club) return notFound(ctx.locale);
  const locale = pageLocale(club.locale, query.lang);
  const lang = query.lang === locale ? locale : undefined;
  const challenge = club.membership_mode === "closed" ? "" : (await formChallenge(ctx)).challenge;
  return formPage(ctx, club, locale, lang, {}, NO_ERRORS, challenge, 200);
}

/** A link out of a frame (a payment page refuses to be shown inside another site's page). */
function checkoutLinkPage(club: PublicClub, locale: Locale, url: string): FileReply {
  const tx = PAGE_TEXTS[locale];
  return reply(
    201,
    clubPage(
      club,
      locale,
      tx.join.payTitle,
      `<section><p>${escapeHtml(tx.join.payText)}</p><a class="button" href="${escapeHtml(url)}" target="_top">${escapeHtml(tx.continueToPayment)}</a></section>`,
      false,
    ),
  );
}

/** The answer's page: welcome (active), application received, or the payment step. */
function answerPage(club: PublicClub, locale: Locale, answer: JoinAnswer): FileReply {
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
  return reply(201, clubPage(club, locale, tx.join.title, `<section role="status"><h2>${escapeHtml(title)}</h2>${inner}</section>`, false));
}

/**
 * Runs the join form of the page: the posted fields read by the JSON route's schema, then
 * `joinClub`. Answers the payment step (201), a redirect to the card payment page when the answer
 * carries a `checkout_url` (inside a frame: a link out of it, `framed`), or the form again with
 * each refusal beside its field and the refusal's status.
 */
export async function submitJoinPage(ctx: PublicCtx, slug: string, input: Posted, framed: boolean): Promise<FileReply | RedirectReply> {
  const club = await clubOr404(ctx, slug);
  if (!club) return notFound(ctx.locale);
  const lang = posted(input, "lang") || undefined;
  const locale = pageLocale(club.locale, lang);
  const v = (name: string) => posted(input, name).trim() || undefined;
  const methods = club.payment_methods;
  const request = {
    tier_id: v("tier_id"),
    first_name: posted(input, "first_name"),
    last_name: posted(input, "last_name"),
    email: posted(input, "email").trim(),
    promo_code: v("promo_code"),
    referral_code: v("referral_code"),
    custom_fields: customAnswers(club, input),
    // Nothing to choose from (a free tier, or one way to pay): the verb checks it only when there is an amount.
    payment_method: v("payment_method") ?? (methods.length === 1 ? methods[0] : methods.length ? undefined : "bank_transfer"),
    ...(asksSubscription(club) ? { subscription: posted(input, "subscription") === "true" } : {}),
    challenge: v("challenge"),
    nonce: v("nonce"),
    website: v("website"),
  };
  const read = readForm(JoinRequest, request, locale);
  const again = async (errors: FormErrors, status: number, refusal: AppError | null) =>
    formPage(ctx, club, locale, lang === locale ? lang : undefined, input, errors, await challengeFor(ctx, posted(input, "challenge"), refusal), status);
  if ("errors" in read) return again(read.errors, 422, null);
  let answer: JoinAnswer & { checkout_url?: string | null };
  try {
    answer = await joinClub(pageCtx(ctx, locale), slug, read.data);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.status === 404) return notFound(locale);
    return again(refusalOf(err, locale, FIELD_OF), err.status, err);
  }
  if (answer.checkout_url) return framed ? checkoutLinkPage(club, locale, answer.checkout_url) : { redirect: answer.checkout_url };
  return answerPage(club, locale, answer);
}
