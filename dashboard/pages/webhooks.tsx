// /admin/webhooks — the club's webhook endpoints: the list, adding one (URL, event types or all;
// its signing secret shown once), and each endpoint's page: edit, enable or disable, delete,
// rotate the secret (the new one shown once), send a test, and its deliveries (status, attempts,
// last status code, next attempt) with a retry button. Each action is the verb of the API's
// route with the API's schema and scope.
import type { z } from "zod";
import { NotFound } from "../../lib/errors";
import { fill } from "../../lib/i18n/dashboard";
import { WEBHOOKS_TEXTS, type WebhooksTexts } from "../../lib/i18n/dashboard-webhooks";
import {
  createWebhook,
  DELIVERY_STATUSES,
  deleteWebhook,
  EVENT_TYPES,
  listWebhookDeliveries,
  listWebhooks,
  retryWebhookDelivery,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
  type Webhook,
  WebhookCreate,
  WebhookUpdate,
} from "../../lib/webhooks";
import { check, doneOf, Field, Notice, NO_PROBLEMS, type Problems, problemsOf, textOf } from "../components/form";
import { RecordTable } from "../components/record-table";
import { ShownOnce } from "../components/shown-once";
import { instant, zoned } from "../format";
import { Fragment, h, type Html } from "../jsx";
import { CsrfField } from "../layout";
import { definePage, type PageInput } from "../page";

type Typed = { url: string; description: string; events: string[] };
type Secret = { secret: string; rotatedUntil?: string };

/** The endpoint's form as WebhookCreate/WebhookUpdate take it (`*` alone when "all" is ticked). */
function typedOf(form: FormData | null): Typed {
  const events = (form?.getAll("events") ?? []).filter((e): e is string => typeof e === "string");
  return { url: textOf(form, "url"), description: textOf(form, "description"), events: events.includes("*") ? ["*"] : events };
}

const bodyOf = (typed: Typed) => ({ url: typed.url, events: typed.events, description: typed.description || null });

function EndpointFields(props: { tt: WebhooksTexts; typed: Typed; problems: Problems; prefix: string }): Html {
  const { tt, typed, problems, prefix } = props;
  const all = typed.events.includes("*");
  return (
    <Fragment>
      <Field name="url" id={`${prefix}-url`} label={tt.url} type="url" value={typed.url} error={problems.fields.url} required autocomplete="off" />
      <Field
        name="description"
        id={`${prefix}-description`}
        label={tt.description}
        value={typed.description}
        error={problems.fields.description}
        autocomplete="off"
      />
      <fieldset aria-describedby={problems.fields.events ? `${prefix}-events-error` : undefined}>
        <legend class="legend">{tt.events}</legend>
        <div class="field check">
          <input id={`${prefix}-all`} type="checkbox" name="events" value="*" checked={all} aria-describedby={`${prefix}-all-hint`} />
          <label for={`${prefix}-all`}>{tt.allEvents}</label>
          <p id={`${prefix}-all-hint`} class="muted">
            {tt.allEventsHint}
          </p>
        </div>
        <div class="checks">
          {EVENT_TYPES.map((type) => (
            <label>
              <input type="checkbox" name="events" value={type} checked={typed.events.includes(type)} />
              <code>{type}</code>
            </label>
          ))}
        </div>
        {problems.fields.events ? (
          <p id={`${prefix}-events-error`} class="error-text">
            {problems.fields.events}
          </p>
        ) : null}
      </fieldset>
    </Fragment>
  );
}

function StateBadge(props: { hook: Webhook; tt: WebhooksTexts; locale: PageInput["locale"]; timeZone: string }): Html {
  const { hook, tt } = props;
  if (!hook.enabled)
    return (
      <span class="status status-suspended">
        {tt.disabled}
        {hook.disabled_reason ? ` (${tt.disabledReason[hook.disabled_reason]})` : ""}
      </span>
    );
  return (
    <Fragment>
      <span class="status status-active">{tt.enabled}</span>
      {hook.failing_since ? (
        <span class="muted"> {zoned(fill(tt.failingSince, { date: instant(hook.failing_since, props.locale, props.timeZone) }), props.timeZone)}</span>
      ) : null}
    </Fragment>
  );
}

const eventsText = (hook: Pick<Webhook, "events">, tt: WebhooksTexts) => (hook.events.includes("*") ? tt.allEvents : hook.events.join(", "));

async function listPage(input: PageInput, opts: { typed?: Typed; problems?: Problems } = {}): Promise<Response> {
  const tt = WEBHOOKS_TEXTS[input.locale];
  const { items } = await listWebhooks(input.ctx, {});
  const problems = opts.problems ?? NO_PROBLEMS;
  return input.page(
    input.t.nav.webhooks,
    <Fragment>
      <Notice done={doneOf(input.query, tt.done)} />
      <p>{tt.intro}</p>
      <section aria-labelledby="endpoints" class="block">
        <h2 id="endpoints">{tt.listTitle}</h2>
        {items.length ? (
          <RecordTable
            columns={[{ label: tt.url, class: "wrap" }, { label: tt.events, class: "wrap" }, { label: tt.state }]}
            rows={items.map((hook) => [
              <Fragment>
                <a href={`/admin/webhooks/${hook.id}`}>{hook.url}</a>
                {hook.description ? (
                  <Fragment>
                    <br />
                    <span class="muted">{hook.description}</span>
                  </Fragment>
                ) : null}
              </Fragment>,
              eventsText(hook, tt),
              <StateBadge hook={hook} tt={tt} locale={input.locale} timeZone={input.timeZone} />,
            ])}
          />
        ) : (
          <p class="card">{tt.empty}</p>
        )}
      </section>
      {input.can(createWebhook.scope) ? (
        <form method="post" action="/admin/webhooks" class="card tight" aria-labelledby="add">
          <h2 id="add">{tt.addTitle}</h2>
          <Notice error={problems.message} />
          <CsrfField token={input.csrf} />
          <EndpointFields tt={tt} typed={opts.typed ?? { url: "", description: "", events: ["*"] }} problems={problems} prefix="new" />
          <div class="actions">
            <button type="submit">{tt.add}</button>
          </div>
        </form>
      ) : null}
    </Fragment>,
    { status: problems.status === 200 ? undefined : problems.status },
  );
}

/** A button that posts to one of the endpoint's actions (a confirmation first where it cannot be undone). */
function ActionButton(props: { input: PageInput; path: string; label: string; confirm?: string; danger?: boolean; ariaLabel?: string }): Html {
  return (
    <form method="post" action={props.path} class="inline" data-confirm={props.confirm}>
      <CsrfField token={props.input.csrf} />
      <button type="submit" class={props.danger ? "danger" : "secondary"} aria-label={props.ariaLabel}>
        {props.label}
      </button>
    </form>
  );
}

async function endpointPage(
  input: PageInput,
  opts: { secret?: Secret; typed?: Typed; problems?: Problems; status?: number; done?: keyof WebhooksTexts["done"] } = {},
): Promise<Response> {
  const { ctx, locale } = input;
  const tt = WEBHOOKS_TEXTS[locale];
  const id = input.params.webhook_id;
  const status = input.query.get("status");
  const filter = (DELIVERY_STATUSES as readonly string[]).includes(status ?? "") ? (status as (typeof DELIVERY_STATUSES)[number]) : undefined;
  // The deliveries first: their verb answers 404 for an endpoint of another club, or none.
  const deliveries = await listWebhookDeliveries(ctx, { webhook_id: id, status: filter, limit: 50 });
  const hook = (await listWebhooks(ctx, {})).items.find((w) => w.id === id);
  if (!hook) throw new NotFound("WEBHOOK_NOT_FOUND");
  const path = `/admin/webhooks/${hook.id}`;
  const problems = opts.problems ?? NO_PROBLEMS;
  // Each control shows to who holds its verb's scope.
  const can = {
    test: input.can(testWebhook.scope),
    update: input.can(updateWebhook.scope),
    rotate: input.can(rotateWebhookSecret.scope),
    remove: input.can(deleteWebhook.scope),
  };
  // A delivery is retried only to an enabled endpoint (409 WEBHOOK_DISABLED otherwise).
  const retry = input.can(retryWebhookDelivery.scope) && hook.enabled;
  const done = opts.done ? tt.done[opts.done] : doneOf(input.query, tt.done);
  return input.page(
    hook.url,
    <Fragment>
      <Notice done={done} error={problems.status !== 422 ? problems.message : null} />
      {opts.secret ? (
        <ShownOnce
          id="secret"
          title={tt.secretTitle}
          text={
            opts.secret.rotatedUntil
              ? fill(tt.rotatedText, { date: zoned(instant(opts.secret.rotatedUntil, locale, input.timeZone), input.timeZone) })
              : tt.secretText
          }
          value={opts.secret.secret}
          copy={tt.copy}
          copied={tt.copied}
        />
      ) : null}
      <section class="card tight" aria-labelledby="facts">
        <h2 id="facts">{tt.details}</h2>
        <dl class="facts">
          <dt>{tt.state}</dt>
          <dd>
            <StateBadge hook={hook} tt={tt} locale={locale} timeZone={input.timeZone} />
          </dd>
          <dt>{tt.events}</dt>
          <dd>{eventsText(hook, tt)}</dd>
          <dt>{tt.description}</dt>
          <dd>{hook.description ?? ""}</dd>
          <dt>{zoned(tt.created, input.timeZone)}</dt>
          <dd>{instant(hook.created_at, locale, input.timeZone)}</dd>
        </dl>
        {can.test || can.update || can.rotate || can.remove ? (
          <div class="actions">
            {hook.enabled && can.test ? <ActionButton input={input} path={`${path}/test`} label={tt.test} /> : null}
            {can.update ? (
              hook.enabled ? (
                <ActionButton input={input} path={`${path}/disable`} label={tt.disable} />
              ) : (
                <ActionButton input={input} path={`${path}/enable`} label={tt.enable} />
              )
            ) : null}
            {can.rotate ? <ActionButton input={input} path={`${path}/rotate`} label={tt.rotate} confirm={tt.rotateConfirm} /> : null}
            {can.remove ? <ActionButton input={input} path={`${path}/delete`} label={tt.remove} confirm={tt.removeConfirm} danger /> : null}
          </div>
        ) : null}
        {can.test || can.rotate ? (
          <p class="muted">
            {can.test ? tt.testHint : null} {can.rotate ? tt.rotateHint : null}
          </p>
        ) : null}
      </section>
      <section aria-labelledby="deliveries" class="block">
        <h2 id="deliveries">{tt.deliveries}</h2>
        <form method="get" action={path} class="filters card">
          <div>
            <label for="f-status">{tt.filterStatus}</label>
            <select id="f-status" name="status">
              <option value="">{tt.all}</option>
              {DELIVERY_STATUSES.map((s) => (
                <option value={s} selected={s === filter}>
                  {tt.statuses[s]}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" class="secondary">
            {tt.show}
          </button>
        </form>
        {deliveries.items.length ? (
          <RecordTable
            columns={[
              { label: tt.type },
              { label: tt.status },
              { label: tt.attempts, class: "num" },
              { label: tt.lastCode, class: "num" },
              { label: zoned(tt.nextAttempt, input.timeZone) },
              { label: zoned(tt.created, input.timeZone) },
              ...(retry ? [{ label: tt.retry, actions: true as const }] : []),
            ]}
            rows={deliveries.items.map((d) => [
              <code>{d.type}</code>,
              <span class={`status ${{ pending: "status-pending", succeeded: "status-active", failed: "status-suspended" }[d.status]}`}>
                {tt.statuses[d.status]}
              </span>,
              d.attempt_count,
              d.last_status_code ?? "",
              d.next_attempt_at ? instant(d.next_attempt_at, locale, input.timeZone) : "",
              instant(d.created_at, locale, input.timeZone),
              retry ? (
                <ActionButton
                  input={input}
                  path={`${path}/deliveries/${d.id}/retry`}
                  label={tt.retry}
                  ariaLabel={fill(tt.retryOf, { type: d.type, date: instant(d.created_at, locale, input.timeZone) })}
                />
              ) : null,
            ])}
          />
        ) : (
          <p class="card">{tt.noDeliveries}</p>
        )}
      </section>
      {can.update ? (
        <form method="post" action={path} class="card tight" aria-labelledby="edit">
          <h2 id="edit">{tt.edit}</h2>
          <Notice error={problems.status === 422 ? problems.message : null} />
          <CsrfField token={input.csrf} />
          <EndpointFields
            tt={tt}
            typed={opts.typed ?? { url: hook.url, description: hook.description ?? "", events: hook.events }}
            problems={problems}
            prefix="edit"
          />
          <div class="actions">
            <button type="submit">{input.t.save}</button>
          </div>
        </form>
      ) : null}
    </Fragment>,
    { status: opts.status ?? (problems.status === 200 ? undefined : problems.status) },
  );
}

/** An endpoint action: the verb, then back to the endpoint's page saying what was done (a refusal shown on it). */
function act(done: keyof WebhooksTexts["done"], run: (input: PageInput) => Promise<unknown>) {
  return async (input: PageInput): Promise<Response> => {
    try {
      await run(input);
    } catch (err) {
      return endpointPage(input, { problems: problemsOf(err, input.locale) });
    }
    return input.redirect(`/admin/webhooks/${input.params.webhook_id}?done=${done}`);
  };
}

/** The endpoint's form checked by the API's schema, then `save`; a refusal (the schema's or the verb's) shows the form again with what was typed. */
async function saveEndpoint<T>(
  input: PageInput,
  schema: z.ZodType<T>,
  save: (data: T) => Promise<Response>,
  again: (typed: Typed, problems: Problems) => Promise<Response>,
): Promise<Response> {
  const typed = typedOf(input.form);
  const checked = check(schema, bodyOf(typed), input.locale);
  if (!checked.ok) return again(typed, checked.problems);
  try {
    return await save(checked.data);
  } catch (err) {
    return again(typed, problemsOf(err, input.locale));
  }
}

/** An endpoint's page reads its deliveries and the endpoint itself. */
const ENDPOINT_SCOPE = [listWebhookDeliveries.scope, listWebhooks.scope].flat();

export default definePage({
  nav: { id: "webhooks", path: "/webhooks", scope: listWebhooks.scope, order: 85 },
  routes: [
    { method: "GET", path: "/webhooks", scope: listWebhooks.scope, handler: (input) => listPage(input) },
    {
      method: "POST",
      path: "/webhooks",
      scope: createWebhook.scope,
      handler: (input) =>
        saveEndpoint(
          input,
          WebhookCreate,
          async (data) => {
            const created = await createWebhook(input.ctx, data);
            // The secret is in this answer only: the page is shown here, not after a redirect.
            return endpointPage({ ...input, params: { webhook_id: created.id } }, { secret: { secret: created.secret }, status: 201, done: "created" });
          },
          (typed, problems) => listPage(input, { typed, problems }),
        ),
    },
    { method: "GET", path: "/webhooks/:webhook_id", scope: ENDPOINT_SCOPE, handler: (input) => endpointPage(input) },
    {
      method: "POST",
      path: "/webhooks/:webhook_id",
      scope: updateWebhook.scope,
      handler: (input) =>
        saveEndpoint(
          input,
          WebhookUpdate,
          async (data) => {
            await updateWebhook(input.ctx, { ...data, webhook_id: input.params.webhook_id });
            return input.redirect(`/admin/webhooks/${input.params.webhook_id}?done=saved`);
          },
          (typed, problems) => endpointPage(input, { typed, problems }),
        ),
    },
    {
      method: "POST",
      path: "/webhooks/:webhook_id/enable",
      scope: updateWebhook.scope,
      handler: act("enabled", (i) => updateWebhook(i.ctx, { webhook_id: i.params.webhook_id, enabled: true })),
    },
    {
      method: "POST",
      path: "/webhooks/:webhook_id/disable",
      scope: updateWebhook.scope,
      handler: act("disabled", (i) => updateWebhook(i.ctx, { webhook_id: i.params.webhook_id, enabled: false })),
    },
    {
      method: "POST",
      path: "/webhooks/:webhook_id/test",
      scope: testWebhook.scope,
      handler: act("tested", (i) => testWebhook(i.ctx, { webhook_id: i.params.webhook_id })),
    },
    {
      method: "POST",
      path: "/webhooks/:webhook_id/deliveries/:delivery_id/retry",
      scope: retryWebhookDelivery.scope,
      handler: act("retried", (i) => retryWebhookDelivery(i.ctx, { webhook_id: i.params.webhook_id, delivery_id: i.params.delivery_id })),
    },
    {
      method: "POST",
      path: "/webhooks/:webhook_id/rotate",
      scope: rotateWebhookSecret.scope,
      handler: async (input) => {
        const rotated = await rotateWebhookSecret(input.ctx, { webhook_id: input.params.webhook_id });
        return endpointPage(input, { secret: { secret: rotated.secret, rotatedUntil: rotated.previous_secret_expires_at } });
      },
    },
    {
      method: "POST",
      path: "/webhooks/:webhook_id/delete",
      scope: deleteWebhook.scope,
      handler: async (input) => {
        await deleteWebhook(input.ctx, { webhook_id: input.params.webhook_id });
        return input.redirect("/admin/webhooks?done=deleted");
      },
    },
  ],
});
