// /admin/audit — the club's audit log (the verb of GET /api/clubs/<club>/audit-log), paged, with
// the filters the API offers (key, path prefix, transport, request id, days, MCP protocol rows)
// and rows a person can read: when, which admin (and key), through what, the request, its result.
import { AuditLogQuery, listAuditLog } from "../../lib/audit";
import { listTeam } from "../../lib/auth/admins";
import { listApiKeys } from "../../lib/auth/keys";
import { fill, plural } from "../../lib/i18n/dashboard";
import { AUDIT_TEXTS, type AuditTexts } from "../../lib/i18n/dashboard-audit";
import { check, Field, type Problems } from "../components/form";
import { RecordTable } from "../components/record-table";
import { Pager } from "../components/pager";
import { instant, zoned } from "../format";
import { Fragment, h, type Html } from "../jsx";
import { definePage, type PageInput } from "../page";

const PAGE_SIZE = 50;
const FILTERS = ["key_prefix", "path", "via", "request_id", "from", "to", "include_protocol", "page"] as const;
/** The transports the API's filter takes (its schema's own list). */
const VIAS = AuditLogQuery.shape.via.unwrap().options;

function resultClass(status: number): string {
  if (status >= 500) return "status-suspended";
  if (status >= 400) return "status-pending";
  return "status-active";
}

/** A path a person can read: the club's own id left out, other ids cut to their first 8 characters (the full path in its title). */
function readablePath(path: string, clubId: string): string {
  return path.replace(`/clubs/${clubId}`, "/clubs/…").replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, (id) => `${id.slice(0, 8)}…`);
}

function pageLink(values: Record<string, string>, page: number): string {
  const params = new URLSearchParams();
  for (const name of FILTERS) if (name !== "page" && values[name]) params.set(name, values[name]);
  if (page > 1) params.set("page", String(page));
  const text = params.toString();
  return `/admin/audit${text ? `?${text}` : ""}`;
}

function Filters(props: { tt: AuditTexts; values: Record<string, string>; problems: Problems; keys: { prefix: string; name: string | null }[] }): Html {
  const { tt, values, problems } = props;
  return (
    <form method="get" action="/admin/audit" class="card tight" aria-labelledby="filters">
      <h2 id="filters">{tt.filters}</h2>
      <div class="fields">
        <div class="field">
          <label for="f-key_prefix">{tt.key}</label>
          <select id="f-key_prefix" name="key_prefix">
            <option value="">{tt.anyKey}</option>
            {props.keys.map((k) => (
              <option value={k.prefix} selected={k.prefix === values.key_prefix}>
                {k.name ? `${k.name} (${k.prefix}…)` : `${k.prefix}…`}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="f-via">{tt.via}</label>
          <select id="f-via" name="via">
            <option value="">{tt.anyVia}</option>
            {VIAS.map((v) => (
              <option value={v} selected={v === values.via}>
                {tt.vias[v]}
              </option>
            ))}
          </select>
        </div>
        <Field name="path" label={tt.action} value={values.path} hint={tt.actionHint} error={problems.fields.path} autocomplete="off" />
        <Field name="request_id" label={tt.requestId} value={values.request_id} error={problems.fields.request_id} autocomplete="off" />
        <Field name="from" label={tt.from} type="date" value={values.from} error={problems.fields.from} />
        <Field name="to" label={tt.to} type="date" value={values.to} error={problems.fields.to} />
        <div class="field check">
          <input id="f-include_protocol" name="include_protocol" type="checkbox" value="true" checked={values.include_protocol === "true"} />
          <label for="f-include_protocol">{tt.protocol}</label>
        </div>
      </div>
      <div class="actions">
        <button type="submit">{tt.filter}</button>
        <a href="/admin/audit">{tt.reset}</a>
      </div>
    </form>
  );
}

/** A setting's value as the audit page shows it: text as is, none as a dash, anything else as JSON. */
const shown = (v: unknown) => (v === null || v === undefined || v === "" ? "—" : typeof v === "string" ? v : JSON.stringify(v));

async function auditPage(input: PageInput): Promise<Response> {
  const { ctx, locale, t } = input;
  const tt = AUDIT_TEXTS[locale];
  const values: Record<string, string> = {};
  for (const name of FILTERS) {
    const v = input.query.get(name)?.trim();
    if (v) values[name] = v;
  }
  const [team, keys] = await Promise.all([listTeam(ctx), listApiKeys(ctx.db, ctx.clubId)]);
  const admins = new Map(team.map((a) => [a.id, a.email]));
  const checked = check(AuditLogQuery, { ...values, limit: PAGE_SIZE }, locale);
  const problems: Problems = checked.ok ? { status: 200, fields: {}, message: null } : checked.problems;
  const filters = <Filters tt={tt} values={values} problems={problems} keys={keys} />;
  if (!checked.ok) return input.page(t.nav.audit, <Fragment>{filters}</Fragment>, { status: 422 });

  const log = await listAuditLog(ctx, checked.data);
  const pages = Math.max(1, Math.ceil(log.total / PAGE_SIZE));
  const page = checked.data.page;
  return input.page(
    t.nav.audit,
    <Fragment>
      <p>{tt.intro}</p>
      {filters}
      <p class="muted" role="status">
        {plural(input.locale, tt.found, log.total)}
      </p>
      {log.items.length ? (
        <RecordTable
          columns={[
            { label: zoned(tt.when, input.timeZone) },
            { label: tt.who, class: "wrap" },
            { label: tt.actionColumn, class: "wrap" },
            { label: tt.result },
            { label: tt.via },
            { label: tt.duration, class: "hide-small num" },
            { label: tt.requestId, class: "hide-small wrap" },
          ]}
          rows={log.items.map((row) => [
            instant(row.created_at, locale, input.timeZone),
            <Fragment>
              {row.admin_id ? (admins.get(row.admin_id) ?? tt.unknownAdmin) : ""}
              {row.key_prefix ? (
                <Fragment>
                  <br />
                  <span class="muted">{fill(tt.withKey, { prefix: row.key_prefix })}</span>
                </Fragment>
              ) : null}
            </Fragment>,
            <Fragment>
              <code title={row.path}>{`${row.method} ${readablePath(row.path, ctx.clubId)}`}</code>
              {row.tool ? (
                <Fragment>
                  <br />
                  <span class="muted">{fill(tt.tool, { tool: row.tool })}</span>
                </Fragment>
              ) : null}
              {(row.changes ?? []).map((c) => (
                <Fragment>
                  <br />
                  <span class="muted">{fill(tt.changed, { field: c.field, old: shown(c.old), new: shown(c.new) })}</span>
                </Fragment>
              ))}
            </Fragment>,
            <span class={`status ${resultClass(row.status)}`}>{row.status}</span>,
            tt.vias[row.via as keyof AuditTexts["vias"]] ?? row.via,
            `${Math.round(row.duration_ms)} ms`,
            row.request_id ? (
              <a href={pageLink({ request_id: row.request_id }, 1)}>
                <code>{row.request_id}</code>
              </a>
            ) : null,
          ])}
        />
      ) : (
        <p class="card">{tt.empty}</p>
      )}
      <Pager t={t} page={page} pages={pages} link={(p) => pageLink(values, p)} />
    </Fragment>,
  );
}

export default definePage({
  nav: { id: "audit", path: "/audit", scope: listAuditLog.scope, order: 90 },
  routes: [{ method: "GET", path: "/audit", scope: listAuditLog.scope, handler: auditPage }],
});
