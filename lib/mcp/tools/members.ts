// MCP tools of the members area: the same lib/ verbs and schemas as the HTTP routes, with the
// member's id as a field.
import { z } from "zod";
import { addMember, cancelSubscription, extendMembership, listMembers, markMemberPaid, reactivateMember, suspendMember } from "../../members";
import { ExtendRequest, ManualMemberCreate, MarkPaidRequest, MemberIdInput, MemberListQuery } from "../../members/schemas";
import { READ_ONLY, tool, WRITE } from "../tool";

const reason = z.string().max(1000).nullish().describe("Why (kept in the member's history).");

export const list_members = tool({
  name: "list_members",
  title: "List or search members",
  description:
    "Lists the club's members, one page at a time (total, page, limit, items). Filter by status (active, expired, pending, suspended, all), search by name, email or referral code (accents and case ignored), sort by registered, name, email, membership_end or status, dir asc or desc. Each item has its id (member_id for the other member tools), status, membership_end and referral_code.",
  input: MemberListQuery,
  annotations: READ_ONLY,
  run: (ctx, input) => listMembers(ctx, input),
});

export const add_member = tool({
  name: "add_member",
  title: "Add a member by hand",
  description:
    "Adds a member who paid outside the platform: first_name, last_name, email and membership_end (YYYY-MM-DD, last valid day) are required; the membership starts today and is marked paid. Fails with MEMBER_EMAIL_TAKEN if the email is already a member's. Returns the member with wallet_urls.web, the card link to give them.",
  input: ManualMemberCreate,
  annotations: WRITE,
  run: (ctx, input) => addMember(ctx, input),
});

export const extend_membership = tool({
  name: "extend_membership",
  title: "Extend a membership",
  description:
    "Extends a member's membership without recording a payment. Give extend_until (a date later than the current end), or extend_months (added to the end, or to today if expired), or neither for one period of the member's tier (else the club's duration). Returns the updated member.",
  input: MemberIdInput.extend(ExtendRequest.shape),
  annotations: WRITE,
  run: (ctx, input) => extendMembership(ctx, input),
});

export const mark_member_paid = tool({
  name: "mark_member_paid",
  title: "Record a member's payment",
  description:
    "Records a payment received outside the platform (bank transfer by default, or cash...) and renews the membership: a pending or expired member becomes paid with a new period from today; an active one is renewed from its end. amount_cents is integer cents. Refused for a suspended member (reactivate first). Needs finances:edit.",
  input: MemberIdInput.extend(MarkPaidRequest.shape),
  annotations: WRITE,
  run: (ctx, input) => markMemberPaid(ctx, input),
});

export const suspend_member = tool({
  name: "suspend_member",
  title: "Suspend a member",
  description:
    "Suspends a paid or pending member: their card stops verifying until reactivate_member. Fails with MEMBER_ALREADY_SUSPENDED if already suspended. Returns the updated member.",
  input: MemberIdInput.extend({ reason }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  run: (ctx, input) => suspendMember(ctx, input),
});

export const reactivate_member = tool({
  name: "reactivate_member",
  title: "Reactivate a suspended member",
  description: "Lifts a suspension: the member returns to the status they had before. Fails with MEMBER_NOT_SUSPENDED otherwise. Returns the updated member.",
  input: MemberIdInput.extend({ reason }),
  annotations: WRITE,
  run: (ctx, input) => reactivateMember(ctx, input),
});

export const cancel_subscription = tool({
  name: "cancel_subscription",
  title: "Cancel a member's automatic renewal",
  description:
    "Stops the automatic renewal of a member's subscription; the member stays active until the end of the paid period. Fails with NO_ACTIVE_SUBSCRIPTION for a one-time member or one already cancelled. Needs finances:edit.",
  input: MemberIdInput.extend({ reason }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  run: (ctx, input) => cancelSubscription(ctx, input),
});
