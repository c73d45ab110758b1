// MCP tools of the cards issue: verify a scanned card, read attendance.
import { AttendanceQuery, AttendanceResponse, getAttendance } from "../../attendance";
import { CardVerification, VerifyInput, verifyCard } from "../../cards";
import { READ_ONLY, tool } from "../tool";

export const verify_card = tool({
  name: "verify_card",
  title: "Verify a membership card",
  description:
    "Checks a scanned membership card. `serial` is the code in the card's QR code (the member's referral code, any letter case) or the pass serial number. Returns valid (true only for an active member), status (active, expired, suspended, pending or unknown), the member (id, names, tier, membership_end) or null, and scanned_at. Records the scan in the club's attendance.",
  input: VerifyInput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  output: CardVerification,
  scope: verifyCard.scope,
  run: (ctx, input) => verifyCard(ctx, input),
});

export const attendance = tool({
  name: "attendance",
  title: "Attendance (card scans)",
  description:
    "Lists the club's card scans with totals. Give date (YYYY-MM-DD), or from/to (inclusive days), or period (today, week, month, year); nothing means today. Days are UTC. Returns total_scans, unique_members and up to 1000 most recent scans (member name, tier, status, scanned_at).",
  input: AttendanceQuery,
  annotations: READ_ONLY,
  output: AttendanceResponse,
  scope: getAttendance.scope,
  run: (ctx, input) => getAttendance(ctx, input),
});
