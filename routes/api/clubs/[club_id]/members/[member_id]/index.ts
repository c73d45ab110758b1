// GET, PATCH, DELETE /api/clubs/[club_id]/members/[member_id] — read, correct or erase one member
import { getMember, updateMember } from "../../../../../../lib/members";
import { eraseMember } from "../../../../../../lib/members/erase";
import { MemberAdminItem, MemberUpdate } from "../../../../../../lib/members/schemas";
import { route } from "../../../../../../server/route";

export const GET = route({
  summary: "Get a member",
  operationId: "getMember",
  description: "The member as in the list, with its derived status. 404 for an unknown id, another club's or an erased member's.",
  tags: ["members"],
  scope: getMember.scope,
  response: MemberAdminItem,
  handler: ({ ctx, params }) => getMember(ctx, { member_id: params.member_id }),
});

export const PATCH = route({
  summary: "Correct a member",
  operationId: "updateMember",
  description:
    "Only the fields sent change; sending the stored values changes nothing. Writes one history row naming the changed fields: `correction` when membership_end changes (a `reason` is then required, 422 REASON_REQUIRED; not before membership_start), else `update`. 409 MEMBER_EMAIL_TAKEN when another member of the club has the email; 422 for a tier that is not the club's. A change the wallet card shows (names, tier, end, custom fields) updates the member's passes.",
  tags: ["members"],
  scope: updateMember.scope,
  body: MemberUpdate,
  response: MemberAdminItem,
  errors: [409],
  handler: ({ ctx, params, body }) => updateMember(ctx, { ...body, member_id: params.member_id }),
});

export const DELETE = route({
  summary: "Erase a member (GDPR)",
  operationId: "eraseMember",
  description:
    "Erasure (GDPR art. 17); cannot be undone. The member leaves lists, exports, counts and verify (its card code answers `unknown`); its names, email, custom fields, codes, tokens, wallet registrations and queued mail are erased, and the same goes for its event registrations (also those made with its email) and card scans. Payments, registrations' amounts and history rows stay, attached to an anonymous member, so stats and accounts stay true. Take a data export first if the member asked for one. A Stripe subscription is ended at Stripe first (502 when Stripe refuses: nothing is erased); without Stripe's keys the erasure goes ahead and the subscription is ended once they are set again, a renewal charged meanwhile refunded.",
  tags: ["members"],
  scope: eraseMember.scope,
  status: 204,
  handler: async ({ ctx, params }) => {
    await eraseMember(ctx, { member_id: params.member_id });
  },
});
