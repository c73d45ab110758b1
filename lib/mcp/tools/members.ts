// MCP tools of the members area: the same lib/ verbs and schemas as the HTTP routes, with the
// member's id as a field.
import { z } from "zod";
import {
  addMember,
  cancelSubscription,
  extendMembership,
  getMember,
  listMembers,
  markMemberPaid,
  reactivateMember,
  suspendMember,
  updateMember,
} from "../../members";
import {
  AssistantExport,
  CardEmailResult,
  ExtendRequest,
  ImportResult,
  ImportModeField,
  ManualMemberCreate,
  MarkPaidRequest,
  MemberAdminItem,
  MemberDataExport,
  MemberHistory,
  MemberIdInput,
  MemberListQuery,
  MemberListResponse,
  MemberWithWallet,
  MemberUpdate,
  ReactivateRequest,
  SuspendRequest,
} from "../../members/schemas";
import { sendCardEmail } from "../../members/card-email";
import { exportMembersForAssistant } from "../../members/export";
import { eraseMember } from "../../members/erase";
import { exportMemberData, getMemberHistory } from "../../members/history";
import { importMembers } from "../../members/import";
import { approveMember, rejectMember } from "../../join";
import type { Ctx } from "../../context";
import { type Params, t } from "../../i18n";
import { READ_ONLY, tool, WRITE } from "../tool";

export const list_members = tool({
  name: "list_members",
  title: "List or search members",
  description:
    "Lists the club's members, one page at a time (total, page, limit, items). Filter by status (active, expired, pending, suspended, all), search by name, email or referral code (accents and case ignored), sort by registered, name, email, membership_end or status, dir asc or desc; application_status=pending_approval lists the applicants awaiting approve_member or reject_member. Each item has its id (member_id for the other member tools), status, membership_end and referral_code.",
  input: MemberListQuery,
  annotations: READ_ONLY,
  output: MemberListResponse,
  scope: listMembers.scope,
  run: (ctx, input) => listMembers(ctx, input),
});

export const add_member = tool({
  name: "add_member",
  title: "Add a member by hand",
  description:
    "Adds a member who paid outside the platform: first_name, last_name, email and membership_end (YYYY-MM-DD, last valid day) are required; the membership starts today (so membership_end cannot be before today) and is marked paid. Fails with MEMBER_EMAIL_TAKEN if the email is already a member's. Returns the member with wallet_urls.web, the card link to give them.",
  input: ManualMemberCreate,
  annotations: WRITE,
  output: MemberWithWallet,
  scope: addMember.scope,
  run: (ctx, input) => addMember(ctx, input),
});

export const extend_membership = tool({
  name: "extend_membership",
  title: "Extend a membership",
  description:
    "Extends a member's membership without recording a payment. Give extend_until (a date later than the current end), or extend_months (added to the end, or to today if expired), or neither for one period of the member's tier (else the club's duration). Returns the updated member.",
  input: MemberIdInput.extend(ExtendRequest.shape),
  annotations: WRITE,
  output: MemberAdminItem,
  scope: extendMembership.scope,
  run: (ctx, input) => extendMembership(ctx, input),
});

export const mark_member_paid = tool({
  name: "mark_member_paid",
  title: "Record a member's payment",
  description:
    "Records a payment received outside the platform (bank transfer by default, or cash...) and renews the membership: a pending or expired member becomes paid with a new period from today; an active one is renewed from its end. amount_cents is integer cents. Refused for a suspended member (reactivate first). Needs finances:edit.",
  input: MemberIdInput.extend(MarkPaidRequest.shape),
  annotations: WRITE,
  output: MemberAdminItem,
  scope: markMemberPaid.scope,
  run: (ctx, input) => markMemberPaid(ctx, input),
});

export const suspend_member = tool({
  name: "suspend_member",
  title: "Suspend a member",
  description:
    "Suspends a paid or pending member: their card stops verifying until reactivate_member. Fails with MEMBER_ALREADY_SUSPENDED if already suspended. Returns the updated member.",
  input: MemberIdInput.extend(SuspendRequest.shape),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  output: MemberAdminItem,
  scope: suspendMember.scope,
  run: (ctx, input) => suspendMember(ctx, input),
});

export const reactivate_member = tool({
  name: "reactivate_member",
  title: "Reactivate a suspended member",
  description: "Lifts a suspension: the member returns to the status they had before. Fails with MEMBER_NOT_SUSPENDED otherwise. Returns the updated member.",
  input: MemberIdInput.extend(ReactivateRequest.shape),
  annotations: WRITE,
  output: MemberAdminItem,
  scope: reactivateMember.scope,
  run: (ctx, input) => reactivateMember(ctx, input),
});

export const cancel_subscription = tool({
  name: "cancel_subscription",
  title: "Cancel a member's automatic renewal",
  description:
    "Stops the automatic renewal of a member's subscription; the member stays active until the end of the paid period. Fails with NO_ACTIVE_SUBSCRIPTION for a one-time member or one already cancelled. Needs finances:edit.",
  input: MemberIdInput.extend(SuspendRequest.shape),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  output: MemberAdminItem,
  scope: cancelSubscription.scope,
  run: (ctx, input) => cancelSubscription(ctx, input),
});

export const send_card_email = tool({
  name: "send_card_email",
  title: "Email a member their card",
  description:
    "Emails the member, in the club's language, the link to their web membership card and its QR code. Always sends, even if sent before (use it to resend a lost card). Returns the address and card_email_sent_at; fails with CARD_EMAIL_FAILED if the mail server refuses. Needs communication:edit.",
  input: MemberIdInput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  output: CardEmailResult,
  scope: sendCardEmail.scope,
  run: (ctx, input) => sendCardEmail(ctx, input),
});

export const export_members = tool({
  name: "export_members",
  title: "Export members as CSV",
  description:
    "Exports the club's members (or only member_ids) as CSV text: id, referral_code, pass_serial_number, first_name, last_name, email, membership_start, membership_end, payment_status, payment_method, created_at, then the club's custom fields. Over 500 members it returns only the count and the export URL (download it with the same API key).",
  input: z.object({
    member_ids: z.string().max(40_000).nullish().describe("Comma-separated member ids to export; omit for every member."),
  }),
  annotations: READ_ONLY,
  output: AssistantExport,
  scope: exportMembersForAssistant.scope,
  run: (ctx, input) => exportMembersForAssistant(ctx, input),
});

export const import_members = tool({
  name: "import_members",
  title: "Import members from CSV text",
  description:
    "Creates members from CSV text with a header line (separator comma, semicolon or tab). Recognised headings: the export's columns, or first name / prénom / Vorname / nome, last name / nom / Nachname / cognome, email / e-mail / courriel, membership_end / fin abonnement / échéance / Mitglied bis / scadenza / end date (YYYY-MM-DD or DD.MM.YYYY). Members are matched by email. A tier column names each member's tier (by name); tier_id gives the others a default tier. mode create (default) leaves existing members untouched and lists them in warnings (MEMBER_EXISTS); mode update also updates them, only in the columns given, and never moves a membership end earlier unless allow_shorten. Run with dry_run true first: it lists per line what would change (changes: field, from, to) beside {created, updated, skipped, errors:[{line, detail}], warnings}; by default one faulty line means nothing is written, unless partial is true.",
  input: z.object({
    csv: z.string().min(1).max(5_000_000).describe("The CSV text, header line first."),
    mode: ImportModeField,
    allow_shorten: z.boolean().default(false).describe("With mode update: allow a membership end earlier than the stored one."),
    dry_run: z.boolean().default(false).describe("Only check and show what would change; write nothing."),
    partial: z.boolean().default(false).describe("Write the valid lines even if other lines have errors."),
    tier_id: z
      .uuid()
      .nullish()
      .describe(
        "Default tier (from list_tiers) for new members whose line names none, and with mode update for existing members without a tier. A tier column (tier / catégorie / Kategorie / categoria) names one per line, by name.",
      ),
  }),
  annotations: WRITE,
  output: ImportResult,
  scope: importMembers.scope,
  task: true,
  confirm: {
    preview: (ctx, input) => importMembers(ctx, { ...input, dry_run: true }),
    question: (ctx, _input, would) => t(ctx.locale, "CONFIRM_IMPORT_MEMBERS", { create: Number(would.created), update: Number(would.updated) }),
    needless: (input) => input.dry_run,
  },
  run: (ctx, input, progress) => importMembers(ctx, { ...input, onProgress: progress }),
});

export const get_member = tool({
  name: "get_member",
  title: "Get one member",
  description:
    "Returns one member by member_id (from list_members): names, email, status (active, expired, pending, suspended), membership dates, tier, referral_code, custom_fields. Fails with MEMBER_NOT_FOUND for an unknown or erased member.",
  input: MemberIdInput,
  annotations: READ_ONLY,
  output: MemberAdminItem,
  scope: getMember.scope,
  run: (ctx, input) => getMember(ctx, input),
});

export const update_member = tool({
  name: "update_member",
  title: "Correct a member's data",
  description:
    "Changes only the fields given: first_name, last_name, email (MEMBER_EMAIL_TAKEN if another member has it), tier_id (null removes the tier), custom_fields (merged: a key set to null is removed; null clears all), payment_method, invoice_company_name, acquisition_source, membership_end (a correction of the last valid day: give a reason too, it is kept in the history; use extend_membership to extend). Returns the updated member.",
  input: MemberIdInput.extend(MemberUpdate.shape),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: MemberAdminItem,
  scope: updateMember.scope,
  run: (ctx, input) => updateMember(ctx, input),
});

const MemberErased = z.object({ erased: z.literal(true), member_id: z.uuid() });

/** Who a member is, for the question before erasing or rejecting them. */
async function memberPreview(ctx: Ctx, member_id: string) {
  const member = await getMember(ctx, { member_id });
  return { member_id, name: `${member.first_name} ${member.last_name}`.trim(), email: member.email, status: member.status };
}

export const delete_member = tool({
  name: "delete_member",
  title: "Erase a member (GDPR)",
  description:
    "Erases a member for good (GDPR right to erasure): this cannot be undone. Names, email, custom fields, codes, wallet cards and queued mail are erased, also from their event registrations and card scans; the member leaves lists, exports and verify. Payments and amounts stay, anonymous, so the stats stay true. Confirm with the user first, and offer export_member_data if they want a copy. Returns {erased: true, member_id}.",
  input: MemberIdInput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  output: MemberErased,
  scope: eraseMember.scope,
  confirm: {
    preview: (ctx, input) => memberPreview(ctx, input.member_id),
    question: (ctx, _input, would) => t(ctx.locale, "CONFIRM_ERASE_MEMBER", would as Params),
  },
  run: async (ctx, input) => {
    await eraseMember(ctx, input);
    return { erased: true, member_id: input.member_id };
  },
});

export const member_history = tool({
  name: "member_history",
  title: "A member's history",
  description:
    "Lists every transition (created, extended, paid, suspended, reactivated...), correction and payment of a member, newest first, each with kind, statuses and end dates before/after, amount_cents, reason and actor (who did it: an admin's email and key prefix, member, or system).",
  input: MemberIdInput,
  annotations: READ_ONLY,
  output: MemberHistory,
  scope: getMemberHistory.scope,
  run: (ctx, input) => getMemberHistory(ctx, input),
});

export const export_member_data = tool({
  name: "export_member_data",
  title: "Export everything stored about a member (GDPR)",
  description:
    "Returns everything stored about one member as one JSON document, for a GDPR access or portability request: the member, its history, payments, event registrations (also those made with its email) and card scans.",
  input: MemberIdInput,
  annotations: READ_ONLY,
  output: MemberDataExport,
  scope: exportMemberData.scope,
  run: (ctx, input) => exportMemberData(ctx, input),
});

export const approve_member = tool({
  name: "approve_member",
  title: "Approve an application to join",
  description:
    "For a club in `application` mode: accepts a member whose application_status is pending_approval. With nothing to pay their membership starts today (active); otherwise they are mailed the payment step (bank transfer details). Fails with NOT_AWAITING_APPROVAL otherwise. Returns the updated member.",
  input: MemberIdInput,
  annotations: WRITE,
  output: MemberAdminItem,
  scope: approveMember.scope,
  run: (ctx, input) => approveMember(ctx, input),
});

export const reject_member = tool({
  name: "reject_member",
  title: "Reject an application to join",
  description:
    "For a club in `application` mode: turns down a member whose application_status is pending_approval. The applicant is erased for good (as delete_member) and mailed the decision: confirm with the user first. Fails with NOT_AWAITING_APPROVAL otherwise. Returns {erased: true, member_id}.",
  input: MemberIdInput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  output: MemberErased,
  scope: rejectMember.scope,
  confirm: {
    preview: (ctx, input) => memberPreview(ctx, input.member_id),
    question: (ctx, _input, would) => t(ctx.locale, "CONFIRM_REJECT_MEMBER", would as Params),
  },
  run: async (ctx, input) => {
    await rejectMember(ctx, input);
    return { erased: true, member_id: input.member_id };
  },
});
