// /admin/tiers — the club's membership tiers: the list (archived ones too, marked), adding one,
// editing one, and archiving or restoring it (the API's soft delete, `is_active`). Each write is
// the API's verb with the API's schema and scope.
import { NotFound } from "../../lib/errors";
import { fill } from "../../lib/i18n/dashboard";
import { TIERS_TEXTS, type TiersTexts } from "../../lib/i18n/dashboard-tiers";
import { createTier, listTiers, type Tier, TierCreate, TierUpdate, updateTier } from "../../lib/tiers";
import { amountText, cents, check, doneOf, Field, Notice, NO_PROBLEMS, type Problems, problemsOf, TextArea, textFields, whole } from "../components/form";
import { money } from "../format";
import { ActiveBadge, AddButton, DataTable, LinkCell } from "../components/table";
import { Fragment, h } from "../jsx";
import { clubOf, CsrfField } from "../layout";
import { definePage, type PageInput } from "../page";

const FIELDS = ["name", "description", "price", "duration_months", "sort_order"] as const;

async function list(input: PageInput): Promise<Response> {
  const { locale } = input;
  const tt = TIERS_TEXTS[locale];
  const tiers = await listTiers(input.ctx, { include_inactive: true });
  const canEdit = input.can(updateTier.scope);
  return input.page(
    input.t.nav.tiers,
    <Fragment>
      <Notice done={doneOf(input.query, tt.done)} />
      <AddButton show={input.can(createTier.scope)} href="/admin/tiers/new" label={tt.add} />
      <DataTable
        rows={tiers.length}
        empty={tt.empty}
        columns={[
          { label: tt.name },
          { label: tt.price, class: "num" },
          { label: tt.duration, class: "hide-small" },
          { label: tt.members, class: "num" },
          { label: tt.state },
          canEdit ? { label: tt.edit } : null,
        ]}
      >
        {tiers.map((tier) => (
          <tr>
            <td>
              {tier.name}
              {tier.description ? <p class="muted small">{tier.description}</p> : null}
            </td>
            <td class="num">{money(tier.price_cents, tier.currency, locale)}</td>
            <td class="hide-small">{fill(tt.months, { months: tier.duration_months })}</td>
            <td class="num">{tier.member_count}</td>
            <td>
              <ActiveBadge active={tier.is_active} on={tt.active} off={tt.archived} />
            </td>
            <LinkCell show={canEdit} href={`/admin/tiers/${tier.id}`} text={tt.edit} label={`${tt.edit} ${tier.name}`} />
          </tr>
        ))}
      </DataTable>
    </Fragment>,
  );
}

/** The form's values as the API takes them (an amount in cents, in the club's `currency`, numbers as numbers); what was left empty is not sent. */
function body(form: FormData | null, currency: string): { values: Record<string, string>; sent: Record<string, unknown> } {
  const values = textFields(form, FIELDS);
  const sent: Record<string, unknown> = { name: values.name, description: values.description, price_cents: cents(values.price, currency) };
  if (values.duration_months !== undefined) sent.duration_months = whole(values.duration_months);
  if (values.sort_order !== undefined) sent.sort_order = whole(values.sort_order);
  return { values, sent };
}

function TierForm(props: { input: PageInput; tt: TiersTexts; action: string; values: Record<string, string>; problems: Problems; submit: string }) {
  const { tt, values, problems } = props;
  const p = problems.fields;
  return (
    <form method="post" action={props.action} class="card" novalidate>
      <Notice error={problems.message} />
      <CsrfField token={props.input.csrf} />
      <Field name="name" label={tt.name} value={values.name} error={p.name} required autocomplete="off" />
      <TextArea name="description" label={tt.description} value={values.description} error={p.description} rows={3} />
      <Field
        name="price"
        label={`${tt.price} (${clubOf(props.input.admin).currency})`}
        inputmode="decimal"
        value={values.price}
        error={p.price_cents ?? p.price}
        required
      />
      <Field name="duration_months" label={tt.durationMonths} type="number" min={1} max={120} value={values.duration_months} error={p.duration_months} />
      <Field name="sort_order" label={tt.sortOrder} type="number" min={0} value={values.sort_order} hint={tt.sortHint} error={p.sort_order} />
      <div class="actions">
        <button type="submit">{props.submit}</button>
        <a href="/admin/tiers">{props.input.t.cancel}</a>
      </div>
    </form>
  );
}

function newPage(input: PageInput, values: Record<string, string>, problems: Problems): Response {
  const tt = TIERS_TEXTS[input.locale];
  return input.page(tt.addTitle, <TierForm input={input} tt={tt} action="/admin/tiers/new" values={values} problems={problems} submit={tt.add} />, {
    status: problems.status,
  });
}

async function create(input: PageInput): Promise<Response> {
  const { values, sent } = body(input.form, clubOf(input.admin).currency);
  const checked = check(TierCreate, sent, input.locale);
  if (!checked.ok) return newPage(input, values, checked.problems);
  try {
    await createTier(input.ctx, checked.data);
  } catch (err) {
    return newPage(input, values, problemsOf(err, input.locale));
  }
  return input.redirect("/admin/tiers?done=created");
}

async function tierOf(input: PageInput): Promise<Tier> {
  const tiers = await listTiers(input.ctx, { include_inactive: true });
  const tier = tiers.find((t) => t.id === input.params.tier_id);
  if (!tier) throw new NotFound("TIER_NOT_FOUND");
  return tier;
}

async function editPage(input: PageInput, values: Record<string, string> | null, problems: Problems): Promise<Response> {
  const tt = TIERS_TEXTS[input.locale];
  const tier = await tierOf(input);
  const v = values ?? {
    name: tier.name,
    description: tier.description ?? "",
    price: amountText(tier.price_cents),
    duration_months: String(tier.duration_months),
    sort_order: String(tier.sort_order),
  };
  const path = `/admin/tiers/${tier.id}`;
  return input.page(
    fill(tt.editTitle, { name: tier.name }),
    <Fragment>
      <TierForm input={input} tt={tt} action={path} values={v} problems={problems} submit={input.t.save} />
      <form method="post" action={`${path}/${tier.is_active ? "archive" : "restore"}`} class="card">
        <CsrfField token={input.csrf} />
        <p>{tt.archiveHint}</p>
        <button type="submit" class={tier.is_active ? "danger" : "secondary"}>
          {tier.is_active ? tt.archive : tt.restore}
        </button>
      </form>
    </Fragment>,
    { status: problems.status },
  );
}

async function save(input: PageInput): Promise<Response> {
  const { values, sent } = body(input.form, clubOf(input.admin).currency);
  // An emptied description is cleared (null), as the API's partial update takes it.
  const checked = check(TierUpdate, { ...sent, description: values.description ?? null }, input.locale);
  if (!checked.ok) return editPage(input, values, checked.problems);
  try {
    await updateTier(input.ctx, { ...checked.data, tier_id: input.params.tier_id });
  } catch (err) {
    return editPage(input, values, problemsOf(err, input.locale));
  }
  return input.redirect("/admin/tiers?done=saved");
}

function setActive(active: boolean) {
  return async (input: PageInput): Promise<Response> => {
    await updateTier(input.ctx, { is_active: active, tier_id: input.params.tier_id });
    return input.redirect(`/admin/tiers?done=${active ? "restored" : "archived"}`);
  };
}

export default definePage({
  nav: { id: "tiers", path: "/tiers", scope: listTiers.scope, order: 20 },
  routes: [
    { method: "GET", path: "/tiers", scope: listTiers.scope, handler: list },
    { method: "GET", path: "/tiers/new", scope: createTier.scope, handler: (input) => newPage(input, { sort_order: "0" }, NO_PROBLEMS) },
    { method: "POST", path: "/tiers/new", scope: createTier.scope, handler: create },
    { method: "GET", path: "/tiers/:tier_id", scope: updateTier.scope, handler: (input) => editPage(input, null, NO_PROBLEMS) },
    { method: "POST", path: "/tiers/:tier_id", scope: updateTier.scope, handler: save },
    { method: "POST", path: "/tiers/:tier_id/archive", scope: updateTier.scope, handler: setActive(false) },
    { method: "POST", path: "/tiers/:tier_id/restore", scope: updateTier.scope, handler: setActive(true) },
  ],
});
