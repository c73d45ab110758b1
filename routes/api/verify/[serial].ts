// GET /api/verify/[serial] — verify a scanned membership card (and record the scan)
import { CardVerification, VerifyInput, verifyCard } from "../../../lib/cards";
import { route } from "../../../server/route";

export const GET = route({
  summary: "Verify a scanned card",
  operationId: "verifyCard",
  description:
    "`serial` is what the card's QR code carries (the member's referral code, in any letter case) or the pass serial number. `valid` is true only for an `active` member; a code matching no member of the caller's club answers `status: unknown` with `member: null`. Every call records a scan, read back by the attendance route.",
  tags: ["cards"],
  stable: true,
  scope: verifyCard.scope,
  params: VerifyInput,
  response: CardVerification,
  handler: ({ ctx, params }) => verifyCard(ctx, params),
});
