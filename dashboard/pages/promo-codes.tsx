// /admin/promo-codes — the club's promo codes: the list (uses, validity, what each applies to),
// adding one (membership-wide, for some tiers, or for one event), editing one (the API's PATCH:
// its code and discount only while unused), deactivating and reactivating it.
import { NotFound } from "../../lib/errors";
import { listEvents } from "../../lib/events";
import { fill } from "../../lib/i18n/dashboard";
import { PROMO_TEXTS, type PromoTexts } from "../../lib/i18n/dashboard-promo";
import type { Locale } from "../../lib/i18n";
import { createPromoCode, listPromoCodes, PromoCodeCreate, type PromoCodePublic, PromoCodeUpdate, updatePromoCode } from "../../lib/promo";
import { listTiers } from "../../lib/tiers";
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
  textFields,
  utcTimes,
  whole,
} from "../components/form";
import { instant, money, zoned } from "../format";
import { ActiveBadge, AddButton, DataTable } from "../components/table";
import { Fragment, h, type Html } from "../jsx";
import { clubOf, CsrfField } from "../layout";
import { definePage, type PageInput } from "../page";

const FIELDS = ["code", "discount_type", "discount_value", "event_id", "max_uses", "valid_from", "valid_until"] as const;
/** The limits typed as the club's local times. */
const LIMIT_TIMES = ["valid_from", "valid_until"] as const;

/** The form's label of each limit, for a refusal that names both (DATE_ORDER). */
function limitLabels(locale: Locale): Record<(typeof LIMIT_TIMES)[number], string> {
  const tt = PROMO_TEXTS[locale];
  return { valid_from: tt.validFrom, valid_until: tt.validUntil };
}

function discountText(p: PromoCodePublic, currency: string, locale: Locale): string {
  return p.discount_type === "percent" ? `${p.discount_value} %` : money(p.discount_value, p.currency ?? currency, locale);
}

function validityText(p: PromoCodePublic, tt: PromoTexts, locale: Locale, timeZone: string): string {
  const parts = [
    p.valid_from ? fill(tt.from, { date: instant(p.valid_from, locale, timeZone) }) : "",
    p.valid_until ? fill(tt.until, { date: instant(p.valid_until, locale, timeZone) }) : "",
  ];
  return parts.filter(Boolean).join(" ") || tt.always;
}

async function names(input: PageInput) {
  const [tiers, events] = await Promise.all([
    listTiers(input.ctx, { include_inactive: true }),
    input.can(listEvents.scope) ? listEvents(input.ctx, {}) : Promise.resolve([]),
  ]);
  return { tiers, events, tierName: new Map(tiers.map((t) => [t.id, t.name])), eventTitle: new Map(events.map((e) => [e.id, e.title])) };
}

async function list(input: PageInput): Promise<Response> {
  const { locale } = input;
  const tt = PROMO_TEXTS[locale];
  const [codes, known] = await Promise.all([listPromoCodes(input.ctx, {}), names(input)]);
  const currency = clubOf(input.admin).currency;
  const canEdit = input.can(updatePromoCode.scope);
  const appliesTo = (p: PromoCodePublic) =>
    p.event_id
      ? `${tt.event} · ${known.eventTitle.get(p.event_id) ?? ""}`
      : p.applies_to_tier_ids?.length
        ? `${tt.membership} · ${p.applies_to_tier_ids.map((id) => known.tierName.get(id) ?? "?").join(", ")}`
        : tt.membership;
  return input.page(
    input.t.nav.promo,
    <Fragment>
      <Notice done={doneOf(input.query, tt.done)} />
      <AddButton show={input.can(createPromoCode.scope)} href="/admin/promo-codes/new" label={tt.add} />
      <DataTable
        rows={codes.length}
        empty={tt.empty}
        columns={[
          { label: tt.code },
          { label: tt.discount },
          { label: tt.appliesTo, class: "hide-small" },
          { label: tt.uses, class: "num" },
          { label: zoned(tt.validity, input.timeZone), class: "hide-small" },
          { label: tt.state },
        ]}
      >
        {codes.map((p) => (
          <tr>
            <td>
              {canEdit ? (
                <a href={`/admin/promo-codes/${p.id}`} class="code">
                  {p.code}
                </a>
              ) : (
                <span class="code">{p.code}</span>
              )}
            </td>
            <td>{discountText(p, currency, locale)}</td>
            <td class="hide-small">{appliesTo(p)}</td>
            <td class="num">{p.max_uses === null ? p.used_count : fill(tt.usesOf, { used: p.used_count, max: p.max_uses })}</td>
            <td class="hide-small">{validityText(p, tt, locale, input.timeZone)}</td>
            <td>
              <ActiveBadge active={p.is_active} on={tt.active} off={tt.inactive} />
            </td>
          </tr>
        ))}
      </DataTable>
    </Fragment>,
  );
}

type Values = Record<string, string>;

function read(form: FormData | null): { values: Values; tierIds: string[] } {
  const tierIds = (form?.getAll("applies_to_tier_ids") ?? []).filter((v): v is string => typeof v === "string" && v !== "");
  return { values: textFields(form, FIELDS), tierIds };
}

/** The discount as the API takes it: a percent as a whole number, an amount in cents. */
function discountValue(values: Values) {
  return values.discount_type === "amount" ? cents(values.discount_value) : whole(values.discount_value);
}

function PromoFields(props: { input: PageInput; tt: PromoTexts; values: Values; problems: Problems; used: boolean }): Html {
  const { tt, values, problems, used } = props;
  const p = problems.fields;
  if (used) return <p class="muted">{tt.usedHint}</p>;
  return (
    <Fragment>
      <Field name="code" label={tt.code} value={values.code} hint={tt.codeHint} error={p.code} required autocomplete="off" />
      <Select
        name="discount_type"
        label={tt.type}
        options={(["percent", "amount"] as const).map((v) => ({ value: v, label: tt.types[v] }))}
        value={values.discount_type ?? "percent"}
        error={p.discount_type}
      />
      <Field
        name="discount_value"
        label={`${tt.value} (% / ${clubOf(props.input.admin).currency})`}
        inputmode="decimal"
        value={values.discount_value}
        hint={tt.valueHint}
        error={p.discount_value}
        required
      />
    </Fragment>
  );
}

function LimitFields(props: { tt: PromoTexts; values: Values; problems: Problems; timeZone: string }): Html {
  const { tt, values } = props;
  const p = props.problems.fields;
  const hint = fill(tt.localHint, { zone: props.timeZone });
  return (
    <Fragment>
      <Field name="max_uses" label={tt.maxUses} type="number" min={1} value={values.max_uses} hint={tt.maxHint} error={p.max_uses} />
      <Field name="valid_from" label={tt.validFrom} type="datetime-local" value={values.valid_from} hint={hint} error={p.valid_from} />
      <Field name="valid_until" label={tt.validUntil} type="datetime-local" value={values.valid_until} hint={hint} error={p.valid_until} />
    </Fragment>
  );
}

async function newPage(input: PageInput, values: Values, tierIds: string[], problems: Problems): Promise<Response> {
  const tt = PROMO_TEXTS[input.locale];
  const known = await names(input);
  const upcoming = known.events.filter((e) => e.status !== "cancelled");
  return input.page(
    tt.addTitle,
    <form method="post" action="/admin/promo-codes/new" class="card" novalidate>
      <Notice error={problems.message} />
      <CsrfField token={input.csrf} />
      <PromoFields input={input} tt={tt} values={values} problems={problems} used={false} />
      <Select
        name="event_id"
        label={tt.appliesTo}
        options={[{ value: "", label: tt.membership }, ...upcoming.map((e) => ({ value: e.id, label: `${tt.event} · ${e.title}` }))]}
        value={values.event_id}
        error={problems.fields.event_id ?? problems.fields.scope}
      />
      {known.tiers.length ? (
        <fieldset>
          <legend>{tt.tiers}</legend>
          <p class="muted small">{tt.tiersHint}</p>
          {known.tiers
            .filter((t) => t.is_active)
            .map((t) => (
              <Checkbox name="applies_to_tier_ids" id={`tier-${t.id}`} label={t.name} value={t.id} checked={tierIds.includes(t.id)} />
            ))}
          {problems.fields.applies_to_tier_ids ? <p class="error-text">{problems.fields.applies_to_tier_ids}</p> : null}
        </fieldset>
      ) : null}
      <LimitFields tt={tt} values={values} problems={problems} timeZone={input.timeZone} />
      <div class="actions">
        <button type="submit">{tt.add}</button>
        <a href="/admin/promo-codes">{input.t.cancel}</a>
      </div>
    </form>,
    { status: problems.status },
  );
}

async function create(input: PageInput): Promise<Response> {
  const { values, tierIds } = read(input.form);
  const { times, skipped } = utcTimes(values, LIMIT_TIMES, input.timeZone, input.locale);
  const sent = {
    code: values.code,
    discount_type: values.discount_type,
    discount_value: discountValue(values),
    event_id: values.event_id,
    applies_to_tier_ids: tierIds.length ? tierIds : undefined,
    max_uses: whole(values.max_uses),
    valid_from: times.valid_from,
    valid_until: times.valid_until,
  };
  const checked = check(PromoCodeCreate, sent, input.locale, skipped);
  if (!checked.ok) return newPage(input, values, tierIds, checked.problems);
  try {
    await createPromoCode(input.ctx, checked.data);
  } catch (err) {
    return newPage(input, values, tierIds, problemsOf(err, input.locale, limitLabels(input.locale)));
  }
  return input.redirect("/admin/promo-codes?done=created");
}

async function promoOf(input: PageInput): Promise<PromoCodePublic> {
  const found = (await listPromoCodes(input.ctx, {})).find((p) => p.id === input.params.promo_code_id);
  if (!found) throw new NotFound("PROMO_CODE_NOT_FOUND");
  return found;
}

async function editPage(input: PageInput, values: Values | null, problems: Problems): Promise<Response> {
  const tt = PROMO_TEXTS[input.locale];
  const promo = await promoOf(input);
  const v: Values = values ?? {
    code: promo.code,
    discount_type: promo.discount_type,
    discount_value: promo.discount_type === "amount" ? amountText(promo.discount_value) : String(promo.discount_value),
    max_uses: promo.max_uses === null ? "" : String(promo.max_uses),
    valid_from: localInput(promo.valid_from, input.timeZone),
    valid_until: localInput(promo.valid_until, input.timeZone),
  };
  const path = `/admin/promo-codes/${promo.id}`;
  return input.page(
    fill(tt.editTitle, { code: promo.code }),
    <Fragment>
      <form method="post" action={path} class="card" novalidate>
        <Notice error={problems.message} />
        <CsrfField token={input.csrf} />
        <PromoFields input={input} tt={tt} values={v} problems={problems} used={promo.used_count > 0} />
        <LimitFields tt={tt} values={v} problems={problems} timeZone={input.timeZone} />
        <div class="actions">
          <button type="submit">{input.t.save}</button>
          <a href="/admin/promo-codes">{input.t.cancel}</a>
        </div>
      </form>
      <form method="post" action={`${path}/${promo.is_active ? "deactivate" : "activate"}`} class="card">
        <CsrfField token={input.csrf} />
        <button type="submit" class={promo.is_active ? "danger" : "secondary"}>
          {promo.is_active ? tt.deactivate : tt.activate}
        </button>
      </form>
    </Fragment>,
    { status: problems.status },
  );
}

async function save(input: PageInput): Promise<Response> {
  const { values } = read(input.form);
  const { times, skipped } = utcTimes(values, LIMIT_TIMES, input.timeZone, input.locale);
  // Emptied limits are cleared (null); the code and discount are sent only by the form that shows them (an unused code).
  const sent: Record<string, unknown> = {
    max_uses: whole(values.max_uses) ?? null,
    valid_from: times.valid_from ?? null,
    valid_until: times.valid_until ?? null,
  };
  if (input.form?.has("code")) Object.assign(sent, { code: values.code, discount_type: values.discount_type, discount_value: discountValue(values) });
  const checked = check(PromoCodeUpdate, sent, input.locale, skipped);
  if (!checked.ok) return editPage(input, values, checked.problems);
  try {
    await updatePromoCode(input.ctx, { ...checked.data, promo_code_id: input.params.promo_code_id });
  } catch (err) {
    return editPage(input, values, problemsOf(err, input.locale, limitLabels(input.locale)));
  }
  return input.redirect("/admin/promo-codes?done=saved");
}

function setActive(active: boolean) {
  return async (input: PageInput): Promise<Response> => {
    await updatePromoCode(input.ctx, { is_active: active, promo_code_id: input.params.promo_code_id });
    return input.redirect(`/admin/promo-codes?done=${active ? "activated" : "deactivated"}`);
  };
}

export default definePage({
  nav: { id: "promo", path: "/promo-codes", scope: listPromoCodes.scope, order: 30 },
  routes: [
    { method: "GET", path: "/promo-codes", scope: listPromoCodes.scope, handler: list },
    {
      method: "GET",
      path: "/promo-codes/new",
      scope: createPromoCode.scope,
      handler: (input) => newPage(input, { discount_type: "percent" }, [], NO_PROBLEMS),
    },
    { method: "POST", path: "/promo-codes/new", scope: createPromoCode.scope, handler: create },
    { method: "GET", path: "/promo-codes/:promo_code_id", scope: updatePromoCode.scope, handler: (input) => editPage(input, null, NO_PROBLEMS) },
    { method: "POST", path: "/promo-codes/:promo_code_id", scope: updatePromoCode.scope, handler: save },
    { method: "POST", path: "/promo-codes/:promo_code_id/deactivate", scope: updatePromoCode.scope, handler: setActive(false) },
    { method: "POST", path: "/promo-codes/:promo_code_id/activate", scope: updatePromoCode.scope, handler: setActive(true) },
  ],
});
