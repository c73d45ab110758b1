// /admin/members — the roster: search, status filter, sort, pages and a bulk export (CSV or PDF of
// the chosen members, or of all); adding a member by hand. Importing a spreadsheet:
// dashboard/pages/import.tsx; the member's own page: dashboard/pages/member.tsx.
import { fill, plural } from "../../lib/i18n/dashboard";
import { MEMBERS_TEXTS, type MembersTexts } from "../../lib/i18n/dashboard-members";
import { addMember } from "../../lib/members";
import { exportMembers } from "../../lib/members/export";
import { importMembers } from "../../lib/members/import";
import { ManualMemberCreate, MemberExportQuery, MemberListQuery, type MemberAdminItem, SORTS, STATUSES } from "../../lib/members/schemas";
import { listMembers } from "../../lib/members";
import { listTiers } from "../../lib/tiers";
import { replyResponse } from "../../http/reply";
import { check, doneOf, Field, Notice, NO_PROBLEMS, type Problems, problemsOf, Select, textFields } from "../components/form";
import { Pager } from "../components/pager";
import { day } from "../format";
import { Fragment, h, type Html } from "../jsx";
import { CsrfField } from "../layout";
import { definePage, type PageInput } from "../page";

export const PAGE_SIZE = 50;

export function StatusBadge(props: { status: MemberAdminItem["status"]; tt: MembersTexts }): Html {
  return <span class={`status status-${props.status}`}>{props.tt.status[props.status]}</span>;
}

/** The list's query from the address bar; a value out of range falls back to its default (the others kept), never a 422 page. */
function listQuery(query: URLSearchParams) {
  const raw: Record<string, string | undefined> = Object.fromEntries(["search", "status", "sort", "dir", "page"].map((k) => [k, query.get(k) || undefined]));
  const parsed = MemberListQuery.safeParse(raw);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) delete raw[String(issue.path[0])];
  const rest = MemberListQuery.safeParse(raw);
  return rest.success ? rest.data : MemberListQuery.parse({});
}

function pageLink(query: ReturnType<typeof listQuery>, page: number): string {
  const params = new URLSearchParams();
  if (query.search) params.set("search", query.search);
  if (query.status !== "all") params.set("status", query.status);
  if (query.sort !== "registered") params.set("sort", query.sort);
  if (query.dir !== "desc") params.set("dir", query.dir);
  if (page > 1) params.set("page", String(page));
  const text = params.toString();
  return `/admin/members${text ? `?${text}` : ""}`;
}

/** No member listed: none matches the search or filter, or the club has none yet (then the ways to the first ones). */
function EmptyList(props: { input: PageInput; tt: MembersTexts; filtered: boolean }): Html {
  const { input, tt } = props;
  if (props.filtered) return <p class="card">{tt.empty}</p>;
  return (
    <div class="card">
      <p>{tt.noneYet}</p>
      <div class="actions">
        {input.can(addMember.scope) ? <a href="/admin/members/new">{tt.add}</a> : null}
        {input.can(importMembers.scope) ? <a href="/admin/members/import">{tt.import}</a> : null}
      </div>
    </div>
  );
}

async function list(input: PageInput): Promise<Html | Response> {
  const { ctx, locale, t } = input;
  const tt = MEMBERS_TEXTS[locale];
  const query = listQuery(input.query);
  const result = await listMembers(ctx, { ...query, limit: PAGE_SIZE });
  const pages = Math.max(1, Math.ceil(result.total / PAGE_SIZE));
  const results = (
    <div id="results">
      <p class="muted" role="status">
        {plural(input.locale, tt.found, result.total)}
      </p>
      {result.items.length ? null : <EmptyList input={input} tt={tt} filtered={!!query.search || query.status !== "all" || query.page > 1} />}
      {result.items.length ? (
        <form method="get" action="/admin/members/export" id="export">
          <div class="table-wrap">
            {/* On a phone each row is a card (dashboard.css, table.roster): nothing scrolls sideways, no date is cut. */}
            <table class="roster">
              <caption class="muted">{tt.exportHint}</caption>
              <thead>
                <tr>
                  <th scope="col" class="pick">
                    <input type="checkbox" aria-label={tt.selectAll} data-select-all="member_ids" />
                  </th>
                  <th scope="col">{tt.name}</th>
                  <th scope="col" class="hide-small">
                    {tt.email}
                  </th>
                  <th scope="col">{tt.sorts.status}</th>
                  <th scope="col" class="hide-small">
                    {tt.tier}
                  </th>
                  <th scope="col">{tt.end}</th>
                </tr>
              </thead>
              <tbody>
                {result.items.map((m) => (
                  <tr>
                    <td class="pick">
                      <input type="checkbox" name="member_ids" value={m.id} aria-label={fill(tt.select, { name: `${m.first_name} ${m.last_name}` })} />
                    </td>
                    <td class="who">
                      <a href={`/admin/members/${m.id}`}>
                        {m.last_name} {m.first_name}
                      </a>
                    </td>
                    <td class="hide-small">{m.email}</td>
                    <td class="state">
                      <StatusBadge status={m.status} tt={tt} />
                    </td>
                    <td class="hide-small">{m.tier_name ?? ""}</td>
                    <td class="day" data-label={tt.end}>
                      {day(m.membership_end, locale)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div class="actions">
            <button type="submit" name="format" value="csv" class="secondary">
              {tt.exportCsv}
            </button>
            <button type="submit" name="format" value="pdf" class="secondary">
              {tt.exportPdf}
            </button>
          </div>
        </form>
      ) : null}
      <Pager t={t} page={query.page} pages={pages} link={(p) => pageLink(query, p)} />
    </div>
  );
  if (input.htmx) return results;
  return input.page(
    t.nav.members,
    <Fragment>
      <Notice done={doneOf(input.query, tt.done)} />
      {input.can(addMember.scope) || input.can(importMembers.scope) ? (
        <div class="actions">
          {input.can(addMember.scope) ? (
            <a class="button" href="/admin/members/new">
              {tt.add}
            </a>
          ) : null}
          {input.can(importMembers.scope) ? (
            <a class="button secondary" href="/admin/members/import">
              {tt.import}
            </a>
          ) : null}
        </div>
      ) : null}
      <form
        method="get"
        action="/admin/members"
        class="filters card"
        hx-get="/admin/members"
        hx-target="#results"
        hx-swap="outerHTML"
        hx-push-url="true"
        hx-trigger="submit, input changed delay:300ms from:#f-search, change from:select"
      >
        <div>
          <label for="f-search">{t.search}</label>
          <input id="f-search" name="search" type="search" value={query.search ?? ""} placeholder={tt.search} />
        </div>
        <div>
          <label for="f-status">{tt.sorts.status}</label>
          <select id="f-status" name="status">
            {(["all", ...STATUSES] as const).map((s) => (
              <option value={s} selected={s === query.status}>
                {tt.status[s]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="f-sort">{tt.sort}</label>
          <select id="f-sort" name="sort">
            {SORTS.map((s) => (
              <option value={s} selected={s === query.sort}>
                {tt.sorts[s]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="f-dir">{tt.dir}</label>
          <select id="f-dir" name="dir">
            <option value="asc" selected={query.dir === "asc"}>
              {tt.asc}
            </option>
            <option value="desc" selected={query.dir === "desc"}>
              {tt.desc}
            </option>
          </select>
        </div>
        <button type="submit">{tt.filter}</button>
      </form>
      {results}
    </Fragment>,
  );
}

/** The tiers a member may be put in, for a select (the current one kept even if no longer active). */
export async function tierOptions(input: PageInput, tt: MembersTexts) {
  const tiers = await listTiers(input.ctx, { include_inactive: true });
  return [{ value: "", label: tt.noTier }, ...tiers.map((tier) => ({ value: tier.id, label: tier.name }))];
}

const NEW_FIELDS = ["first_name", "last_name", "email", "membership_end", "tier_id"] as const;

async function newForm(input: PageInput, values: Record<string, string>, problems: Problems): Promise<Response> {
  const tt = MEMBERS_TEXTS[input.locale];
  const end = values.membership_end ?? new Date(Date.now() + 365 * 86400_000).toISOString().slice(0, 10);
  return input.page(
    tt.addTitle,
    <form method="post" action="/admin/members/new" class="card" novalidate>
      <Notice error={problems.message} />
      <CsrfField token={input.csrf} />
      <Field name="first_name" label={tt.firstName} value={values.first_name} error={problems.fields.first_name} required autocomplete="off" />
      <Field name="last_name" label={tt.lastName} value={values.last_name} error={problems.fields.last_name} required autocomplete="off" />
      <Field name="email" label={tt.email} type="email" value={values.email} error={problems.fields.email} required autocomplete="off" />
      <Field name="membership_end" label={tt.end} type="date" value={end} error={problems.fields.membership_end} required />
      <Select name="tier_id" label={tt.tier} options={await tierOptions(input, tt)} value={values.tier_id} error={problems.fields.tier_id} />
      <div class="actions">
        <button type="submit">{tt.add}</button>
        <a href="/admin/members">{input.t.cancel}</a>
      </div>
    </form>,
    { status: problems.status },
  );
}

async function create(input: PageInput): Promise<Response> {
  const values = textFields(input.form, NEW_FIELDS);
  const checked = check(ManualMemberCreate, values, input.locale);
  if (!checked.ok) return newForm(input, values, checked.problems);
  try {
    const member = await addMember(input.ctx, checked.data);
    return input.redirect(`/admin/members/${member.id}?done=created`);
  } catch (err) {
    return newForm(input, values, problemsOf(err, input.locale));
  }
}

async function exportFile(input: PageInput): Promise<Response> {
  // The boxes ticked arrive as repeated `member_ids`; none ticked is the whole roster.
  const ids = input.query.getAll("member_ids").filter(Boolean);
  const checked = check(MemberExportQuery, { format: input.query.get("format") || undefined, member_ids: ids.length ? ids : undefined }, input.locale);
  if (!checked.ok) return input.page(input.t.nav.members, <Notice error={Object.values(checked.problems.fields).join(" ")} />, { status: 422 });
  return replyResponse(await exportMembers(input.ctx, checked.data));
}

export default definePage({
  nav: { id: "members", path: "/members", scope: listMembers.scope, order: 10 },
  routes: [
    { method: "GET", path: "/members", scope: listMembers.scope, handler: list },
    { method: "GET", path: "/members/export", scope: exportMembers.scope, handler: exportFile },
    { method: "GET", path: "/members/new", scope: addMember.scope, handler: (input) => newForm(input, {}, NO_PROBLEMS) },
    { method: "POST", path: "/members/new", scope: addMember.scope, handler: create },
  ],
});
