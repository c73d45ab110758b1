// /admin/events/:event_id — one event: its facts and figures, links to its public page and its
// door, its status moves (publish, back to draft, cancel; delete while nobody registered), its
// registrations and waiting list in their order, adding a registration, and one registration's
// page with confirm (the payment received, needs finances:edit too) and cancel (with a refund).
// Each write is the API's verb with the API's schema and scope.
import { z } from "zod";
import { listPayments } from "../../lib/books/ledger";
import { checkinEvent, deleteEvent, getEvent, listEventRegistrations, updateEvent } from "../../lib/events";
import {
  ADMIN_REGISTRATION_STATUSES,
  EVENT_STATUSES,
  type EventAdminDetail,
  type EventRegistrationItem,
  RegistrationCancel,
  RegistrationConfirm,
  RegistrationCreate,
} from "../../lib/events/schemas";
import { AppError, NotFound, ValidationFailed } from "../../lib/errors";
import { fill } from "../../lib/i18n/dashboard";
import { EVENTS_TEXTS, type EventsTexts } from "../../lib/i18n/dashboard-events";
import { MEMBERS_TEXTS } from "../../lib/i18n/dashboard-members";
import { invoiceRegistration } from "../../lib/invoices";
import { listMembers } from "../../lib/members";
import { MANUAL_PAYMENT_METHODS } from "../../lib/members/schemas";
import { addRegistration, cancelRegistration, confirmRegistration, REFUND_SCOPE } from "../../lib/registrations/admin";
import { amountText, cents, check, doneOf, Field, Notice, NO_PROBLEMS, type Problems, problemsOf, Select, textFields } from "../components/form";
import { instant, methodOptions, money, zoned } from "../format";
import { DataTable, Fact } from "../components/table";
import { Fragment, h, type Html } from "../jsx";
import { CsrfField } from "../layout";
import { definePage, type PageInput } from "../page";
import { EventStatus } from "./events";

const RegStatusBadge = (props: { status: EventRegistrationItem["status"]; tt: EventsTexts }) => {
  const look = { confirmed: "active", pending: "pending", waitlisted: "pending", cancelled: "expired" }[props.status];
  return <span class={`status status-${look}`}>{props.tt.regStatus[props.status]}</span>;
};

const fullName = (r: { first_name: string; last_name: string }) => `${r.first_name} ${r.last_name}`;

const EventStatusMove = z.object({ status: z.enum(EVENT_STATUSES) });

/** What the admin may do here: the verbs' own scopes, so a control shows only when its post would pass. */
function rights(input: PageInput) {
  return {
    move: input.can(updateEvent.scope),
    remove: input.can(deleteEvent.scope),
    add: input.can(addRegistration.scope),
    confirm: input.can(confirmRegistration.scope),
    cancel: input.can(cancelRegistration.scope),
    refund: input.can([cancelRegistration.scope, REFUND_SCOPE].flat()),
    door: input.can(checkinEvent.scope),
    // The revenue is the sum of the event's payments: shown to who may list them.
    finances: input.can(listPayments.scope),
  };
}

function StatusActions(props: { input: PageInput; event: EventAdminDetail; tt: EventsTexts; registrations: number; canRemove: boolean }): Html {
  const { input, event, tt } = props;
  const path = `/admin/events/${event.id}`;
  if (event.status === "cancelled") return <Fragment />;
  const move = (status: "published" | "draft" | "cancelled", label: string, cls?: string, confirm?: string) => (
    <form method="post" action={`${path}/status`} class="inline" data-confirm={confirm}>
      <CsrfField token={input.csrf} />
      <input type="hidden" name="status" value={status} />
      <button type="submit" class={cls}>
        {label}
      </button>
    </form>
  );
  return (
    <Fragment>
      <div class="actions">
        <a class="button secondary" href={`${path}/edit`}>
          {tt.edit}
        </a>
        {event.status === "draft" ? move("published", tt.publish) : move("draft", tt.toDraft, "secondary")}
        {move("cancelled", tt.cancelEvent, "danger", tt.cancelEventConfirm)}
        {props.registrations === 0 && props.canRemove ? (
          <form method="post" action={`${path}/delete`} class="inline" data-confirm={tt.deleteConfirm}>
            <CsrfField token={input.csrf} />
            <button type="submit" class="danger">
              {tt.deleteEvent}
            </button>
          </form>
        ) : null}
      </div>
      <p class="muted small">{tt.cancelEventHint}</p>
      {props.registrations === 0 && props.canRemove ? <p class="muted small">{tt.deleteHint}</p> : null}
    </Fragment>
  );
}

function RegistrationsTable(props: {
  input: PageInput;
  event: EventAdminDetail;
  rows: EventRegistrationItem[];
  tt: EventsTexts;
  labelledBy: string;
  position?: boolean;
}) {
  const { input, event, tt } = props;
  const locale = input.locale;
  return (
    <DataTable
      rows={props.rows.length}
      labelledBy={props.labelledBy}
      columns={[
        props.position ? { label: tt.position, class: "num" } : null,
        { label: tt.name },
        { label: tt.ticket, class: "hide-small" },
        { label: tt.regStatusChoice },
        { label: tt.amount, class: "num" },
        { label: tt.paid, class: "hide-small" },
        { label: zoned(tt.checkedInAt, input.timeZone), class: "hide-small" },
      ]}
    >
      {props.rows.map((r, i) => (
        <tr>
          {props.position ? <td class="num">{i + 1}</td> : null}
          <td>
            <a href={`/admin/events/${event.id}/registrations/${r.id}`}>{fullName(r)}</a>
            {r.email ? <p class="muted small hide-small">{r.email}</p> : null}
          </td>
          <td class="hide-small">{r.ticket_name}</td>
          <td>
            <RegStatusBadge status={r.status} tt={tt} />
          </td>
          <td class="num">{money(r.amount_cents, event.currency, locale)}</td>
          <td class="hide-small">{paidText(r, tt)}</td>
          <td class="hide-small">{r.checked_in_at ? instant(r.checked_in_at, locale, input.timeZone) : ""}</td>
        </tr>
      ))}
    </DataTable>
  );
}

/** Whether a registration is paid; one with nothing to pay (a 0.00 ticket) is free, not unpaid. */
function paidText(r: { amount_cents: number; has_payment: boolean }, tt: EventsTexts): string {
  if (r.has_payment) return tt.yes;
  return r.amount_cents === 0 ? tt.nothingDue : tt.no;
}

const ADD_FIELDS = ["ticket_id", "first_name", "last_name", "email", "member_email", "status"] as const;

function AddRegistration(props: { input: PageInput; event: EventAdminDetail; tt: EventsTexts; values: Record<string, string>; problems: Problems }): Html {
  const { input, event, tt, values, problems } = props;
  const p = problems.fields;
  const tickets = event.tickets.filter((t) => t.is_active);
  return (
    <form method="post" action={`/admin/events/${event.id}/registrations`} class="card" id="add-registration" novalidate>
      <h2>{tt.addRegistration}</h2>
      <Notice error={problems.message} />
      <CsrfField token={input.csrf} />
      <Select name="ticket_id" label={tt.ticket} options={tickets.map((t) => ({ value: t.id, label: t.name }))} value={values.ticket_id} error={p.ticket_id} />
      <div class="two">
        <Field name="first_name" label={tt.firstName} value={values.first_name} error={p.first_name} required autocomplete="off" />
        <Field name="last_name" label={tt.lastName} value={values.last_name} error={p.last_name} required autocomplete="off" />
      </div>
      <div class="two">
        <Field name="email" label={tt.email} type="email" value={values.email} error={p.email} autocomplete="off" />
        <Field
          name="member_email"
          label={tt.memberEmail}
          type="email"
          value={values.member_email}
          hint={tt.memberEmailHint}
          error={p.member_email ?? p.member_id}
          autocomplete="off"
        />
      </div>
      <Select
        name="status"
        label={tt.regStatusChoice}
        options={(["auto", ...ADMIN_REGISTRATION_STATUSES] as const).map((s) => ({ value: s === "auto" ? "" : s, label: tt.regStatusOptions[s] }))}
        value={values.status ?? ""}
        error={p.status}
      />
      <div class="actions">
        <button type="submit">{tt.addRegistration}</button>
      </div>
    </form>
  );
}

async function eventPage(input: PageInput, add: { values: Record<string, string>; problems: Problems } | null = null): Promise<Response> {
  const { locale } = input;
  const tt = EVENTS_TEXTS[locale];
  const event = await getEvent(input.ctx, { event_id: input.params.event_id });
  const regs = await listEventRegistrations(input.ctx, { event_id: event.id });
  const can = rights(input);
  const waiting = regs.filter((r) => r.status === "waitlisted");
  const others = regs.filter((r) => r.status !== "waitlisted");
  const problems = add?.problems ?? NO_PROBLEMS;
  return input.page(
    event.title,
    <Fragment>
      <Notice done={doneOf(input.query, tt.done)} />
      <section class="card" aria-labelledby="facts">
        <h2 id="facts">{tt.facts}</h2>
        <dl class="facts">
          <Fact term={tt.regStatusChoice}>
            <EventStatus status={event.status} tt={tt} />
          </Fact>
          <Fact term={zoned(tt.startsAt, input.timeZone)}>{instant(event.starts_at, locale, input.timeZone)}</Fact>
          {event.ends_at ? <Fact term={zoned(tt.endsAt, input.timeZone)}>{instant(event.ends_at, locale, input.timeZone)}</Fact> : null}
          {event.location_name || event.location_address ? (
            <Fact term={tt.place}>{[event.location_name, event.location_address].filter(Boolean).join(", ")}</Fact>
          ) : null}
          <Fact term={tt.registered}>{event.capacity === null ? event.registered_count : `${event.registered_count} / ${event.capacity}`}</Fact>
          <Fact term={tt.checkedIn}>{event.checked_in_count}</Fact>
          {event.waitlist_enabled ? <Fact term={tt.waitlisted}>{event.waitlisted_count}</Fact> : null}
          {can.finances ? <Fact term={tt.revenue}>{money(event.revenue_cents, event.currency, locale)}</Fact> : null}
          <Fact term={tt.tickets}>
            {event.tickets
              .filter((t) => t.is_active)
              .map((t) => (
                <p class="small">
                  {t.name} · {tt.memberPrice} {money(t.member_price_cents, event.currency, locale)}
                  {t.non_member_price_cents === null ? "" : ` · ${tt.nonMemberPrice} ${money(t.non_member_price_cents, event.currency, locale)}`}
                </p>
              ))}
          </Fact>
        </dl>
        <div class="actions">
          {event.status === "published" ? (
            <a class="button secondary" href={event.public_url}>
              {tt.publicPage}
            </a>
          ) : null}
          {can.door && event.status !== "cancelled" ? (
            <a class="button" href={`/admin/door/${event.id}`}>
              {tt.door}
            </a>
          ) : null}
        </div>
        {can.move ? <StatusActions input={input} event={event} tt={tt} registrations={regs.length} canRemove={can.remove} /> : null}
      </section>
      <section class="regs" aria-labelledby="registrations">
        <h2 id="registrations">
          {tt.registrations} ({others.length})
        </h2>
        {others.length ? <RegistrationsTable input={input} event={event} rows={others} tt={tt} labelledBy="registrations" /> : <p>{tt.noRegistrations}</p>}
      </section>
      {waiting.length || event.waitlist_enabled ? (
        <section class="regs" aria-labelledby="waitlist">
          <h2 id="waitlist">
            {tt.waitlistTitle} ({waiting.length})
          </h2>
          <p class="muted">{tt.waitlistHint}</p>
          {waiting.length ? <RegistrationsTable input={input} event={event} rows={waiting} tt={tt} labelledBy="waitlist" position /> : null}
        </section>
      ) : null}
      {can.add && event.status !== "cancelled" ? <AddRegistration input={input} event={event} tt={tt} values={add?.values ?? {}} problems={problems} /> : null}
    </Fragment>,
    { status: problems.status },
  );
}

async function moveStatus(input: PageInput): Promise<Response> {
  const parsed = EventStatusMove.safeParse({ status: input.form?.get("status") });
  if (!parsed.success) throw new ValidationFailed([{ loc: ["body", "status"], code: "VALIDATION_FAILED" }]);
  const event = await updateEvent(input.ctx, { event_id: input.params.event_id, status: parsed.data.status });
  const done = { published: "published", draft: "drafted", cancelled: "cancelled" }[event.status];
  return input.redirect(`/admin/events/${event.id}?done=${done}`);
}

async function remove(input: PageInput): Promise<Response> {
  await deleteEvent(input.ctx, { event_id: input.params.event_id });
  return input.redirect("/admin/events?done=deleted");
}

/** The member a typed email names (the roster's search, then the exact address); null when none. */
async function memberByEmail(input: PageInput, email: string): Promise<string | null> {
  const found = await listMembers(input.ctx, { search: email, limit: 20 });
  return found.items.find((m) => m.email.toLowerCase() === email.toLowerCase())?.id ?? null;
}

async function add(input: PageInput): Promise<Response> {
  const values = textFields(input.form, ADD_FIELDS);
  const tt = EVENTS_TEXTS[input.locale];
  let member_id: string | undefined;
  if (values.member_email) {
    const id = input.can(listMembers.scope) ? await memberByEmail(input, values.member_email) : null;
    if (!id) return eventPage(input, { values, problems: { status: 422, fields: { member_email: tt.memberNotFound }, message: null } });
    member_id = id;
  }
  const checked = check(
    RegistrationCreate,
    { ticket_id: values.ticket_id, first_name: values.first_name, last_name: values.last_name, email: values.email, member_id, status: values.status },
    input.locale,
  );
  if (!checked.ok) return eventPage(input, { values, problems: checked.problems });
  try {
    await addRegistration(input.ctx, { ...checked.data, event_id: input.params.event_id });
  } catch (err) {
    // The API's wording asks the public form's member code; here the member is named by e-mail.
    if (err instanceof AppError && err.code === "TICKET_MEMBERS_ONLY") {
      return eventPage(input, { values, problems: { status: err.status, fields: { member_email: tt.ticketNeedsMember }, message: null } });
    }
    return eventPage(input, { values, problems: problemsOf(err, input.locale) });
  }
  return input.redirect(`/admin/events/${input.params.event_id}?done=registered`);
}

// ---- One registration: confirm, cancel ----

type RegAction = "confirm" | "cancel" | "invoice";

async function registrationOf(input: PageInput): Promise<{ event: EventAdminDetail; reg: EventRegistrationItem }> {
  const event = await getEvent(input.ctx, { event_id: input.params.event_id });
  const reg = (await listEventRegistrations(input.ctx, { event_id: event.id })).find((r) => r.id === input.params.registration_id);
  if (!reg) throw new NotFound("REGISTRATION_NOT_FOUND");
  return { event, reg };
}

async function registrationPage(input: PageInput, failed: { action: RegAction; problems: Problems } | null = null): Promise<Response> {
  const { locale } = input;
  const tt = EVENTS_TEXTS[locale];
  const { event, reg } = await registrationOf(input);
  const can = rights(input);
  const path = `/admin/events/${event.id}/registrations/${reg.id}`;
  const problemsFor = (action: RegAction) => (failed?.action === action ? failed.problems : NO_PROBLEMS);
  const canConfirm = can.confirm && reg.status === "pending" && event.status !== "cancelled";
  const canCancel = can.cancel && reg.status !== "cancelled" && !reg.checked_in_at;
  // An invoice is addressed to a member: a guest's registration is paid another way.
  const canInvoice = input.can(invoiceRegistration.scope) && reg.status === "pending" && reg.is_member && event.status !== "cancelled";
  const confirmP = problemsFor("confirm");
  const cancelP = problemsFor("cancel");
  const invoiceP = problemsFor("invoice");
  return input.page(
    fill(tt.registrationTitle, { name: fullName(reg) }),
    <Fragment>
      <p>
        <a href={`/admin/events/${event.id}`}>
          {tt.backToEvent} · {event.title}
        </a>
      </p>
      <section class="card" aria-labelledby="details">
        <h2 id="details">{tt.details}</h2>
        <dl class="facts">
          <Fact term={tt.regStatusChoice}>
            <RegStatusBadge status={reg.status} tt={tt} />
          </Fact>
          <Fact term={tt.ticket}>{reg.ticket_name}</Fact>
          <Fact term={tt.email}>{reg.email ?? ""}</Fact>
          <Fact term={tt.amount}>{money(reg.amount_cents, event.currency, locale)}</Fact>
          <Fact term={tt.paid}>{paidText(reg, tt)}</Fact>
          <Fact term={zoned(tt.registeredAt, input.timeZone)}>{instant(reg.created_at, locale, input.timeZone)}</Fact>
          {reg.hold_expires_at && reg.status === "pending" ? (
            <Fact term={zoned(tt.holdUntil, input.timeZone)}>{instant(reg.hold_expires_at, locale, input.timeZone)}</Fact>
          ) : null}
          {reg.checked_in_at ? <Fact term={zoned(tt.checkedInAt, input.timeZone)}>{instant(reg.checked_in_at, locale, input.timeZone)}</Fact> : null}
          {reg.cancel_reason ? <Fact term={tt.reason}>{reg.cancel_reason}</Fact> : null}
          <Fact term={tt.source}>
            {reg.source && Object.hasOwn(tt.sources, reg.source) ? tt.sources[reg.source as keyof EventsTexts["sources"]] : (reg.source ?? "")}
          </Fact>
          <dt>{tt.ticket} QR</dt>
          <dd class="code">{reg.qr_token}</dd>
        </dl>
      </section>
      <div class="grid">
        {canConfirm ? (
          <form method="post" action={`${path}/confirm`} class="card" aria-labelledby="a-confirm" novalidate>
            <h2 id="a-confirm">{tt.confirm}</h2>
            <Notice error={confirmP.message} />
            <CsrfField token={input.csrf} />
            <p class="muted">{tt.confirmHint}</p>
            <Field
              name="amount"
              id="confirm-amount"
              label={`${tt.confirmAmount} (${event.currency})`}
              inputmode="decimal"
              value={amountText(reg.amount_cents)}
              error={confirmP.fields.amount_cents ?? confirmP.fields.amount}
            />
            <Select
              name="payment_method"
              id="confirm-method"
              label={tt.method}
              options={methodOptions(MEMBERS_TEXTS[locale].methods, MANUAL_PAYMENT_METHODS)}
              value="bank_transfer"
              error={confirmP.fields.payment_method}
            />
            <div class="actions">
              <button type="submit">{tt.confirm}</button>
            </div>
          </form>
        ) : null}
        {canInvoice ? (
          <form method="post" action={`${path}/invoice`} class="card" aria-labelledby="a-invoice" novalidate>
            <h2 id="a-invoice">{tt.invoice}</h2>
            <Notice error={invoiceP.message} />
            <CsrfField token={input.csrf} />
            <p class="muted">{tt.invoiceHint}</p>
            <div class="actions">
              <button type="submit">{tt.makeInvoice}</button>
            </div>
          </form>
        ) : null}
        {canCancel ? (
          <form method="post" action={`${path}/cancel`} class="card" aria-labelledby="a-cancel" novalidate>
            <h2 id="a-cancel">{tt.cancel}</h2>
            <Notice error={cancelP.message} />
            <CsrfField token={input.csrf} />
            <p class="muted">{tt.cancelHint}</p>
            <Field name="reason" id="cancel-reason" label={tt.reason} value="" error={cancelP.fields.reason} autocomplete="off" />
            {can.refund && reg.has_payment ? (
              <Field
                name="refund"
                id="cancel-refund"
                label={`${tt.refund} (${event.currency})`}
                inputmode="decimal"
                hint={tt.refundHint}
                error={cancelP.fields.refund_cents ?? cancelP.fields.refund}
              />
            ) : null}
            <div class="actions">
              <button type="submit" class="danger">
                {tt.cancel}
              </button>
            </div>
          </form>
        ) : null}
      </div>
    </Fragment>,
    { status: failed?.problems.status ?? 200 },
  );
}

function registrationAction(action: RegAction) {
  const verb = action === "confirm" ? confirmRegistration : cancelRegistration;
  return {
    method: "POST" as const,
    path: `/events/:event_id/registrations/:registration_id/${action}`,
    scope: verb.scope,
    async handler(input: PageInput) {
      const f = textFields(input.form, ["amount", "payment_method", "reason", "refund"]);
      const ref = { event_id: input.params.event_id, registration_id: input.params.registration_id };
      const body =
        action === "confirm" ? { amount_cents: cents(f.amount), payment_method: f.payment_method } : { reason: f.reason, refund_cents: cents(f.refund) };
      const checked = check(action === "confirm" ? RegistrationConfirm : RegistrationCancel, body, input.locale);
      if (!checked.ok) return registrationPage(input, { action, problems: checked.problems });
      try {
        if (action === "confirm") await confirmRegistration(input.ctx, { ...(checked.data as RegistrationConfirm), ...ref });
        else await cancelRegistration(input.ctx, { ...(checked.data as RegistrationCancel), ...ref });
      } catch (err) {
        return registrationPage(input, { action, problems: problemsOf(err, input.locale) });
      }
      return input.redirect(`/admin/events/${ref.event_id}?done=${action === "confirm" ? "confirmed" : "regCancelled"}`);
    },
  };
}

export default definePage({
  routes: [
    { method: "GET", path: "/events/:event_id", scope: getEvent.scope, handler: (input) => eventPage(input) },
    { method: "POST", path: "/events/:event_id/status", scope: updateEvent.scope, handler: moveStatus },
    { method: "POST", path: "/events/:event_id/delete", scope: deleteEvent.scope, handler: remove },
    { method: "POST", path: "/events/:event_id/registrations", scope: addRegistration.scope, handler: add },
    {
      method: "GET",
      path: "/events/:event_id/registrations/:registration_id",
      scope: listEventRegistrations.scope,
      handler: (input) => registrationPage(input),
    },
    registrationAction("confirm"),
    registrationAction("cancel"),
    {
      method: "POST",
      path: "/events/:event_id/registrations/:registration_id/invoice",
      scope: invoiceRegistration.scope,
      async handler(input: PageInput) {
        try {
          await invoiceRegistration(input.ctx, { event_id: input.params.event_id, registration_id: input.params.registration_id });
        } catch (err) {
          return registrationPage(input, { action: "invoice", problems: problemsOf(err, input.locale) });
        }
        return input.redirect("/admin/invoices?show=open&done=created");
      },
    },
  ],
});
