// /admin/mailings — mailings to the members (DESIGN.md section 22, issue 29): the history with its
// counts; the compose page of a draft (subject, Markdown body with its merge fields, the audience
// picker with a live count through htmx, a preview as a chosen member gets it, a test to the
// signed-in admin, send now or schedule, cancel); and a sent one's page with its recipients and
// their delivery states. Each is the API's verb with its scope: listMailings, createMailing,
// updateMailing, countAudience, previewMailing, sendTestMailing, sendMailing, cancelMailing,
// listMailingRecipients. The member page's marks (bounced, said no): MailingMarks, used there.
import { AppError, ValidationFailed } from "../../lib/errors";
import { listEvents } from "../../lib/events";
import { REGISTRATION_STATUSES } from "../../lib/events/schemas";
import { t as translate } from "../../lib/i18n";
import { fill, plural } from "../../lib/i18n/dashboard";
import { EVENTS_TEXTS } from "../../lib/i18n/dashboard-events";
import { MAILINGS_TEXTS, type MailingDone, type MailingsTexts } from "../../lib/i18n/dashboard-mailings";
import { MEMBERS_TEXTS } from "../../lib/i18n/dashboard-members";
import {
  type AudienceCount,
  cancelMailing,
  countAudience,
  createMailing,
  getMailing,
  listMailingRecipients,
  listMailings,
  previewMailing,
  sendMailing,
  sendTestMailing,
  updateMailing,
} from "../../lib/mailings";
import { type Mailing, MailingAudience, MailingCreate, MailingSend, MERGE_FIELDS } from "../../lib/mailings/schemas";
import { type MemberAdminItem, STATUSES } from "../../lib/members/schemas";
import { listTiers } from "../../lib/tiers";
import { errorAnswer } from "../../http/errors";
import { CheckGroup, check, doneOf, Field, FieldNotes, Notice, NO_PROBLEMS, type Problems, problemsOf, TextArea, textOf, utcTimes } from "../components/form";
import { Pager } from "../components/pager";
import { RecordTable } from "../components/record-table";
import { day, instant, zoned } from "../format";
import { Fragment, h, type Html } from "../jsx";
import { CsrfField } from "../layout";
import { definePage, type PageInput } from "../page";

const PAGE_SIZE = 50;
const RECIPIENTS_PAGE = 100;
/** The audience's fields as the picker sends them (a ticked box is one value). */
const AUDIENCE_FIELDS = ["statuses", "tier_ids", "event_id", "registration_statuses"] as const;

type Values = { subject: string; body_markdown: string; audience: MailingAudience };

function pageOf(query: URLSearchParams): number {
  const page = Number(query.get("page"));
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

/** The picker's audience from a form or a query: an empty part is absent (the API's "any"); registration statuses only with an event. */
function audienceOf(source: FormData | URLSearchParams | null): MailingAudience {
  const all = (name: string) =>
    (source?.getAll(name) ?? [])
      .filter((v): v is string => typeof v === "string" && v !== "")
      .map((v) => v.trim())
      .slice(0, 100);
  const out: Record<string, unknown> = {};
  for (const name of ["statuses", "tier_ids"] as const) if (all(name).length) out[name] = all(name);
  const event = all("event_id")[0];
  if (event) {
    out.event_id = event.toLowerCase();
    if (all("registration_statuses").length) out.registration_statuses = all("registration_statuses");
  }
  return out as MailingAudience;
}

function valuesOf(form: FormData | null, mailing?: Mailing): Values {
  if (!form) return { subject: mailing?.subject ?? "", body_markdown: mailing?.body_markdown ?? "", audience: mailing?.audience ?? {} };
  const body = form.get("body_markdown");
  return { subject: textOf(form, "subject"), body_markdown: typeof body === "string" ? body : "", audience: audienceOf(form) };
}

/**
 * A refusal as the compose page shows it: beside its field; an audience's tier or event (`...tier_ids.<i>`)
 * beside the picker; a mail server's refusal of the test (502) on top, the page kept.
 */
function refusalOf(err: unknown, input: PageInput): Problems {
  if (err instanceof AppError && err.status === 502) {
    const { detail } = errorAnswer(err, input.locale).body;
    return { status: 502, fields: {}, message: typeof detail === "string" ? detail : detail.map((i) => i.msg).join(" ") };
  }
  const problems = problemsOf(err, input.locale);
  if (err instanceof ValidationFailed && err.items.some((i) => i.loc[1] === "audience") && problems.message)
    return { ...problems, fields: { ...problems.fields, audience: problems.message }, message: null };
  return problems;
}

const STATE_LOOK: Record<Mailing["status"], string> = { draft: "pending", scheduled: "pending", sending: "pending", sent: "active", cancelled: "expired" };

export function MailingState(props: { status: Mailing["status"]; tm: MailingsTexts }): Html {
  return <span class={`status status-${STATE_LOOK[props.status]}`}>{props.tm.states[props.status]}</span>;
}

/** When a mailing went or goes: finished, scheduled, or nothing yet. */
function whenOf(m: Mailing, input: PageInput): string {
  return instant(m.sent_at ?? (m.status === "scheduled" || m.status === "sending" ? m.send_at : null), input.locale, input.timeZone);
}

async function list(input: PageInput): Promise<Response> {
  const { ctx, locale, t } = input;
  const tm = MAILINGS_TEXTS[locale];
  const page = pageOf(input.query);
  const result = await listMailings(ctx, { page, limit: PAGE_SIZE });
  const pages = Math.max(1, Math.ceil(result.total / PAGE_SIZE));
  return input.page(
    t.nav.mailings,
    <Fragment>
      <Notice done={doneOf(input.query, tm.done)} />
      <p>{tm.intro}</p>
      {input.can(createMailing.scope) ? (
        <div class="actions">
          <a class="button" href="/admin/mailings/new">
            {tm.add}
          </a>
        </div>
      ) : null}
      <p class="muted" role="status">
        {plural(locale, tm.found, result.total)}
      </p>
      {result.items.length ? (
        <RecordTable
          compact
          columns={[
            { label: tm.subject, class: "wrap" },
            { label: tm.status },
            { label: zoned(tm.when, input.timeZone), class: "nowrap" },
            { label: tm.counts.recipients, class: "num" },
            { label: tm.counts.sent, class: "num" },
            { label: tm.counts.failed, class: "num" },
            { label: tm.counts.bounced, class: "num" },
            { label: tm.counts.skipped_opt_out, class: "num" },
          ]}
          rows={result.items.map((m) => [
            <a href={`/admin/mailings/${m.id}`}>{m.subject}</a>,
            <MailingState status={m.status} tm={tm} />,
            whenOf(m, input),
            String(m.counts.recipients),
            String(m.counts.sent),
            String(m.counts.failed),
            String(m.counts.bounced),
            String(m.counts.skipped_opt_out),
          ])}
        />
      ) : (
        <p class="card">{tm.empty}</p>
      )}
      {pages > 1 ? <Pager t={t} page={page} pages={pages} link={(p) => `/admin/mailings${p > 1 ? `?page=${p}` : ""}`} /> : null}
    </Fragment>,
  );
}

// ---- The live count ----

/** What the audience would reach now: the count, how many would be skipped, a few names. */
function CountText(props: { count: AudienceCount; input: PageInput }): Html {
  const { count, input } = props;
  const tm = MAILINGS_TEXTS[input.locale];
  return (
    <Fragment>
      <p class="count">
        <strong>{plural(input.locale, tm.wouldReach, count.count)}</strong>
        {count.skipped ? ` ${plural(input.locale, tm.wouldSkip, count.skipped)}` : null}
      </p>
      {count.sample.length ? (
        <p class="muted small">
          {tm.sample} {count.sample.map((s) => s.name).join(", ")}
          {count.count > count.sample.length ? " …" : ""}
        </p>
      ) : null}
    </Fragment>
  );
}

/** GET /mailings/count (htmx, as the picker changes): countAudience of the audience ticked, not saved; a refusal in the club's language. */
async function countFragment(input: PageInput): Promise<Response> {
  const audience = audienceOf(input.query);
  const checked = check(MailingAudience, audience, input.locale);
  let body: Html;
  let status = 200;
  if (!checked.ok) {
    status = 422;
    body = <Notice error={Object.values(checked.problems.fields).join(" ")} />;
  } else {
    try {
      body = <CountText count={await countAudience(input.ctx, { audience: checked.data })} input={input} />;
    } catch (err) {
      const problems = problemsOf(err, input.locale);
      status = problems.status;
      body = <Notice error={problems.message ?? Object.values(problems.fields).join(" ")} />;
    }
  }
  return new Response(String(body), { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}

// ---- Compose ----

async function ComposeForm(props: { input: PageInput; mailing?: Mailing; values: Values; problems: Problems }): Promise<Html> {
  const { input, mailing, values, problems } = props;
  const { locale } = input;
  const tm = MAILINGS_TEXTS[locale];
  const tiers = input.can(listTiers.scope) ? await listTiers(input.ctx, {}) : [];
  const events = input.can(listEvents.scope) ? await listEvents(input.ctx, {}) : [];
  const count = await countAudience(input.ctx, { audience: values.audience }).catch(() => null);
  const members = MEMBERS_TEXTS[locale];
  const regs = EVENTS_TEXTS[locale].regStatus;
  const a = values.audience;
  return (
    <form method="post" action={mailing ? `/admin/mailings/${mailing.id}` : "/admin/mailings/new"} class="card" id="compose-form" novalidate>
      <CsrfField token={input.csrf} />
      <Field name="subject" label={tm.subject} value={values.subject} error={problems.fields.subject} required autocomplete="off" />
      <TextArea name="body_markdown" label={tm.body} value={values.body_markdown} error={problems.fields.body_markdown} hint={tm.bodyHint} rows={12} />
      <div class="merge-help">
        <p class="muted small" id="merge-title">
          {tm.mergeTitle}
        </p>
        <ul class="small" aria-labelledby="merge-title">
          {MERGE_FIELDS.map((f) => (
            <li>
              <code>{`{{${f}}}`}</code> {tm.merge[f]}
            </li>
          ))}
        </ul>
      </div>
      <fieldset class="audience" aria-describedby="audience-hint">
        <legend>{tm.audience}</legend>
        <p id="audience-hint" class="muted small">
          {tm.audienceHint}
        </p>
        {problems.fields.audience ? <Notice error={problems.fields.audience} /> : null}
        <CheckGroup inline name="statuses" legend={tm.statuses} options={STATUSES.map((s) => ({ value: s, label: members.status[s] }))} chosen={a.statuses} />
        {tiers.length ? (
          <CheckGroup inline name="tier_ids" legend={tm.tiers} options={tiers.map((tier) => ({ value: tier.id, label: tier.name }))} chosen={a.tier_ids} />
        ) : null}
        {events.length ? (
          <Fragment>
            <div class="field">
              <label for="f-event_id">{tm.event}</label>
              <select id="f-event_id" name="event_id" aria-invalid={problems.fields.event_id ? "true" : undefined}>
                <option value="">{tm.noEvent}</option>
                {events.map((e) => (
                  <option value={e.id} selected={e.id === a.event_id}>
                    {`${e.title} · ${day(e.starts_at, locale)}`}
                  </option>
                ))}
              </select>
              <FieldNotes id="f-event_id" error={problems.fields.event_id} />
            </div>
            <CheckGroup
              inline
              name="registration_statuses"
              legend={tm.registrationStatuses}
              hint={tm.registrationHint}
              options={REGISTRATION_STATUSES.map((s) => ({ value: s, label: regs[s] }))}
              chosen={a.registration_statuses}
            />
          </Fragment>
        ) : null}
        <div
          id="audience-count"
          class="audience-count"
          role="status"
          aria-live="polite"
          hx-get="/admin/mailings/count"
          hx-trigger="change from:#compose-form"
          hx-include="#compose-form"
          hx-params={AUDIENCE_FIELDS.join(",")}
        >
          {count ? <CountText count={count} input={input} /> : null}
        </div>
      </fieldset>
      <div class="actions">
        <button type="submit">{tm.save}</button>
        <a href="/admin/mailings">{tm.back}</a>
      </div>
    </form>
  );
}

/** The preview frame's address: the mail's HTML as a page of its own, framed by ours only. */
const framePath = (mailingId: string, memberId: string) => `/admin/mailings/${mailingId}/frame?member_id=${memberId}`;

/** The preview of the saved draft as `memberId` gets it: subject, To, the HTML in a sandboxed frame, the text part. */
async function PreviewBody(props: { input: PageInput; mailing: Mailing; memberId: string | null }): Promise<Html> {
  const { input, mailing, memberId } = props;
  const tm = MAILINGS_TEXTS[input.locale];
  if (!memberId)
    return (
      <div id="preview-body">
        <p>{tm.previewNone}</p>
      </div>
    );
  const mail = await previewMailing(input.ctx, { mailing_id: mailing.id, member_id: memberId });
  return (
    <div id="preview-body" aria-live="polite">
      <dl class="facts">
        <dt>{tm.previewTo}</dt>
        <dd>{mail.to}</dd>
        <dt>{tm.subject}</dt>
        <dd class="preview-subject">{mail.subject}</dd>
      </dl>
      <iframe src={framePath(mailing.id, memberId)} title={tm.previewFrame} class="mail-preview" sandbox=""></iframe>
      <h3>{tm.previewText}</h3>
      <pre class="mail-text">{mail.text}</pre>
    </div>
  );
}

/** The draft's preview, test, send and cancel sections (the saved draft: what would go). */
async function DraftActions(props: { input: PageInput; mailing: Mailing; problems: Problems; sendAt: string }): Promise<Html> {
  const { input, mailing, problems } = props;
  const { locale } = input;
  const tm = MAILINGS_TEXTS[locale];
  const saved = await countAudience(input.ctx, { audience: mailing.audience });
  const asked = input.query.get("member_id")?.trim().toLowerCase() ?? "";
  const choices = saved.sample.map((s) => ({ value: s.member_id, label: s.name }));
  const chosen = choices.some((c) => c.value === asked) ? asked : (choices[0]?.value ?? null);
  const canEdit = input.can(sendMailing.scope);
  const path = `/admin/mailings/${mailing.id}`;
  return (
    <Fragment>
      <section class="card" aria-labelledby="preview">
        <h2 id="preview">{tm.preview}</h2>
        {mailing.status === "draft" ? <p class="muted small">{tm.previewHint}</p> : null}
        {choices.length > 1 ? (
          <form
            method="get"
            action={`${path}#preview`}
            class="filters"
            hx-get={`${path}/preview`}
            hx-target="#preview-body"
            hx-swap="outerHTML"
            hx-trigger="change, submit"
          >
            <div class="field">
              <label for="f-member_id">{tm.previewAs}</label>
              <select id="f-member_id" name="member_id">
                {choices.map((c) => (
                  <option value={c.value} selected={c.value === chosen}>
                    {c.label}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" class="secondary">
              {tm.previewShow}
            </button>
          </form>
        ) : null}
        {await PreviewBody({ input, mailing, memberId: chosen })}
      </section>
      {canEdit ? (
        <Fragment>
          <section class="card" aria-labelledby="test">
            <h2 id="test">{tm.test}</h2>
            <p class="muted">{fill(tm.testHint, { email: input.admin.email })}</p>
            <form method="post" action={`${path}/test`} class="actions">
              <CsrfField token={input.csrf} />
              <button type="submit" class="secondary">
                {tm.testButton}
              </button>
            </form>
          </section>
          <section class="card" aria-labelledby="send">
            <h2 id="send">{tm.send}</h2>
            <p class="muted">{fill(tm.sendHint, { zone: input.timeZone })}</p>
            <p>{plural(locale, tm.wouldReach, saved.count)}</p>
            <form method="post" action={`${path}/send`} class="actions" data-confirm={plural(locale, tm.sendConfirm, saved.count)}>
              <CsrfField token={input.csrf} />
              <input type="hidden" name="when" value="now" />
              <button type="submit">{tm.sendNow}</button>
            </form>
            {mailing.status === "draft" ? (
              <form method="post" action={`${path}/send`} class="schedule" data-confirm={tm.scheduleConfirm} novalidate>
                <CsrfField token={input.csrf} />
                <input type="hidden" name="when" value="later" />
                <Field
                  name="send_at"
                  label={fill(tm.sendAt, { zone: input.timeZone })}
                  type="datetime-local"
                  value={props.sendAt}
                  error={problems.fields.send_at}
                  required
                />
                <div class="actions">
                  <button type="submit" class="secondary">
                    {tm.schedule}
                  </button>
                </div>
              </form>
            ) : null}
          </section>
        </Fragment>
      ) : null}
    </Fragment>
  );
}

function CancelForm(props: { input: PageInput; mailing: Mailing }): Html {
  const tm = MAILINGS_TEXTS[props.input.locale];
  return (
    <form method="post" action={`/admin/mailings/${props.mailing.id}/cancel`} class="actions" data-confirm={tm.cancelConfirm}>
      <CsrfField token={props.input.csrf} />
      <button type="submit" class="danger">
        {tm.cancel}
      </button>
    </form>
  );
}

/** The counts as figures, and when it goes or went. */
function Facts(props: { input: PageInput; mailing: Mailing }): Html {
  const { input, mailing: m } = props;
  const tm = MAILINGS_TEXTS[input.locale];
  const counts = ["recipients", "sent", "failed", "bounced", "skipped_opt_out"] as const;
  return (
    <Fragment>
      <p>
        <MailingState status={m.status} tm={tm} />
      </p>
      {(m.send_at && m.status !== "draft") || m.sent_at ? (
        <dl class="facts">
          {m.send_at && m.status !== "draft" ? (
            <Fragment>
              <dt>{zoned(tm.sendAtShown, input.timeZone)}</dt>
              <dd>{instant(m.send_at, input.locale, input.timeZone)}</dd>
            </Fragment>
          ) : null}
          {m.sent_at ? (
            <Fragment>
              <dt>{zoned(tm.sentAt, input.timeZone)}</dt>
              <dd>{instant(m.sent_at, input.locale, input.timeZone)}</dd>
            </Fragment>
          ) : null}
        </dl>
      ) : null}
      {m.status !== "draft" && m.status !== "cancelled" ? (
        <dl class="stats" aria-label={tm.recipients}>
          {counts.map((k) => (
            <div>
              <dt>{tm.counts[k]}</dt>
              <dd>{String(m.counts[k])}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </Fragment>
  );
}

async function Recipients(props: { input: PageInput; mailing: Mailing }): Promise<Html> {
  const { input, mailing } = props;
  const { locale, t } = input;
  const tm = MAILINGS_TEXTS[locale];
  const page = pageOf(input.query);
  const result = await listMailingRecipients(input.ctx, { mailing_id: mailing.id, page, limit: RECIPIENTS_PAGE });
  const pages = Math.max(1, Math.ceil(result.total / RECIPIENTS_PAGE));
  return (
    <section class="card" aria-labelledby="recipients">
      <h2 id="recipients">{tm.recipients}</h2>
      <p class="muted">{plural(locale, tm.recipientsFound, result.total)}</p>
      {result.items.length ? (
        <RecordTable
          compact
          columns={[
            { label: tm.member, class: "wrap" },
            { label: tm.email, class: "wrap" },
            { label: tm.status },
            { label: tm.error, class: "wrap" },
            { label: zoned(tm.mailedAt, input.timeZone) },
          ]}
          rows={result.items.map((r) => [
            r.first_name === null ? tm.erased : <a href={`/admin/members/${r.member_id}`}>{`${r.first_name} ${r.last_name ?? ""}`.trim()}</a>,
            r.email,
            <span class={`state state-${r.state}`}>{tm.recipientStates[r.state]}</span>,
            r.error ?? "",
            instant(r.sent_at, locale, input.timeZone),
          ])}
        />
      ) : (
        <p>{tm.noRecipients}</p>
      )}
      {pages > 1 ? <Pager t={t} page={page} pages={pages} link={(p) => `/admin/mailings/${mailing.id}?page=${p}#recipients`} /> : null}
    </section>
  );
}

/** GET /mailings/new and a refused create: the empty compose form. */
async function newPage(input: PageInput, values: Values, problems: Problems): Promise<Response> {
  const tm = MAILINGS_TEXTS[input.locale];
  return input.page(
    tm.newTitle,
    <Fragment>
      <Notice error={problems.message} />
      {await ComposeForm({ input, values, problems })}
    </Fragment>,
    { status: problems.status },
  );
}

/** A mailing's page: a draft's compose form and its actions; otherwise its counts and recipients (a scheduled one can still be sent now or cancelled). */
async function mailingPage(input: PageInput, opts: { values?: Values; problems?: Problems; sendAt?: string } = {}): Promise<Response> {
  const mailing = await getMailing(input.ctx, { mailing_id: input.params.mailing_id });
  const tm = MAILINGS_TEXTS[input.locale];
  const problems = opts.problems ?? NO_PROBLEMS;
  const canEdit = input.can(updateMailing.scope);
  const draft = mailing.status === "draft";
  return input.page(
    mailing.subject,
    <Fragment>
      <Notice error={problems.message} done={problems.message ? null : doneOf(input.query, tm.done)} />
      <section class="card" aria-labelledby="facts">
        <h2 id="facts">{tm.status}</h2>
        <Facts input={input} mailing={mailing} />
        {canEdit && (draft || mailing.status === "scheduled") ? <CancelForm input={input} mailing={mailing} /> : null}
      </section>
      {draft && canEdit ? await ComposeForm({ input, mailing, values: opts.values ?? valuesOf(null, mailing), problems }) : null}
      {draft || mailing.status === "scheduled" ? await DraftActions({ input, mailing, problems, sendAt: opts.sendAt ?? "" }) : null}
      {draft ? null : await Recipients({ input, mailing })}
      <p>
        <a href="/admin/mailings">{tm.back}</a>
      </p>
    </Fragment>,
    { status: problems.status },
  );
}

/** The body the API's POST/PATCH take, from the form (an empty body is sent: the schema names it). */
function contentOf(values: Values): Record<string, unknown> {
  return { subject: values.subject, body_markdown: values.body_markdown, audience: values.audience };
}

async function create(input: PageInput): Promise<Response> {
  const values = valuesOf(input.form);
  const checked = check(MailingCreate, contentOf(values), input.locale);
  if (!checked.ok) return newPage(input, values, checked.problems);
  let made: Mailing;
  try {
    made = await createMailing(input.ctx, checked.data);
  } catch (err) {
    return newPage(input, values, refusalOf(err, input));
  }
  return input.redirect(`/admin/mailings/${made.id}?done=created`);
}

async function save(input: PageInput): Promise<Response> {
  const values = valuesOf(input.form);
  // The whole draft is replaced: the API's PATCH with every field (the audience as ticked, empty: everyone).
  const checked = check(MailingCreate, contentOf(values), input.locale);
  if (!checked.ok) return mailingPage(input, { values, problems: checked.problems });
  try {
    await updateMailing(input.ctx, { mailing_id: input.params.mailing_id, ...checked.data });
  } catch (err) {
    return mailingPage(input, { values, problems: refusalOf(err, input) });
  }
  return input.redirect(`/admin/mailings/${input.params.mailing_id}?done=saved`);
}

/** POST test, send, cancel: the verb, then back to the mailing's page with what was done; a refusal shown there. */
function actionRoute(name: "test" | "send" | "cancel") {
  const verb = { test: sendTestMailing, send: sendMailing, cancel: cancelMailing }[name];
  return {
    method: "POST" as const,
    path: `/mailings/:mailing_id/${name}`,
    scope: verb.scope,
    async handler(input: PageInput): Promise<Response> {
      const mailing_id = input.params.mailing_id;
      let done: MailingDone = name === "test" ? "tested" : name === "cancel" ? "cancelled" : "sent";
      const sendAt = textOf(input.form, "send_at");
      try {
        if (name === "test") await sendTestMailing(input.ctx, { mailing_id, email: input.admin.email });
        else if (name === "cancel") await cancelMailing(input.ctx, { mailing_id });
        else if (textOf(input.form, "when") === "later") {
          // The time typed in the club's zone, as the events pages take theirs; a later one schedules.
          const { times, skipped } = utcTimes({ send_at: sendAt || undefined }, ["send_at"], input.timeZone, input.locale);
          // "Schedule" with a time gone by would send at once (the API's rule for a past send_at):
          // asked to schedule, the page refuses it rather than mail everyone on a typo.
          const at = times.send_at ? Date.parse(times.send_at) : Number.NaN;
          if (at <= Date.now()) skipped.send_at ??= translate(input.locale, "MAILING_SEND_AT_PASSED", { time: sendAt.replace("T", " ") });
          const checked = check(MailingSend.required(), times, input.locale, skipped);
          if (!checked.ok) return mailingPage(input, { problems: checked.problems, sendAt });
          const sent = await sendMailing(input.ctx, { mailing_id, send_at: checked.data.send_at });
          done = sent.status === "scheduled" ? "scheduled" : "sent";
        } else await sendMailing(input.ctx, { mailing_id });
      } catch (err) {
        return mailingPage(input, { problems: refusalOf(err, input), sendAt });
      }
      return input.redirect(`/admin/mailings/${mailing_id}?done=${done}`);
    },
  };
}

/** GET .../preview (htmx, the member chosen): the preview's body for that member. */
async function previewFragment(input: PageInput): Promise<Html | Response> {
  const mailing = await getMailing(input.ctx, { mailing_id: input.params.mailing_id });
  const memberId = input.query.get("member_id")?.trim().toLowerCase() || null;
  if (!input.htmx) return input.redirect(`/admin/mailings/${mailing.id}${memberId ? `?member_id=${encodeURIComponent(memberId)}` : ""}#preview`);
  return PreviewBody({ input, mailing, memberId });
}

/** GET .../frame: the mail's HTML as the member gets it, a page of its own: framed by ours only, sandboxed, no script. */
async function previewFrame(input: PageInput): Promise<Response> {
  const mail = await previewMailing(input.ctx, { mailing_id: input.params.mailing_id, member_id: input.query.get("member_id")?.trim().toLowerCase() ?? "" });
  return new Response(mail.html, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "content-security-policy":
        "default-src 'none'; style-src 'unsafe-inline'; img-src https: http: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'; sandbox",
    },
  });
}

/** The member page's marks: the address bounced (mailings skip it), the member said no to mailings. */
export function MailingMarks(props: { member: Pick<MemberAdminItem, "email_bounced" | "mailing_opt_out_at">; input: PageInput }): Html | null {
  const { member, input } = props;
  const tm = MAILINGS_TEXTS[input.locale];
  if (!member.email_bounced && !member.mailing_opt_out_at) return null;
  return (
    <span class="marks">
      {member.email_bounced ? (
        <Fragment>
          <span class="badge warn">{tm.bounced}</span> <span class="muted small">{tm.bouncedHint}</span>
        </Fragment>
      ) : null}
      {member.mailing_opt_out_at ? <span class="badge">{fill(tm.optedOut, { date: day(member.mailing_opt_out_at, input.locale) })}</span> : null}
    </span>
  );
}

export default definePage({
  nav: { id: "mailings", path: "/mailings", scope: listMailings.scope, order: 57 },
  routes: [
    { method: "GET", path: "/mailings", scope: listMailings.scope, handler: list },
    { method: "GET", path: "/mailings/new", scope: createMailing.scope, handler: (input) => newPage(input, valuesOf(null), NO_PROBLEMS) },
    { method: "POST", path: "/mailings/new", scope: createMailing.scope, handler: create },
    { method: "GET", path: "/mailings/count", scope: countAudience.scope, handler: countFragment },
    { method: "GET", path: "/mailings/:mailing_id", scope: getMailing.scope, handler: (input) => mailingPage(input) },
    { method: "POST", path: "/mailings/:mailing_id", scope: updateMailing.scope, handler: save },
    { method: "GET", path: "/mailings/:mailing_id/preview", scope: previewMailing.scope, handler: previewFragment },
    { method: "GET", path: "/mailings/:mailing_id/frame", scope: previewMailing.scope, handler: previewFrame },
    actionRoute("test"),
    actionRoute("send"),
    actionRoute("cancel"),
  ],
});
