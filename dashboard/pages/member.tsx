// /admin/members/:member_id — one member: details, links to their web card (/c/) and own page
// (/m/), the card sent by email, the actions their state allows (extend, record a payment,
// suspend, reactivate, stop automatic renewal, approve or reject an application), the history and
// payments, editing, the data export, and erasure behind a confirmation. Each action is the API's
// verb with the API's schema and scope; a payment method is chosen from PAYMENT_METHODS.
import { z } from "zod";
import { fill } from "../../lib/i18n/dashboard";
import { INVOICES_TEXTS } from "../../lib/i18n/dashboard-invoices";
import { createInvoice, listMemberInvoices } from "../../lib/invoices";
import { type MemberAction, MEMBERS_TEXTS, type MembersTexts } from "../../lib/i18n/dashboard-members";
import { approveMember, rejectMember } from "../../lib/join";
import { cancelSubscription, extendMembership, getMember, markMemberPaid, reactivateMember, suspendMember, updateMember } from "../../lib/members";
import { sendCardEmail } from "../../lib/members/card-email";
import { eraseMember } from "../../lib/members/erase";
import { exportMemberData } from "../../lib/members/history";
import { openMemberPage } from "../../lib/member-page";
import {
  ExtendRequest,
  MANUAL_PAYMENT_METHODS,
  MarkPaidRequest,
  type MemberAdminItem,
  MemberUpdate,
  PAYMENT_METHODS,
  ReactivateRequest,
  SuspendRequest,
} from "../../lib/members/schemas";
import { webCardUrl } from "../../lib/passes";
import type { Verb } from "../../lib/context";
import { cents, check, doneOf, Field, Notice, NO_PROBLEMS, type Problems, problemsOf, Select, textFields } from "../components/form";
import { RecordTable } from "../components/record-table";
import { day, instant, methodName, methodOptions, money, zoned } from "../format";
import { Fragment, h, type Html } from "../jsx";
import { clubOf, CsrfField } from "../layout";
import { MailingMarks } from "./mailings";
import { definePage, type PageInput } from "../page";
import { InvoiceState, PdfLink } from "./invoices";
import { StatusBadge, tierOptions } from "./members";

type Action = {
  verb: Verb<never, unknown>;
  schema: z.ZodType;
  /** Whether the member's state offers it (the verb refuses it otherwise anyway: 409). */
  offered(m: MemberAdminItem): boolean;
  /** The form's fields (besides the CSRF token). */
  fields(input: PageInput, tt: MembersTexts, problems: Problems): Html | null;
};

const Reason = (props: { tt: MembersTexts; problems: Problems; action: MemberAction }) => (
  <Field name="reason" id={`${props.action}-reason`} label={props.tt.reason} error={props.problems.fields.reason} autocomplete="off" />
);

const ACTIONS: Record<MemberAction, Action> = {
  extend: {
    verb: extendMembership as never,
    schema: ExtendRequest,
    offered: () => true,
    fields: (_i, tt, p) => (
      <Fragment>
        <Field name="extend_months" id="extend-months" label={tt.months} type="number" min={1} max={120} value="12" error={p.fields.extend_months} />
        <Reason tt={tt} problems={p} action="extend" />
      </Fragment>
    ),
  },
  "mark-paid": {
    verb: markMemberPaid as never,
    schema: MarkPaidRequest,
    offered: () => true,
    fields: (input, tt, p) => (
      <Fragment>
        <Field
          name="amount"
          id="mark-paid-amount"
          label={`${tt.amount} (${clubOf(input.admin).currency})`}
          inputmode="decimal"
          required
          error={p.fields.amount_cents ?? p.fields.amount}
        />
        <Select
          name="payment_method"
          id="mark-paid-method"
          label={tt.method}
          options={methodOptions(tt.methods, MANUAL_PAYMENT_METHODS)}
          value="bank_transfer"
          error={p.fields.payment_method}
        />
        <Reason tt={tt} problems={p} action="mark-paid" />
      </Fragment>
    ),
  },
  suspend: {
    verb: suspendMember as never,
    schema: SuspendRequest,
    offered: (m) => m.payment_status !== "suspended",
    fields: (_i, tt, p) => <Reason tt={tt} problems={p} action="suspend" />,
  },
  reactivate: {
    verb: reactivateMember as never,
    schema: ReactivateRequest,
    offered: (m) => m.payment_status === "suspended",
    fields: (_i, tt, p) => <Reason tt={tt} problems={p} action="reactivate" />,
  },
  "cancel-subscription": {
    verb: cancelSubscription as never,
    schema: SuspendRequest,
    offered: (m) => m.payment_mode === "subscription" && !m.renewal_opt_out_at,
    fields: () => null,
  },
  approve: { verb: approveMember as never, schema: z.object({}), offered: (m) => m.application_status === "pending_approval", fields: () => null },
  reject: { verb: rejectMember as never, schema: z.object({}), offered: (m) => m.application_status === "pending_approval", fields: () => null },
};

function actionBody(name: MemberAction, form: FormData | null): Record<string, unknown> {
  const f = textFields(form, ["extend_months", "amount", "payment_method", "reason"]);
  switch (name) {
    case "extend":
      return { extend_months: f.extend_months === undefined ? undefined : Number(f.extend_months), reason: f.reason };
    case "mark-paid":
      return { amount_cents: cents(f.amount), payment_method: f.payment_method, reason: f.reason };
    case "suspend":
    case "reactivate":
    case "cancel-subscription":
      return { reason: f.reason };
    default:
      return {};
  }
}

/** `methods` as a select's options; a `current` value outside them (imported, typed through the API) stays offered, so saving keeps it. */
async function memberPage(input: PageInput, opts: { problems?: Problems; failed?: MemberAction } = {}): Promise<Response> {
  const { ctx, locale } = input;
  const tt = MEMBERS_TEXTS[locale];
  const data = await exportMemberData(ctx, { member_id: input.params.member_id });
  const m = data.member;
  const problems = opts.problems ?? NO_PROBLEMS;
  const currency = clubOf(input.admin).currency;
  const path = `/admin/members/${m.id}`;
  const actions = (Object.keys(ACTIONS) as MemberAction[]).filter((name) => ACTIONS[name].offered(m) && input.can(ACTIONS[name].verb.scope));
  const canEdit = input.can(updateMember.scope);
  const invoices = input.can(listMemberInvoices.scope) ? await memberInvoices(input, m.id) : null;
  return input.page(
    `${m.first_name} ${m.last_name}`,
    <Fragment>
      <Notice error={opts.failed ? null : problems.message} done={doneOf(input.query, tt.done)} />
      <section class="card" aria-labelledby="facts">
        <h2 id="facts">{tt.facts}</h2>
        <dl class="facts">
          <dt>{tt.sorts.status}</dt>
          <dd>
            <StatusBadge status={m.status} tt={tt} />
            {m.application_status === "pending_approval" ? <span class="badge">{tt.awaitingApproval}</span> : null}
            {m.erasure_requested_at ? <span class="badge">{tt.erasureAsked}</span> : null}
          </dd>
          <dt>{tt.email}</dt>
          <dd>
            {m.email} {MailingMarks({ member: m, input })}
          </dd>
          <dt>{tt.tier}</dt>
          <dd>{m.tier_name ?? tt.noTier}</dd>
          <dt>{tt.start}</dt>
          <dd>{day(m.membership_start, locale)}</dd>
          <dt>{tt.end}</dt>
          <dd>{day(m.membership_end, locale)}</dd>
          <dt>{tt.paymentMethod}</dt>
          <dd>{m.payment_method ? methodName(tt.methods, m.payment_method) : ""}</dd>
          <dt>{tt.referralCode}</dt>
          <dd>{m.referral_code}</dd>
          <dt>{m.card_email_sent_at ? zoned(tt.cardSent, input.timeZone) : tt.cardSent}</dt>
          <dd>{m.card_email_sent_at ? instant(m.card_email_sent_at, locale, input.timeZone) : tt.cardNeverSent}</dd>
          <dt>{tt.joined}</dt>
          <dd>{day(m.created_at, locale)}</dd>
        </dl>
        <div class="actions">
          {canEdit ? (
            <a class="button" href={`${path}/edit`}>
              {tt.edit}
            </a>
          ) : null}
          {input.can(sendCardEmail.scope) ? (
            <form method="post" action={`${path}/send-card`} class="inline">
              <CsrfField token={input.csrf} />
              <button type="submit">{tt.sendCard}</button>
            </form>
          ) : null}
          <a class="button secondary" href={webCardUrl(ctx, m.pass_serial_number)}>
            {tt.openCard}
          </a>
          {input.can(openMemberPage.scope) ? (
            <form method="post" action={`${path}/page`} class="inline">
              <CsrfField token={input.csrf} />
              <button type="submit" class="secondary">
                {tt.openPage}
              </button>
            </form>
          ) : null}
          <a class="button secondary" href={`${path}/data`} download="">
            {tt.exportData}
          </a>
        </div>
      </section>
      {actions.length ? (
        <section aria-labelledby="actions">
          <h2 id="actions">{tt.actions}</h2>
          <div class="grid">
            {actions.map((name) => {
              const failed = opts.failed === name;
              const p = failed ? problems : NO_PROBLEMS;
              return (
                <form method="post" action={`${path}/actions/${name}`} class="card" aria-labelledby={`a-${name}`}>
                  <h3 id={`a-${name}`}>{tt.action[name]}</h3>
                  {failed ? <Notice error={p.message} /> : null}
                  <CsrfField token={input.csrf} />
                  {ACTIONS[name].fields(input, tt, p)}
                  <div class="actions">
                    <button type="submit" class={name === "reject" || name === "suspend" ? "danger" : undefined}>
                      {tt.action[name]}
                    </button>
                  </div>
                </form>
              );
            })}
          </div>
        </section>
      ) : null}
      <section aria-labelledby="history">
        <h2 id="history">{tt.history}</h2>
        {data.history.length ? (
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">{zoned(tt.when, input.timeZone)}</th>
                  <th scope="col">{tt.what}</th>
                  <th scope="col" class="hide-small">
                    {tt.end}
                  </th>
                  <th scope="col" class="hide-small">
                    {tt.who}
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.history.map((e) => (
                  <tr>
                    <td>{instant(e.created_at, locale, input.timeZone)}</td>
                    <td>
                      {tt.kinds[e.kind] ?? e.kind}
                      {e.amount_cents !== null ? ` · ${money(e.amount_cents, currency, locale)}` : ""}
                      {e.reason ? ` · ${e.reason}` : ""}
                    </td>
                    <td class="hide-small">
                      {e.membership_end_after && e.membership_end_after !== e.membership_end_before ? day(e.membership_end_after, locale) : ""}
                    </td>
                    <td class="hide-small">{e.actor}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p>{tt.noHistory}</p>
        )}
      </section>
      <section aria-labelledby="payments">
        <h2 id="payments">{tt.payments}</h2>
        {data.payments.length ? (
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">{tt.when}</th>
                  <th scope="col" class="num">
                    {tt.amount}
                  </th>
                  <th scope="col">{tt.method}</th>
                </tr>
              </thead>
              <tbody>
                {data.payments.map((p) => (
                  <tr>
                    <td>{day(p.paid_at, locale)}</td>
                    <td class="num">{money(p.amount_cents, p.currency, locale)}</td>
                    <td>{methodName(tt.methods, p.method)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p>{tt.noPayments}</p>
        )}
      </section>
      {invoices}
      {canEdit ? (
        <p>
          <a href={`${path}/erase`}>{tt.erase}</a>
        </p>
      ) : null}
    </Fragment>,
    { status: problems.status },
  );
}

/** The member's invoices (the latest 20; all of them on the invoices page) and the way to a new one. */
async function memberInvoices(input: PageInput, memberId: string): Promise<Html> {
  const tt = INVOICES_TEXTS[input.locale];
  const invoices = await listMemberInvoices(input.ctx, { member_id: memberId, limit: 20 });
  return (
    <section aria-labelledby="invoices">
      <h2 id="invoices">{tt.memberInvoices}</h2>
      {invoices.items.length ? (
        <RecordTable
          compact
          columns={[{ label: tt.number }, { label: tt.due }, { label: tt.amount, class: "num" }, { label: tt.status }, { label: tt.pdf, actions: true }]}
          rows={invoices.items.map((i) => [
            i.number,
            day(i.due_on, input.locale),
            money(i.amount_cents, i.currency, input.locale),
            <InvoiceState invoice={i} tt={tt} />,
            <PdfLink invoice={i} tt={tt} />,
          ])}
        />
      ) : (
        <p>{tt.memberNone}</p>
      )}
      {input.can(createInvoice.scope) ? (
        <div class="actions">
          <a class="button secondary" href={`/admin/invoices/new?member_id=${memberId}`}>
            {tt.add}
          </a>
        </div>
      ) : null}
    </section>
  );
}

function actionRoute(name: MemberAction) {
  const action = ACTIONS[name];
  return {
    method: "POST" as const,
    path: `/members/:member_id/actions/${name}`,
    scope: action.verb.scope,
    async handler(input: PageInput) {
      const member_id = input.params.member_id;
      const checked = check(action.schema, actionBody(name, input.form), input.locale);
      if (!checked.ok) return memberPage(input, { problems: checked.problems, failed: name });
      try {
        await (action.verb as unknown as (ctx: PageInput["ctx"], body: unknown) => Promise<unknown>)(input.ctx, { ...(checked.data as object), member_id });
      } catch (err) {
        return memberPage(input, { problems: problemsOf(err, input.locale), failed: name });
      }
      // A rejected applicant is erased: there is no page to go back to.
      return input.redirect(name === "reject" ? "/admin/members?done=reject" : `/admin/members/${member_id}?done=${name}`);
    },
  };
}

const EDIT_FIELDS = ["first_name", "last_name", "email", "tier_id", "payment_method", "membership_end", "reason"] as const;

async function editForm(input: PageInput, values: Record<string, string> | null, problems: Problems): Promise<Response> {
  const tt = MEMBERS_TEXTS[input.locale];
  const m = await getMember(input.ctx, { member_id: input.params.member_id });
  const v = values ?? {
    first_name: m.first_name,
    last_name: m.last_name,
    email: m.email,
    tier_id: m.tier_id ?? "",
    payment_method: m.payment_method ?? "",
    membership_end: m.membership_end,
  };
  const path = `/admin/members/${m.id}`;
  return input.page(
    fill(tt.editTitle, { name: `${m.first_name} ${m.last_name}` }),
    <form method="post" action={`${path}/edit`} class="card" novalidate>
      <Notice error={problems.message} />
      <CsrfField token={input.csrf} />
      <Field name="first_name" label={tt.firstName} value={v.first_name} error={problems.fields.first_name} required autocomplete="off" />
      <Field name="last_name" label={tt.lastName} value={v.last_name} error={problems.fields.last_name} required autocomplete="off" />
      <Field name="email" label={tt.email} type="email" value={v.email} error={problems.fields.email} required autocomplete="off" />
      <Select name="tier_id" label={tt.tier} options={await tierOptions(input, tt)} value={v.tier_id} error={problems.fields.tier_id} />
      <Select
        name="payment_method"
        label={tt.paymentMethod}
        options={[{ value: "", label: tt.noMethod }, ...methodOptions(tt.methods, PAYMENT_METHODS, v.payment_method)]}
        value={v.payment_method}
        error={problems.fields.payment_method}
      />
      <Field name="membership_end" label={tt.end} type="date" value={v.membership_end} error={problems.fields.membership_end} />
      <Field name="reason" label={tt.reason} value={v.reason} hint={tt.reasonHint} error={problems.fields.reason} autocomplete="off" />
      <div class="actions">
        <button type="submit">{input.t.save}</button>
        <a href={path}>{input.t.cancel}</a>
      </div>
    </form>,
    { status: problems.status },
  );
}

async function saveEdit(input: PageInput): Promise<Response> {
  const member_id = input.params.member_id;
  const raw: Record<string, string> = {};
  for (const name of EDIT_FIELDS) {
    const value = input.form?.get(name);
    raw[name] = typeof value === "string" ? value.trim() : "";
  }
  // The whole form is sent: the verb changes (and asks a reason for) only what differs from the
  // stored member. An empty tier or payment method clears it; an empty name is the schema's to refuse.
  const body = { ...raw, tier_id: raw.tier_id || null, payment_method: raw.payment_method || null, reason: raw.reason || undefined };
  const checked = check(MemberUpdate, body, input.locale);
  if (!checked.ok) return editForm(input, raw, checked.problems);
  try {
    await updateMember(input.ctx, { ...checked.data, member_id });
  } catch (err) {
    return editForm(input, raw, problemsOf(err, input.locale));
  }
  return input.redirect(`/admin/members/${member_id}?done=saved`);
}

/**
 * Opens the member's own page: a new address of it for the admin (openMemberPage; the page's
 * token is kept as a hash, so no link can be shown before), the links mailed to the member
 * still working.
 */
async function openPage(input: PageInput): Promise<Response> {
  const { url } = await openMemberPage(input.ctx, { member_id: input.params.member_id });
  return new Response(null, { status: 303, headers: { location: url, "cache-control": "no-store", "referrer-policy": "no-referrer" } });
}

/** Sends the member their card by email (the verb of POST .../send-card-email); a failed send (502) shows the page with the reason. */
async function sendCard(input: PageInput): Promise<Response> {
  const member_id = input.params.member_id;
  try {
    await sendCardEmail(input.ctx, { member_id });
  } catch (err) {
    return memberPage(input, { problems: problemsOf(err, input.locale) });
  }
  return input.redirect(`/admin/members/${member_id}?done=send-card`);
}

async function erasePage(input: PageInput, problems: Problems): Promise<Response> {
  const tt = MEMBERS_TEXTS[input.locale];
  const m = await getMember(input.ctx, { member_id: input.params.member_id });
  const path = `/admin/members/${m.id}`;
  return input.page(
    fill(tt.eraseTitle, { name: `${m.first_name} ${m.last_name}` }),
    <form method="post" action={`${path}/erase`} class="card">
      <Notice error={problems.message} />
      <CsrfField token={input.csrf} />
      <p>{tt.eraseText}</p>
      <p>
        <a href={`${path}/data`} download="">
          {tt.exportData}
        </a>
      </p>
      <div class="field">
        <input id="f-confirm" type="checkbox" name="confirm" value="yes" required />
        <label for="f-confirm" class="inline-label">
          {tt.eraseConfirm}
        </label>
      </div>
      <div class="actions">
        <button type="submit" class="danger">
          {tt.eraseButton}
        </button>
        <a href={path}>{input.t.cancel}</a>
      </div>
    </form>,
    { status: problems.status },
  );
}

async function erase(input: PageInput): Promise<Response> {
  if (input.form?.get("confirm") !== "yes") return erasePage(input, { status: 422, fields: {}, message: MEMBERS_TEXTS[input.locale].eraseConfirm });
  await eraseMember(input.ctx, { member_id: input.params.member_id });
  return input.redirect("/admin/members?done=erased");
}

async function dataFile(input: PageInput): Promise<Response> {
  const data = await exportMemberData(input.ctx, { member_id: input.params.member_id });
  return new Response(JSON.stringify(data, null, 2), {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="member-${data.member.id}.json"`,
      "cache-control": "no-store",
    },
  });
}

export default definePage({
  routes: [
    { method: "GET", path: "/members/:member_id", scope: exportMemberData.scope, handler: (input) => memberPage(input) },
    { method: "GET", path: "/members/:member_id/data", scope: exportMemberData.scope, handler: dataFile },
    { method: "GET", path: "/members/:member_id/edit", scope: updateMember.scope, handler: (input) => editForm(input, null, NO_PROBLEMS) },
    { method: "POST", path: "/members/:member_id/edit", scope: updateMember.scope, handler: saveEdit },
    { method: "GET", path: "/members/:member_id/erase", scope: eraseMember.scope, handler: (input) => erasePage(input, NO_PROBLEMS) },
    { method: "POST", path: "/members/:member_id/erase", scope: eraseMember.scope, handler: erase },
    { method: "POST", path: "/members/:member_id/send-card", scope: sendCardEmail.scope, handler: sendCard },
    { method: "POST", path: "/members/:member_id/page", scope: openMemberPage.scope, handler: openPage },
    ...(Object.keys(ACTIONS) as MemberAction[]).map(actionRoute),
  ],
});
