// The forms of a club's public pages (join, event registration): the fields with their errors
// beside them, the proof against bots of lib/forms (a challenge issued with the page, solved on
// submit by the one inline script; without script, the form may come back once it has been open
// a few seconds), and the mapping of a verb's refusal to the field it is about. The pages call
// the same verbs as the JSON routes: the rules stay in lib/join and lib/events.
import { createHash } from "node:crypto";
import type { ZodType, z } from "zod";
import type { PublicCtx } from "../context";
import { AppError, ValidationFailed } from "../errors";
import { formChallenge, NO_SCRIPT_MIN_MS } from "../forms";
import { asLocale, LOCALES, type Locale, type MessageCode, t, zodErrorMap } from "../i18n";
import { MESSAGES } from "../i18n/messages";
import { escapeHtml } from "./layout";

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
export async function challengeFor(ctx: PublicCtx, sent: string, refusal: AppError | null): Promise<string> {
  const spent = refusal && PROOF_REFUSALS.has(refusal.code) && refusal.code !== "FORM_SENT_TOO_FAST";
  // A refusal of the verb rolled its transaction back: the challenge is unspent and keeps its age.
  return sent && refusal && !spent ? sent : (await formChallenge(ctx)).challenge;
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
