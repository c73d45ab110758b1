// The forms of a club's public pages (join, event registration): the fields with their errors
// beside them, the proof against bots of lib/forms (a challenge issued with the page, solved on
// submit by the one inline script; without script, the form may come back once it has been open
// a few seconds), and the mapping of a verb's refusal to the field it is about. The pages call
// the same verbs as the JSON routes: the rules stay in lib/join and lib/events.
import { createHash } from "node:crypto";
import type { ZodType, z } from "zod";
import type { PublicCtx } from "../context";
import { AppError, ValidationFailed } from "../errors";
import { NO_SCRIPT_MIN_MS, pageChallenge } from "../forms";
import { asLocale, LOCALES, type Locale, type MessageCode, t, zodErrorMap } from "../i18n";
import { MESSAGES } from "../i18n/messages";
import type { BankTransfer } from "../member-page/schemas";
import type { FileReply, RedirectReply } from "../reply";
import { PAGE_TEXTS } from "../i18n/pages";
import { escapeHtml, messagePage, openReply } from "../html/layout";

/**
 * Solves the form's challenge with WebCrypto when it is sent (the README's solver), then sends
 * it. Where WebCrypto is missing (plain http) or fails, the form goes without the nonce and the
 * no-script rule applies. Back in the history, the button works again.
 */
export const PROOF_SCRIPT = `(()=>{const z=h=>{let n=0;for(const b of new Uint8Array(h)){if(b)return n+Math.clz32(b)-24;n+=8}return n};
const forms=[...document.querySelectorAll("form[data-bits]")];
addEventListener("pageshow",()=>forms.forEach(f=>{delete f.dataset.sent;f.querySelectorAll("button").forEach(b=>b.disabled=false)}));
forms.forEach(f=>f.addEventListener("submit",async e=>{if(f.dataset.sent)return;e.preventDefault();f.dataset.sent="1";
f.querySelectorAll("button").forEach(b=>b.disabled=true);
try{const c=f.elements.challenge.value,bits=Number(f.dataset.bits),enc=new TextEncoder();
for(let s=0;;s+=256){const ns=Array.from({length:256},(_,i)=>String(s+i));
const hs=await Promise.all(ns.map(n=>crypto.subtle.digest("SHA-256",enc.encode(c+n))));
const i=hs.findIndex(h=>z(h)>=bits);if(i>=0){f.elements.nonce.value=ns[i];break}}}catch(_){}
f.submit()}))})();`;

/** The script's CSP source: only this script runs on the pages. */
export const PROOF_SCRIPT_HASH = `sha256-${createHash("sha256").update(PROOF_SCRIPT).digest("base64")}`;

/** The page's language: `?lang=` when it is one of ours (a club's English site linking its page), else the club's. */
export const pageLocale = (clubLocale: string, lang: unknown): Locale => (LOCALES.includes(lang as Locale) ? (lang as Locale) : asLocale(clubLocale));

/** What a page's verb runs with: the no-script rule of lib/forms on, and refusals in the page's language. */
export const pageCtx = (ctx: PublicCtx, locale: Locale): PublicCtx => ({ ...ctx, locale, formNoScriptMinMs: NO_SCRIPT_MIN_MS });

/** A form's fields as posted (text only: a repeated or odd field is no answer). */
export type Posted = Record<string, unknown>;
export const posted = (input: Posted, name: string): string => (typeof input[name] === "string" ? (input[name] as string) : "");

/** What went wrong with a form: per field (by its name), and for the whole form. */
export type FormErrors = { fields: Record<string, string>; general: string | null };
export const NO_ERRORS: FormErrors = { fields: {}, general: null };

/** A field's name in the form from a 422 item's `loc` (`["body", "custom_fields", "size"]` -> `cf.size`). */
function fieldOf(loc: (string | number)[]): string {
  const path = loc[0] === "body" ? loc.slice(1) : loc;
  return path[0] === "custom_fields" && path.length > 1 ? `cf.${path[1]}` : String(path[0] ?? "");
}

const message = (locale: Locale, text: string) => (text in MESSAGES ? t(locale, text as MessageCode) : text);

/** The form's fields read by `schema` (the JSON route's), or its issues by field, in `locale`. */
export function readForm<S extends ZodType>(schema: S, input: unknown, locale: Locale): { data: z.output<S> } | { errors: FormErrors } {
  const read = schema.safeParse(input, { error: zodErrorMap(locale) });
  if (read.success) return { data: read.data };
  const fields: Record<string, string> = {};
  for (const issue of read.error.issues) {
    const name = fieldOf(issue.path.map((p) => (typeof p === "symbol" ? String(p) : p)));
    fields[name] ??= message(locale, issue.message);
  }
  return { errors: { fields, general: null } };
}

/** The refusals of the proof against bots: the page shows the form again, with a fresh challenge unless it only came too fast. */
export const PROOF_REFUSALS = new Set(["CHALLENGE_REQUIRED", "CHALLENGE_INVALID", "CHALLENGE_EXPIRED", "CHALLENGE_USED", "FORM_SENT_TOO_FAST"]);

/**
 * A verb's refusal as the form shows it: a 422's items beside their fields; a refusal about one
 * field (`byCode`: code -> field) beside it and at the top; any other at the top.
 */
export function refusalOf(err: AppError, locale: Locale, byCode: Record<string, string>): FormErrors {
  if (err instanceof ValidationFailed) {
    const fields: Record<string, string> = {};
    for (const item of err.items) fields[fieldOf(item.loc)] ??= t(locale, item.code, item.params);
    return { fields, general: null };
  }
  const text = t(locale, err.code, err.params);
  const field = Object.entries(byCode).find(([code]) => err.code === code || (code.endsWith("*") && err.code.startsWith(code.slice(0, -1))))?.[1];
  return { fields: field ? { [field]: text } : {}, general: text };
}

/** The challenge the form carries: the one sent back when it can still serve, else a new one. */
async function challengeFor(ctx: PublicCtx, sent: string, refusal: AppError | null): Promise<string> {
  // Spent (ALREADY_MEMBER commits it) or refused: a new one. Any other refusal rolled the verb's
  // transaction back: the challenge is unspent and keeps its age (the no-script rule counts it).
  const unusable = refusal && (refusal.code === "ALREADY_MEMBER" || (PROOF_REFUSALS.has(refusal.code) && refusal.code !== "FORM_SENT_TOO_FAST"));
  return sent && !unusable ? sent : (await pageChallenge(ctx)).challenge;
}

/** The form's hidden parts: the challenge, its nonce (the script fills it), the honeypot. */
export function proofFields(challenge: string): string {
  return `<input type="hidden" name="challenge" value="${escapeHtml(challenge)}"><input type="hidden" name="nonce" value="">
<div class="hp"><label for="website">Website (leave empty)</label><input id="website" name="website" tabindex="-1" autocomplete="off"></div>`;
}

/** The opening tag of a page's form: the proof's difficulty for the script, posted back to `action`. */
export const formTag = (action: string, bits: number) => `<form method="post" action="${escapeHtml(action)}" data-bits="${bits}" novalidate>`;

/** The one script, last in the page. */
export const proofScript = () => `<script>${PROOF_SCRIPT}</script>`;

const errId = (name: string) => `err-${name.replace(/[^\w-]/g, "_")}`;

/** A field's error line (empty without one), and the attributes that tie it to its input. */
export function fieldError(name: string, errors: FormErrors): { line: string; attrs: string } {
  const text = errors.fields[name];
  if (!text) return { line: "", attrs: "" };
  return { line: `<span class="err" id="${errId(name)}">${escapeHtml(text)}</span>`, attrs: ` aria-invalid="true" aria-describedby="${errId(name)}"` };
}

const fieldId = (name: string) => `f-${name.replace(/[^\w-]/g, "_")}`;

/** A labelled text input with its error beside it. */
export function textInput(
  f: { name: string; label: string; value: string; type?: string; required?: boolean; autocomplete?: string; max?: number; optional?: string },
  errors: FormErrors,
): string {
  const e = fieldError(f.name, errors);
  const id = fieldId(f.name);
  const optional = !f.required && f.optional ? ` <span class="opt">${escapeHtml(f.optional)}</span>` : "";
  return `<label for="${id}">${escapeHtml(f.label)}${optional}</label><input id="${id}" name="${escapeHtml(f.name)}" type="${f.type ?? "text"}"${f.required ? " required" : ""}${
    f.autocomplete ? ` autocomplete="${f.autocomplete}"` : ""
  } maxlength="${f.max ?? 200}" value="${escapeHtml(f.value)}"${e.attrs}>${e.line}`;
}

/** A labelled select with its error beside it (`options`: value -> label; an empty first choice unless `required` has one chosen). */
export function selectInput(
  f: { name: string; label: string; value: string; options: [string, string][]; choose: string; optional?: string },
  errors: FormErrors,
): string {
  const e = fieldError(f.name, errors);
  const id = fieldId(f.name);
  const opts = [["", f.choose] as [string, string], ...f.options]
    .map(([v, l]) => `<option value="${escapeHtml(v)}"${v === f.value ? " selected" : ""}>${escapeHtml(l)}</option>`)
    .join("");
  const optional = f.optional ? ` <span class="opt">${escapeHtml(f.optional)}</span>` : "";
  return `<label for="${id}">${escapeHtml(f.label)}${optional}</label><select id="${id}" name="${escapeHtml(f.name)}"${e.attrs}>${opts}</select>${e.line}`;
}

/** A group of radio choices (a tier, a ticket, a payment method) with its error, each choice a card. */
export function radioGroup(
  f: { name: string; legend: string; value: string; choices: { value: string; html: string; disabled?: boolean }[] },
  errors: FormErrors,
): string {
  const e = fieldError(f.name, errors);
  const choices = f.choices
    .map((c, i) => {
      const id = `${fieldId(f.name)}-${i}`;
      return `<label class="choice" for="${id}"><input type="radio" id="${id}" name="${escapeHtml(f.name)}" value="${escapeHtml(c.value)}"${c.value === f.value ? " checked" : ""}${
        c.disabled ? " disabled" : ""
      }><span>${c.html}</span></label>`;
    })
    .join("");
  // aria-invalid belongs to inputs, not to a group: the group points at its error.
  const describedBy = e.line ? ` aria-describedby="${errId(f.name)}"` : "";
  return `<fieldset${describedBy}><legend>${escapeHtml(f.legend)}</legend>${choices}${e.line}</fieldset>`;
}

/** The form's error at the top, when it has one (or fields in error). */
export function formAlert(errors: FormErrors, fallback: string): string {
  const text = errors.general ?? (Object.keys(errors.fields).length ? fallback : null);
  return text ? `<p class="alert" role="alert">${escapeHtml(text)}</p>` : "";
}

/** What a form shows: in which language (and the `?lang=` it keeps), what was typed, what went wrong, its challenge and difficulty. */
export type Shown = { locale: Locale; lang: string | undefined; values: Posted; errors: FormErrors; challenge: string; bits: number };

/** A form as first drawn: empty, with a new challenge. */
export async function freshForm(ctx: PublicCtx, locale: Locale, lang: string | undefined): Promise<Shown> {
  return { locale, lang, values: {}, errors: NO_ERRORS, challenge: (await pageChallenge(ctx)).challenge, bits: ctx.formProofBits };
}

/** A page's address with the `?lang=` the visitor chose. */
export const withLang = (path: string, shown: Pick<Shown, "lang">) => `${path}${shown.lang ? `?lang=${shown.lang}` : ""}`;

/** The start of a page's form (its error at the top) and the fields every one asks: first and last name, email. */
export function formHead(action: string, shown: Shown, before: string): string {
  const tx = PAGE_TEXTS[shown.locale];
  const v = (name: string) => posted(shown.values, name);
  const e = shown.errors;
  return `${formTag(withLang(action, shown), shown.bits)}${formAlert(e, tx.formProblem)}${before}
${textInput({ name: "first_name", label: tx.firstName, value: v("first_name"), required: true, autocomplete: "given-name", max: 100 }, e)}
${textInput({ name: "last_name", label: tx.lastName, value: v("last_name"), required: true, autocomplete: "family-name", max: 100 }, e)}
${textInput({ name: "email", label: tx.email, value: v("email"), type: "email", required: true, autocomplete: "email", max: 320 }, e)}`;
}

/** An optional code field (promo, referral, member card). */
export const codeInput = (shown: Shown, name: string, label: string, max: number, required = false) =>
  textInput({ name, label, value: posted(shown.values, name), required, optional: PAGE_TEXTS[shown.locale].optional, max, autocomplete: "off" }, shown.errors);

/** The end of a page's form: the language kept, the proof's hidden parts, the button. */
export const formFoot = (shown: Shown, submit: string) =>
  `${shown.lang ? `<input type="hidden" name="lang" value="${escapeHtml(shown.lang)}">` : ""}${proofFields(shown.challenge)}
<button type="submit">${escapeHtml(submit)}</button></form>`;

/** What a page's verb may answer about paying: the card payment page (issue 13 item 3), the bank details (item 4). */
export type PaymentStep = { checkout_url?: string | null; bank_transfer?: BankTransfer | null };

/** The page's language from a posted form (its hidden `lang`), and the `?lang=` to keep. */
export function postedLanguage(clubLocale: string, input: Posted): { locale: Locale; lang: string | undefined } {
  const asked = posted(input, "lang") || undefined;
  const locale = pageLocale(clubLocale, asked);
  return { locale, lang: asked === locale ? locale : undefined };
}

/** A posted text field, trimmed; empty: absent. */
export const postedText = (input: Posted, name: string) => posted(input, name).trim() || undefined;

/** The proof fields of a posted form, as the verbs read them. */
export const postedProof = (input: Posted) => ({
  challenge: postedText(input, "challenge"),
  nonce: postedText(input, "nonce"),
  website: postedText(input, "website"),
});

/**
 * Runs a page's form as its JSON route would: the request read by the route's `schema`, then the
 * verb (`run`, with the no-script rule on). Answers the verb's page (`answer`), a redirect to the
 * card payment page when the answer carries a `checkout_url` (inside a frame, `framed`: a page
 * with a link out of it, `checkout`), the 404 page when `gone` says the refusal means the page is
 * no more, or the form again (`again`) with each refusal beside its field and the refusal's status.
 */
export async function runPageForm<S extends ZodType, A extends PaymentStep>(
  ctx: PublicCtx,
  shown: Shown,
  f: {
    schema: S;
    request: unknown;
    fieldOf: Record<string, string>;
    run: (ctx: PublicCtx, data: z.output<S>) => Promise<A>;
    again: (shown: Shown, status: number) => Promise<FileReply> | FileReply;
    answer: (answer: A) => Promise<FileReply> | FileReply;
    gone: (err: AppError) => FileReply | null;
    checkout: (url: string) => FileReply;
    framed: boolean;
  },
): Promise<FileReply | RedirectReply> {
  const sent = posted(shown.values, "challenge");
  const read = readForm(f.schema, f.request, shown.locale);
  if ("errors" in read) return f.again({ ...shown, errors: read.errors, challenge: await challengeFor(ctx, sent, null) }, 422);
  let answer: A;
  try {
    answer = await f.run(pageCtx(ctx, shown.locale), read.data);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const gone = f.gone(err);
    if (gone) return gone;
    return f.again({ ...shown, errors: refusalOf(err, shown.locale, f.fieldOf), challenge: await challengeFor(ctx, sent, err) }, err.status);
  }
  // 303: the form was posted, the payment page is another page, fetched with GET.
  if (answer.checkout_url) return f.framed ? f.checkout(answer.checkout_url) : { redirect: answer.checkout_url, status: 303 };
  return f.answer(answer);
}

/** Whether the form was posted from inside a frame (a club's site embedding the page): the browser says so in `Sec-Fetch-Dest`. */
export const postedInFrame = (headers: Headers): boolean => headers.get("sec-fetch-dest") === "iframe";

/** `load()`, or null where it is a 404 (the page then says it does not exist). */
export async function unless404<T>(load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (err) {
    if (err instanceof AppError && err.status === 404) return null;
    throw err;
  }
}

/** The reply of a club's open page (join, event): its one script allowed, framing allowed. */
export const pageReply = openReply(PROOF_SCRIPT_HASH);

/** The 404 page of an unknown club or event, in `locale`. */
export function notFoundPage(locale: Locale): FileReply {
  const tx = PAGE_TEXTS[locale];
  return pageReply(404, messagePage(locale, tx.notFoundTitle, tx.notFoundText));
}
