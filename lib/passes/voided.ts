// The wallet copies of an erased member's card (issue 12, GDPR art. 17; docs/decisions.md,
// "Voided passes"). The server side of the card dies with the member's row, but a phone keeps its
// copy, name and QR code included, until it is told otherwise. So the erasure, in its own
// transaction, leaves a tombstone of the Apple pass (serial, club, token hash, time: nothing
// about whom it was), moves the pass's device registrations beside it for the one push, queues
// that push and the Google object's voiding, and queues the tombstone's own deletion
// VOIDED_KEEP_DAYS later. The PassKit web service (lib/cards/apple/web-service) answers a
// voided serial with a void pass that shows only the club.
import { and, eq, lt } from "drizzle-orm";
import type { Queryable } from "../../db";
import { appleRegistrations, voidedPassDevices, voidedPasses } from "../../db/schema";
import type { WalletConfig } from "../config";
import { nowIso, sha256Hex } from "../ids";
import { completeJobIn, enqueueJob, type JobKind } from "../jobs";
import { APPLE_PUSH, GOOGLE_OBJECT_UPDATE } from ".";

export const VOIDED_PASS_FORGET = "voided_pass_forget";

/**
 * Days a tombstone is kept: a phone that is off, or offline abroad, gets the push when it is back
 * (APNs keeps the last one for a while) and then asks for the pass; after that, nobody will.
 */
export const VOIDED_KEEP_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/** What of the erased member the voiding needs (read before the row goes). */
export type ErasedCard = { id: string; pass_serial_number: string; pass_auth_token: string | null; has_wallet_b: boolean };

/**
 * Voids the wallet copies of `member`'s card, inside the erasure's transaction `t`, before the
 * member's row and device registrations are deleted (this takes the registrations over).
 */
export async function voidWalletPasses(t: Queryable, clubId: string, wallets: WalletConfig, member: ErasedCard): Promise<void> {
  const now = nowIso();
  const serial = member.pass_serial_number;
  const devices = await t
    .select({ device: appleRegistrations.device_library_id, pass_type_id: appleRegistrations.pass_type_id, push_token: appleRegistrations.push_token })
    .from(appleRegistrations)
    .where(and(eq(appleRegistrations.club_id, clubId), eq(appleRegistrations.member_id, member.id)));
  // No token: the Apple pass was never downloaded, so no phone can ask for it.
  if (member.pass_auth_token) {
    await t.insert(voidedPasses).values({ serial, club_id: clubId, auth_token_hash: sha256Hex(member.pass_auth_token), voided_at: now });
    for (const d of devices)
      await t
        .insert(voidedPassDevices)
        .values({ serial, device_library_id: d.device, pass_type_id: d.pass_type_id, push_token: d.push_token })
        .onConflictDoNothing();
    // One push per phone (push token), as the update fan-out sends them.
    const tokens = new Map(devices.map((d) => [`${d.pass_type_id} ${d.push_token}`, d]));
    if (wallets.apple)
      for (const d of tokens.values()) await enqueueJob(t, { clubId, kind: APPLE_PUSH, payload: { push_token: d.push_token, pass_type_id: d.pass_type_id } });
    await enqueueJob(t, {
      clubId,
      kind: VOIDED_PASS_FORGET,
      payload: { serial },
      runAfter: new Date(Date.parse(now) + VOIDED_KEEP_DAYS * DAY_MS).toISOString(),
    });
  }
  // The Google object is written with the club's class only; the member's id orders it after
  // any update of the card still queued (lib/cards/google).
  if (wallets.google && member.has_wallet_b)
    await enqueueJob(t, { clubId, kind: GOOGLE_OBJECT_UPDATE, payload: { member_id: member.id, voided_serial: serial } });
}

/** Deletes the tombstone (its devices go with it) once kept VOIDED_KEEP_DAYS; older ones too. */
export const voidedPassForgetJob: JobKind = {
  run: (db, job, env) =>
    db.tx(async (t) => {
      const before = new Date(env.now.getTime() - VOIDED_KEEP_DAYS * DAY_MS).toISOString();
      const gone = await t
        .delete(voidedPasses)
        .where(and(eq(voidedPasses.club_id, job.club_id), eq(voidedPasses.serial, String(job.payload.serial ?? ""))))
        .returning({ serial: voidedPasses.serial });
      const older = await t.delete(voidedPasses).where(lt(voidedPasses.voided_at, before)).returning({ serial: voidedPasses.serial });
      const outcome = `${gone.length + older.length} voided passes forgotten`;
      await completeJobIn(t, job, outcome);
      return outcome;
    }),
};
