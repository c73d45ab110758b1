// /admin/events — the club's events: upcoming, past, drafts and cancelled ones, each with its
// figures; creating an event with its tickets and editing it (the API's create and partial update,
// tickets as the full list). One event's own page, its registrations and its status: event.tsx;
// its door: door.tsx.
import { listPayments } from "../../lib/books/ledger";
import { checkinEvent, createDraftEvent, createEvent, getEvent, listEvents, updateEvent } from "../../lib/events";
import { EventCreate, type EventAdminDetail, type EventAdminItem, EventUpdate } from "../../lib/events/schemas";
import { fill } from "../../lib/i18n/dashboard";
import { utcToLocal } from "../../lib/clubs/time-zone";
import { EVENTS_TEXTS, type EventsTab, type EventsTexts } from "../../lib/i18n/dashboard-events";
import type { Locale } from "../../lib/i18n";
import {
  amountText,
  cents,
  check,
  Checkbox,
  doneOf,
  Field,
  localInput,
  Notice,
  NO_PROBLEMS,
  type Problems,
  problemsOf,
  Select,
  TextArea,
  textFields,
  utcTimes,
  whole,
} from "../components/form";
import { instant, money, zoned } from "../format";
import { AddButton, DataTable, LinkCell } from "../components/table";
import { Fragment, h, type Html } from "../jsx";
import { clubOf, CsrfField } from "../layout";
import { definePage, type PageInput } from "../page";

const TABS: EventsTab[] = ["upcoming", "past", "draft", "cancelled"];

export function EventStatus(props: { status: EventAdminItem["status"]; tt: EventsTexts }): Html {
  const look = { published: "active", draft: "pending", cancelled: "suspended" }[props.status];
  return <span class={`status status-${look}`}>{props.tt.status[props.status]}</span>;
}

/**
 * Which tab an event belongs in: its status, and for a published one whether it starts today or
 * later, days as the club's wall clock (`timeZone`) counts them (the door's events too).
 */
export function tabOf(e: EventAdminItem, timeZone: string, today = utcToLocal(new Date().toISOString(), timeZone).slice(0, 10)): EventsTab {
  if (e.status !== "published") return e.status;
  return utcToLocal(e.starts_at, timeZone).slice(0, 10) >= today ? "upcoming" : "past";
}

async function list(input: PageInput): Promise<Response> {
  const { locale } = input;
  const tt = EVENTS_TEXTS[locale];
  const tab = (TABS as string[]).includes(input.query.get("show") ?? "") ? (input.query.get("show") as EventsTab) : "upcoming";
  const today = utcToLocal(new Date().toISOString(), input.timeZone).slice(0, 10);
  const all = await listEvents(input.ctx, {});
  const shown = all.filter((e) => tabOf(e, input.timeZone, today) === tab);
  // Soonest first for what is coming; the API's latest-first for the rest.
  if (tab === "upcoming" || tab === "draft") shown.reverse();
  const counts = Object.fromEntries(TABS.map((t) => [t, all.filter((e) => tabOf(e, input.timeZone, today) === t).length])) as Record<EventsTab, number>;
  // The revenue is the sum of the event's payments: shown to who may list them.
  const finances = input.can(listPayments.scope);
  const door = input.can(checkinEvent.scope);
  return input.page(
    input.t.nav.events,
    <Fragment>
      <Notice done={doneOf(input.query, tt.done)} />
      <AddButton show={input.can(createEvent.scope)} href="/admin/events/new" label={tt.add} />
      <nav class="tabs" aria-label={tt.tabsLabel}>
        {TABS.map((t) => (
          <a href={`/admin/events?show=${t}`} aria-current={t === tab ? "page" : undefined}>
            {tt.tabs[t]} ({counts[t]})
          </a>
        ))}
      </nav>
      <DataTable
        rows={shown.length}
        empty={tt.empty}
        columns={[
          { label: tt.title },
          { label: zoned(tt.when, input.timeZone) },
          { label: tt.registered, class: "num" },
          { label: tt.checkedIn, class: "num hide-small" },
          finances ? { label: tt.revenue, class: "num hide-small" } : null,
          door && tab === "upcoming" ? { label: input.t.nav.door } : null,
        ]}
      >
        {shown.map((e) => (
          <tr>
            <td>
              <a href={`/admin/events/${e.id}`}>{e.title}</a>
              {tab === "upcoming" ? null : (
                <Fragment>
                  {" "}
                  <EventStatus status={e.status} tt={tt} />
                </Fragment>
              )}
            </td>
            <td>{instant(e.starts_at, locale, input.timeZone)}</td>
            <td class="num">{e.capacity === null ? e.registered_count : `${e.registered_count} / ${e.capacity}`}</td>
            <td class="num hide-small">{e.checked_in_count}</td>
            {finances ? <td class="num hide-small">{money(e.revenue_cents, e.currency, locale)}</td> : null}
            <LinkCell show={door && tab === "upcoming"} href={`/admin/door/${e.id}`} text={input.t.nav.door} label={`${input.t.nav.door} · ${e.title}`} />
          </tr>
        ))}
      </DataTable>
    </Fragment>,
  );
}

// ---- The event's form (create and edit) ----

const EVENT_FIELDS = [
  "title",
  "starts_at",
  "ends_at",
  "location_name",
  "location_address",
  "description",
  "capacity",
  "access",
  "max_per_email",
  "registration_opens_at",
  "registration_closes_at",
] as const;
const TICKET_FIELDS = ["id", "name", "member", "nonmember", "qty"] as const;
/** Blank ticket rows offered below the existing ones. */
const BLANK_TICKETS = 2;

type TicketValues = Record<(typeof TICKET_FIELDS)[number], string> & { remove?: boolean };
type FormValues = { fields: Record<string, string>; flags: Record<"listed" | "waitlist_enabled" | "publish", boolean>; tickets: TicketValues[] };

function readForm(form: FormData | null): FormValues {
  const fields = textFields(form, EVENT_FIELDS);
  const ticked = (name: string) => !!form?.get(name);
  const flags = { listed: ticked("listed"), waitlist_enabled: ticked("waitlist_enabled"), publish: ticked("publish") };
  const tickets: TicketValues[] = [];
  for (let i = 0; form?.has(`t${i}_name`); i++) {
    const t = textFields(
      form,
      TICKET_FIELDS.map((f) => `t${i}_${f}`),
    );
    const row = Object.fromEntries(TICKET_FIELDS.map((f) => [f, t[`t${i}_${f}`] ?? ""])) as unknown as TicketValues;
    tickets.push({ ...row, remove: ticked(`t${i}_remove`) });
  }
  return { fields, flags, tickets };
}

/** The event's fields as its form shows them, its times on the club's wall clock (`timeZone`). */
function valuesOf(e: EventAdminDetail, timeZone: string): FormValues {
  return {
    fields: {
      title: e.title,
      starts_at: localInput(e.starts_at, timeZone),
      ends_at: localInput(e.ends_at, timeZone),
      location_name: e.location_name ?? "",
      location_address: e.location_address ?? "",
      description: e.description ?? "",
      capacity: e.capacity === null ? "" : String(e.capacity),
      access: e.access,
      max_per_email: String(e.max_per_email),
      registration_opens_at: localInput(e.registration_opens_at, timeZone),
      registration_closes_at: localInput(e.registration_closes_at, timeZone),
    },
    flags: { listed: e.listed, waitlist_enabled: e.waitlist_enabled, publish: e.status === "published" },
    tickets: e.tickets
      .filter((t) => t.is_active)
      .map((t) => ({
        id: t.id,
        name: t.name,
        member: amountText(t.member_price_cents),
        nonmember: amountText(t.non_member_price_cents),
        qty: t.quantity_max === null ? "" : String(t.quantity_max),
      })),
  };
}

/** The tickets as the API takes them: rows without a name or marked removed are left out; an existing ticket keeps its tier prices. */
function ticketsBody(rows: TicketValues[], existing: EventAdminDetail | null, currency: string) {
  return rows
    .filter((t) => t.name && !t.remove)
    .map((t) => ({
      id: t.id || undefined,
      name: t.name,
      member_price_cents: t.member ? cents(t.member, currency) : 0,
      non_member_price_cents: t.nonmember ? cents(t.nonmember, currency) : null,
      quantity_max: t.qty ? whole(t.qty) : null,
      tier_prices: existing?.tickets.find((x) => x.id === t.id)?.tier_prices ?? undefined,
    }));
}

const TIME_FIELDS = ["starts_at", "ends_at", "registration_opens_at", "registration_closes_at"] as const;

/** The form's label of each time field, for a refusal that names two of them (DATE_ORDER). */
function timeLabels(locale: Locale): Record<(typeof TIME_FIELDS)[number], string> {
  const tt = EVENTS_TEXTS[locale];
  return { starts_at: tt.startsAt, ends_at: tt.endsAt, registration_opens_at: tt.opensAt, registration_closes_at: tt.closesAt };
}

/**
 * The form as the API's body, its times typed in the club's zone made UTC; an emptied optional
 * field is null (cleared) on an edit. `skipped`: the times that do not exist (spring's skipped hour).
 */
function eventBody(input: PageInput, v: FormValues, existing: EventAdminDetail | null): { body: Record<string, unknown>; skipped: Record<string, string> } {
  const f = v.fields;
  const clear = existing ? null : undefined;
  const { times, skipped } = utcTimes(f, TIME_FIELDS, input.timeZone, input.locale);
  const body = {
    title: f.title,
    starts_at: times.starts_at,
    ends_at: times.ends_at ?? clear,
    location_name: f.location_name ?? clear,
    location_address: f.location_address ?? clear,
    description: f.description ?? clear,
    capacity: whole(f.capacity) ?? clear,
    access: f.access,
    listed: v.flags.listed,
    waitlist_enabled: v.flags.waitlist_enabled,
    max_per_email: whole(f.max_per_email),
    registration_opens_at: times.registration_opens_at ?? clear,
    registration_closes_at: times.registration_closes_at ?? clear,
    tickets: ticketsBody(v.tickets, existing, clubOf(input.admin).currency),
  };
  return { body, skipped };
}

function TicketRows(props: { tt: EventsTexts; tickets: TicketValues[]; currency: string; error?: string }): Html {
  const { tt } = props;
  const rows = [
    ...props.tickets.filter((t) => t.id || t.name),
    ...Array.from({ length: BLANK_TICKETS }, (): TicketValues => ({ id: "", name: "", member: "", nonmember: "", qty: "" })),
  ];
  return (
    <fieldset>
      <legend>{tt.tickets}</legend>
      <p class="muted small">{tt.ticketsHint}</p>
      {props.error ? <p class="error-text">{props.error}</p> : null}
      <div class="ticket-rows">
        {rows.map((t, i) => (
          <div class="ticket-row">
            <p class="ticket-head">{t.id ? `${tt.ticket} ${i + 1}` : tt.newTicket}</p>
            {t.id ? <input type="hidden" name={`t${i}_id`} value={t.id} /> : null}
            <Field name={`t${i}_name`} label={tt.ticketName} value={t.name} autocomplete="off" />
            <Field name={`t${i}_member`} label={`${tt.memberPrice} (${props.currency})`} inputmode="decimal" value={t.member} hint={tt.memberHint} />
            <Field
              name={`t${i}_nonmember`}
              label={`${tt.nonMemberPrice} (${props.currency})`}
              inputmode="decimal"
              value={t.nonmember}
              hint={tt.nonMemberHint}
            />
            <Field name={`t${i}_qty`} label={tt.quantityMax} type="number" min={0} value={t.qty} hint={tt.quantityHint} />
            {t.id ? <Checkbox name={`t${i}_remove`} label={tt.removeTicket} checked={t.remove} /> : null}
          </div>
        ))}
      </div>
    </fieldset>
  );
}

function EventForm(props: { input: PageInput; action: string; values: FormValues; problems: Problems; isNew: boolean; back: string }): Html {
  const { input, values, problems } = props;
  const tt = EVENTS_TEXTS[input.locale];
  const f = values.fields;
  const p = problems.fields;
  const ticketError = p.tickets ?? p.name ?? p.member_price_cents ?? p.non_member_price_cents ?? p.quantity_max ?? p.tier_prices;
  const hint = fill(tt.localHint, { zone: input.timeZone });
  const utc = (name: (typeof TIME_FIELDS)[number], label: string) => (
    <Field name={name} label={label} type="datetime-local" value={f[name]} hint={hint} error={p[name]} required={name === "starts_at"} />
  );
  return (
    <form method="post" action={props.action} class="card" novalidate>
      <Notice error={problems.message} />
      <CsrfField token={input.csrf} />
      <Field name="title" label={tt.title} value={f.title} error={p.title} required autocomplete="off" />
      <div class="two">
        {utc("starts_at", tt.startsAt)}
        {utc("ends_at", tt.endsAt)}
      </div>
      <div class="two">
        <Field name="location_name" label={tt.locationName} value={f.location_name} error={p.location_name} />
        <Field name="location_address" label={tt.locationAddress} value={f.location_address} error={p.location_address} />
      </div>
      <TextArea name="description" label={tt.description} value={f.description} error={p.description} rows={5} />
      <div class="two">
        <Field name="capacity" label={tt.capacity} type="number" min={0} value={f.capacity} hint={tt.capacityHint} error={p.capacity} />
        <Select
          name="access"
          label={tt.access}
          options={(["public", "members"] as const).map((a) => ({ value: a, label: tt.accessOptions[a] }))}
          value={f.access ?? "public"}
          error={p.access}
        />
      </div>
      <div class="two">
        {utc("registration_opens_at", tt.opensAt)}
        {utc("registration_closes_at", tt.closesAt)}
      </div>
      <Field name="max_per_email" label={tt.maxPerEmail} type="number" min={1} max={100} value={f.max_per_email ?? "1"} error={p.max_per_email} />
      <Checkbox name="listed" label={tt.listed} checked={values.flags.listed} />
      <Checkbox name="waitlist_enabled" label={tt.waitlist} checked={values.flags.waitlist_enabled} />
      {props.isNew ? <Checkbox name="publish" label={tt.publishNow} checked={values.flags.publish} /> : null}
      <TicketRows tt={tt} tickets={values.tickets} currency={clubOf(input.admin).currency} error={ticketError} />
      <div class="actions">
        <button type="submit">{props.isNew ? tt.add : input.t.save}</button>
        <a href={props.back}>{input.t.cancel}</a>
      </div>
    </form>
  );
}

function newPage(input: PageInput, values: FormValues, problems: Problems): Response {
  const tt = EVENTS_TEXTS[input.locale];
  return input.page(tt.addTitle, <EventForm input={input} action="/admin/events/new" values={values} problems={problems} isNew back="/admin/events" />, {
    status: problems.status,
  });
}

async function create(input: PageInput): Promise<Response> {
  const values = readForm(input.form);
  const { body, skipped } = eventBody(input, values, null);
  const checked = check(EventCreate, body, input.locale, skipped);
  if (!checked.ok) return newPage(input, values, checked.problems);
  let created: EventAdminDetail;
  try {
    created = await (values.flags.publish ? createEvent : createDraftEvent)(input.ctx, checked.data);
  } catch (err) {
    return newPage(input, values, problemsOf(err, input.locale, timeLabels(input.locale)));
  }
  return input.redirect(`/admin/events/${created.id}?done=created`);
}

async function editPage(input: PageInput, values: FormValues | null, problems: Problems): Promise<Response> {
  const tt = EVENTS_TEXTS[input.locale];
  const event = await getEvent(input.ctx, { event_id: input.params.event_id });
  const path = `/admin/events/${event.id}`;
  return input.page(
    fill(tt.editTitle, { title: event.title }),
    <EventForm input={input} action={`${path}/edit`} values={values ?? valuesOf(event, input.timeZone)} problems={problems} isNew={false} back={path} />,
    { status: problems.status },
  );
}

async function save(input: PageInput): Promise<Response> {
  const existing = await getEvent(input.ctx, { event_id: input.params.event_id });
  const values = readForm(input.form);
  const { body, skipped } = eventBody(input, values, existing);
  const checked = check(EventUpdate, body, input.locale, skipped);
  if (!checked.ok) return editPage(input, values, checked.problems);
  try {
    await updateEvent(input.ctx, { ...checked.data, event_id: existing.id });
  } catch (err) {
    return editPage(input, values, problemsOf(err, input.locale, timeLabels(input.locale)));
  }
  return input.redirect(`/admin/events/${existing.id}?done=saved`);
}

const NEW_EVENT: FormValues = {
  fields: { access: "public", max_per_email: "1" },
  flags: { listed: true, waitlist_enabled: false, publish: true },
  tickets: [],
};

export default definePage({
  nav: { id: "events", path: "/events", scope: listEvents.scope, order: 40 },
  routes: [
    { method: "GET", path: "/events", scope: listEvents.scope, handler: list },
    { method: "GET", path: "/events/new", scope: createEvent.scope, handler: (input) => newPage(input, NEW_EVENT, NO_PROBLEMS) },
    { method: "POST", path: "/events/new", scope: createEvent.scope, handler: create },
    { method: "GET", path: "/events/:event_id/edit", scope: updateEvent.scope, handler: (input) => editPage(input, null, NO_PROBLEMS) },
    { method: "POST", path: "/events/:event_id/edit", scope: updateEvent.scope, handler: save },
  ],
});
