// Member import from a spreadsheet (CSV): the export's own columns and common headings in
// French, English, German and Italian. Members are matched by email (created or updated);
// unchanged lines are skipped; every faulty line is reported as {line, detail}. All or nothing:
// one error and nothing is written, unless `partial`. Used by POST .../members/import and the CLI.
import { and, eq, inArray } from "drizzle-orm";
import Papa from "papaparse";
import { z } from "zod";
import type { Queryable } from "../../db";
import { members } from "../../db/schema";
import { verb } from "../auth/guard";
import { memberPassChanged, queuePassUpdate } from "../cards/pass-updates";
import type { Ctx } from "../context";
import { t as translate } from "../i18n";
import type { MessageCode } from "../i18n/messages";
import { nowIso } from "../ids";
import { customFieldsOf } from "./export";
import { clubSettings, newMemberRow } from "./index";
import {
  foldText,
  freeReferralCodes,
  type MemberRow,
  normalizeEmail,
  paymentStatusChange,
  periodEnd,
  searchTextOf,
  sortNameOf,
  writeHistory,
} from "./internal";
import { type ImportResult, PAYMENT_STATUSES, type PaymentStatus } from "./schemas";
import { todayUtc } from "./status";

type Field = "first_name" | "last_name" | "email" | "membership_start" | "membership_end" | "payment_status" | "payment_method";

/** Headings, folded (lower-case, no accents, single spaces), for each field. */
const HEADINGS: Record<Field, string[]> = {
  first_name: ["first_name", "first name", "firstname", "given name", "prenom", "vorname", "nome"],
  last_name: ["last_name", "last name", "lastname", "surname", "family name", "nom", "nom de famille", "nachname", "name", "familienname", "cognome"],
  email: ["email", "e-mail", "e mail", "mail", "courriel", "adresse e-mail", "adresse email", "email address", "e-mail-adresse", "indirizzo email"],
  membership_start: ["membership_start", "membership start", "debut abonnement", "debut", "mitgliedschaftsbeginn", "beginn", "inizio abbonamento", "inizio"],
  membership_end: [
    "membership_end",
    "membership end",
    "end",
    "expires",
    "expiry",
    "valid until",
    "fin abonnement",
    "fin",
    "date de fin",
    "valable jusqu'au",
    "mitgliedschaftsende",
    "ende",
    "gultig bis",
    "ablaufdatum",
    "fine abbonamento",
    "scadenza",
    "valido fino al",
  ],
  payment_status: ["payment_status", "payment status", "statut de paiement", "zahlungsstatus", "stato pagamento"],
  payment_method: ["payment_method", "payment method", "moyen de paiement", "zahlungsart", "metodo di pagamento"],
};

const fold = (h: string) =>
  foldText(h)
    .replace(/[_\s]+/g, " ")
    .trim();

function dateOf(value: string): string | null {
  const v = value.trim();
  let m = v.match(/^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/);
  let ymd = m ? [m[1], m[2], m[3]] : null;
  if (!ymd) {
    m = v.match(/^(\d{1,2})[./](\d{1,2})[./](\d{4})$/);
    if (m) ymd = [m[3], m[2].padStart(2, "0"), m[1].padStart(2, "0")];
  }
  if (!ymd) return null;
  const iso = `${ymd[0]}-${ymd[1]}-${ymd[2]}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso ? null : iso;
}

const EMAIL = z.email();

/**
 * Told how far an import has gone: `done` of the file's `total` data lines are handled (checked,
 * and written when they are to be). `done` only grows, and the last call has `done === total`.
 */
export type ImportProgress = (done: number, total: number) => void;

export type ImportInput = { csv: string; dry_run?: boolean; partial?: boolean; onProgress?: ImportProgress };

type Planned = { line: number; kind: "create" | "update"; email: string; values: Record<string, unknown>; existing?: MemberRow };

type Plan = { result: ImportResult; planned: Planned[]; club?: { membership_duration_months: number }; total: number };

/** Reads the file and decides, line by line, what to create, update or skip, against what `q` sees. */
async function planImport(ctx: Ctx, q: Queryable, input: ImportInput): Promise<Plan> {
  const dryRun = !!input.dry_run;
  const msg = (code: MessageCode, params?: Record<string, string | number>) => translate(ctx.locale, code, params);
  const result: ImportResult = { created: 0, updated: 0, skipped: 0, errors: [], dry_run: dryRun, written: false };
  const parsed = Papa.parse<string[]>(input.csv.replace(/^\uFEFF/, ""), { skipEmptyLines: false });
  const rows = parsed.data;
  const headerIndex = rows.findIndex((r) => r.some((c) => c.trim()));
  if (headerIndex < 0) return { result: { ...result, errors: [{ line: 1, detail: msg("IMPORT_EMPTY") }] }, planned: [], total: 0 };
  const header = rows[headerIndex].map(fold);
  const club = await clubSettings(q, ctx.clubId);
  const custom = customFieldsOf(club.custom_fields_schema);

  const column: Partial<Record<Field, number>> = {};
  for (const [field, names] of Object.entries(HEADINGS) as [Field, string[]][]) {
    const i = header.findIndex((h) => names.includes(h));
    if (i >= 0) column[field] = i;
  }
  if (column.email === undefined)
    return { result: { ...result, errors: [{ line: headerIndex + 1, detail: msg("IMPORT_NO_EMAIL_COLUMN") }] }, planned: [], total: 0 };
  const customColumns = custom
    .map((c) => ({ key: c.key, index: header.findIndex((h) => h === fold(c.key) || h === fold(c.label)) }))
    .filter((c) => c.index >= 0);

  // Existing members of the club with the emails of the file, in one query.
  const emails = rows.slice(headerIndex + 1).map((r) => normalizeEmail(r[column.email as number] ?? ""));
  const existing = new Map<string, MemberRow>();
  const unique = [...new Set(emails.filter(Boolean))];
  for (let i = 0; i < unique.length; i += 500) {
    const found = await q
      .select()
      .from(members)
      .where(and(eq(members.club_id, ctx.clubId), inArray(members.email, unique.slice(i, i + 500))));
    for (const m of found) existing.set(m.email, m);
  }

  const planned: Planned[] = [];
  const seen = new Map<string, number>();
  for (let r = headerIndex + 1; r < rows.length; r++) {
    const line = r + 1;
    const cells = rows[r];
    if (!cells.some((c) => c.trim())) continue;
    const get = (f: Field) => (column[f] === undefined ? "" : (cells[column[f] as number] ?? "").trim());
    const errors: string[] = [];
    const email = normalizeEmail(get("email"));
    if (!email) errors.push(msg("IMPORT_MISSING_FIELD", { field: "email" }));
    else if (!EMAIL.safeParse(email).success || email.length > 320) errors.push(msg("IMPORT_INVALID_EMAIL", { value: get("email") }));
    else if (seen.has(email)) errors.push(msg("IMPORT_DUPLICATE_EMAIL", { email, line: seen.get(email) as number }));
    if (email) seen.set(email, seen.get(email) ?? line);
    const values: Record<string, unknown> = {};
    for (const f of ["first_name", "last_name", "payment_method"] as const) {
      const v = get(f);
      if (v.length > 200) errors.push(msg("IMPORT_TOO_LONG", { field: f }));
      else if (v) values[f] = v;
    }
    for (const f of ["membership_start", "membership_end"] as const) {
      const v = get(f);
      if (!v) continue;
      const d = dateOf(v);
      if (d) values[f] = d;
      else errors.push(msg("IMPORT_INVALID_DATE", { field: f, value: v }));
    }
    const status = get("payment_status").toLowerCase();
    if (status) {
      if ((PAYMENT_STATUSES as readonly string[]).includes(status)) values.payment_status = status;
      else errors.push(msg("IMPORT_INVALID_STATUS", { value: status }));
    }
    const current = existing.get(email);
    if (customColumns.length) {
      const fields: Record<string, unknown> = { ...(current?.custom_fields ?? {}) };
      for (const c of customColumns) {
        const v = (cells[c.index] ?? "").trim();
        if (v) fields[c.key] = v;
      }
      if (Object.keys(fields).length) values.custom_fields = fields;
    }
    if (!current) {
      for (const f of ["first_name", "last_name", "membership_end"] as const) {
        if (!values[f] && !errors.some((e) => e.includes(f))) errors.push(msg("IMPORT_MISSING_FIELD", { field: f }));
      }
    }
    // The period the line leaves (the stored dates complete an update): never an end before its start.
    const start = (values.membership_start as string | undefined) ?? current?.membership_start;
    const end = (values.membership_end as string | undefined) ?? current?.membership_end;
    if (start && end && start > end) errors.push(msg("MEMBERSHIP_END_BEFORE_START", { start, end }));
    if (errors.length) {
      result.errors.push({ line, detail: errors.join(" ") });
      continue;
    }
    if (current) {
      const changed = Object.fromEntries(Object.entries(values).filter(([k, v]) => JSON.stringify(current[k as keyof MemberRow]) !== JSON.stringify(v)));
      if (!Object.keys(changed).length) {
        result.skipped++;
        continue;
      }
      planned.push({ line, kind: "update", email, values: changed, existing: current });
    } else {
      planned.push({ line, kind: "create", email, values });
    }
  }

  for (const p of planned) p.kind === "create" ? result.created++ : result.updated++;
  return { result, planned, club, total: rows.length - headerIndex - 1 };
}

/**
 * Imports members from CSV text (see the module comment). The plan is made inside the write
 * transaction, against what it sees: a member created or changed meanwhile (a concurrent manual
 * create of the same email) is matched, never inserted twice.
 */
export const importMembers = verb("members:edit", async (ctx: Ctx, input: ImportInput): Promise<ImportResult> => {
  const report = input.onProgress ?? (() => {});
  const finished = (plan: Plan, r: ImportResult): ImportResult => {
    report(plan.total, plan.total);
    return r;
  };
  if (input.dry_run) {
    const plan = await planImport(ctx, ctx.db.read, input);
    return finished(plan, plan.result);
  }
  return ctx.db.tx(async (t) => {
    const plan = await planImport(ctx, t, input);
    const { result, planned, club, total } = plan;
    if (result.errors.length && !input.partial) return finished(plan, { ...result, created: 0, updated: 0 });
    if (!planned.length || !club) return finished(plan, result);
    // Lines that will not be written are handled once checked; the others as they are written.
    let done = total - planned.length;
    report(done, total);
    const today = todayUtc();
    const passesChanged: string[] = [];
    const codes = await freeReferralCodes(t, ctx.clubId, planned.filter((p) => p.kind === "create").length);
    for (const p of planned) {
      if (p.kind === "create") {
        const v = p.values as Record<string, string>;
        // Without a start in the file: today, or the end itself when it has passed (an expired member).
        const start = v.membership_start ?? (v.membership_end && v.membership_end < today ? v.membership_end : today);
        const row = newMemberRow(ctx.clubId, {
          referral_code: codes.shift(),
          first_name: v.first_name,
          last_name: v.last_name,
          email: p.email,
          membership_start: start,
          membership_end: v.membership_end ?? periodEnd(start, club.membership_duration_months),
          payment_status: "paid",
          payment_method: v.payment_method ?? null,
          custom_fields: (p.values.custom_fields as Record<string, unknown>) ?? null,
        });
        // A new member is `paid` unless the file says otherwise, by the rule of every status change.
        const status = v.payment_status
          ? paymentStatusChange({ payment_status: "paid", status_before_suspension: null }, v.payment_status as PaymentStatus)
          : {};
        const [created] = await t
          .insert(members)
          .values({ ...row, ...status })
          .returning();
        await writeHistory(t, ctx, { memberId: created.id, action: "import_create", to: created, details: { line: p.line } });
      } else {
        const before = p.existing as MemberRow;
        const { payment_status, ...values } = p.values;
        // A status change follows the rule of suspend and reactivate (the status before a suspension is kept).
        const status = payment_status ? paymentStatusChange(before, payment_status as PaymentStatus) : {};
        const merged = { ...before, ...values } as MemberRow;
        const [after] = await t
          .update(members)
          .set({ ...values, ...status, search_text: searchTextOf(merged), sort_name: sortNameOf(merged), updated_at: nowIso() })
          .where(and(eq(members.club_id, ctx.clubId), eq(members.id, before.id)))
          .returning();
        if (memberPassChanged(before, after)) passesChanged.push(before.id);
        await writeHistory(t, ctx, {
          memberId: before.id,
          action: "import_update",
          from: before,
          to: after,
          details: { line: p.line, fields: Object.keys(p.values) },
        });
      }
      report(++done, total);
    }
    await queuePassUpdate(t, ctx.clubId, passesChanged, "import_update");
    return { ...result, written: true };
  });
});

/** The CSV text of an import request: a text/csv body, or the `file` field of a multipart form. */
export async function csvFromBody(body: unknown): Promise<string> {
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array || body instanceof ArrayBuffer) return new TextDecoder().decode(body);
  const file = body && typeof body === "object" ? (body as { file?: unknown }).file : undefined;
  if (file instanceof Blob) return file.text();
  if (typeof file === "string") return file;
  return "";
}
