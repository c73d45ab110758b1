// Apple's PassKit web service ("Wallet Web Service Reference"), which a phone calls on its own
// once a pass is in Wallet: register and unregister a device for a pass's updates, list the
// passes of a device that changed since a tag, fetch the latest pass, and send its error logs.
// No API key: a pass proves itself with `Authorization: ApplePass <authenticationToken>`, and
// each client address is rate-limited (the routes declare PASSKIT_RATE). Registrations drive
// the member's `has_wallet_a` and `card_installed_at`; their push tokens are where
// lib/cards/apple/apns sends the updates.
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { appleRegistrations, members, voidedPassDevices, voidedPasses } from "../../../db/schema";
import type { PublicCtx } from "../../context";
import { NotFound, Unauthorized } from "../../errors";
import { newId, nowIso } from "../../ids";
import type { AddressRate } from "../../ratelimit";
import type { FileReply } from "../../reply";
import { lockNamedMembers } from "../../../db/locks";
import { markCardInstalled } from "../installs";
import { refreshHasWallet } from "./registrations";
import { type CardData, loadCard, loadCardClub, MAX_SERIAL } from "../view";
import { buildPass, buildVoidedPass, hashMatches, PKPASS_TYPE, passChangedAt, requireApple, tokenMatches } from "./pass";

/** Requests a minute per client address on the PassKit routes (a phone makes a few per update). */
export const PASSKIT_RATE_PER_MINUTE = 300;

/** The one rate the PassKit routes share per client address. */
export const PASSKIT_RATE: AddressRate = { scope: "passkit", perMinute: PASSKIT_RATE_PER_MINUTE };

/**
 * What identifies a pass in a call: its type and serial, and the call's `Authorization` header
 * (`ApplePass <token>`: the pass's token).
 */
export type PassCall = { passType: string; serial: string; authorization: string | null };

/** The settings, and the pass type check (another pass type is none of ours). */
function open(ctx: PublicCtx, passType: string) {
  const apple = requireApple(ctx.wallets);
  if (passType !== apple.passTypeId) throw new NotFound("PASS_NOT_FOUND");
  return apple;
}

/**
 * The member whose pass is `serial`, when `authorization` carries that pass's token; otherwise
 * 401, for an unknown serial too (the answer says nothing about which serials exist).
 */
async function authenticate(db: Db, serial: string, authorization: string | null): Promise<CardData> {
  const found = await authenticateAny(db, serial, authorization);
  if (!("data" in found)) throw new Unauthorized("PASS_UNAUTHORIZED");
  return found.data;
}

type VoidedPass = typeof voidedPasses.$inferSelect;

/**
 * The member's pass, or the tombstone of an erased member's (lib/passes/voided) with the token
 * the device showed; 401 as `authenticate` otherwise.
 */
async function authenticateAny(db: Db, serial: string, authorization: string | null): Promise<{ data: CardData } | { voided: VoidedPass; token: string }> {
  const token = /^ApplePass\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1] ?? null;
  const data = await loadCard(db.read, { serial });
  if (data && tokenMatches(data.member, token)) return { data };
  if (!data && token && serial.length <= MAX_SERIAL) {
    const [voided] = await db.read.select().from(voidedPasses).where(eq(voidedPasses.serial, serial));
    if (voided && hashMatches(voided.auth_token_hash, token)) return { voided, token };
  }
  throw new Unauthorized("PASS_UNAUTHORIZED");
}

/**
 * Registers device `device` for the updates of pass `serial` with its `pushToken`. Answers
 * whether the registration is new (201) or was already there (200, the push token refreshed).
 * The member now has an Apple Wallet pass: `has_wallet_a`, and `card_installed_at` the first time.
 */
export async function registerDevice(ctx: PublicCtx, input: PassCall & { device: string; pushToken: string }): Promise<{ created: boolean }> {
  open(ctx, input.passType);
  const { member } = await authenticate(ctx.db, input.serial, input.authorization);
  return ctx.db.tx(async (t) => {
    // Read before the transaction: locked now (namingRead), so that the registration names a
    // member who is still there (else the pass's member went meanwhile: as for an unknown pass).
    if (!(await lockNamedMembers(t, member.club_id, [member.id])).size) throw new Unauthorized("PASS_UNAUTHORIZED");
    const now = nowIso();
    const inserted = await t
      .insert(appleRegistrations)
      .values({
        id: newId(),
        club_id: member.club_id,
        member_id: member.id,
        device_library_id: input.device,
        pass_type_id: input.passType,
        push_token: input.pushToken,
        created_at: now,
        updated_at: now,
      })
      .onConflictDoNothing()
      .returning({ id: appleRegistrations.id });
    // A device has one push token per pass type: a new one replaces it on all its passes.
    await t
      .update(appleRegistrations)
      .set({ push_token: input.pushToken, updated_at: now })
      .where(and(eq(appleRegistrations.device_library_id, input.device), eq(appleRegistrations.pass_type_id, input.passType)));
    await markCardInstalled(t, member.id, "apple", now);
    return { created: inserted.length > 0 };
  });
}

/** Forgets device `device` for pass `serial`; the member's last device gone, `has_wallet_a` is false again. */
export async function unregisterDevice(ctx: PublicCtx, input: PassCall & { device: string }): Promise<void> {
  open(ctx, input.passType);
  const found = await authenticateAny(ctx.db, input.serial, input.authorization);
  const ofDevice = (table: typeof appleRegistrations | typeof voidedPassDevices) =>
    and(eq(table.device_library_id, input.device), eq(table.pass_type_id, input.passType));
  await ctx.db.tx(async (t) => {
    if ("data" in found) {
      const { id } = found.data.member;
      await t.delete(appleRegistrations).where(and(ofDevice(appleRegistrations), eq(appleRegistrations.member_id, id)));
      await refreshHasWallet(t, [id]);
    } else {
      // A voided pass removed from Wallet: its device has nothing more to be told.
      await t.delete(voidedPassDevices).where(and(ofDevice(voidedPassDevices), eq(voidedPassDevices.serial, input.serial)));
    }
  });
}

/**
 * The serial numbers of the device's passes that changed after tag `since` (all of them without
 * a tag), with the new tag; null when none changed (204). The tag is the latest change time of
 * the device's passes, compared to the millisecond: a later change always has a later time.
 */
export async function updatedSerials(
  ctx: PublicCtx,
  input: { device: string; passType: string; since: string | undefined },
): Promise<{ serialNumbers: string[]; lastUpdated: string } | null> {
  open(ctx, input.passType);
  const rows = await ctx.db.read
    .select({ serial: members.pass_serial_number, pass_updated_at: members.pass_updated_at, created_at: members.created_at })
    .from(appleRegistrations)
    .innerJoin(members, eq(members.id, appleRegistrations.member_id))
    .where(and(eq(appleRegistrations.device_library_id, input.device), eq(appleRegistrations.pass_type_id, input.passType)));
  // A voided pass (lib/passes/voided) changed when it was voided: listed once, until the tag passes it.
  const voided = await ctx.db.read
    .select({ serial: voidedPasses.serial, pass_updated_at: voidedPasses.voided_at, created_at: voidedPasses.voided_at })
    .from(voidedPassDevices)
    .innerJoin(voidedPasses, eq(voidedPasses.serial, voidedPassDevices.serial))
    .where(and(eq(voidedPassDevices.device_library_id, input.device), eq(voidedPassDevices.pass_type_id, input.passType)));
  rows.push(...voided);
  const since = input.since ?? "";
  const changed = rows.filter((r) => passChangedAt(r) > since);
  if (!changed.length) return null;
  const lastUpdated = rows.map(passChangedAt).sort().at(-1) as string;
  return { serialNumbers: changed.map((r) => r.serial).sort(), lastUpdated };
}

const toSecond = (ms: number) => Math.floor(ms / 1000) * 1000;

/**
 * Last-Modified of a pass served at `servedAt`. HTTP dates count whole seconds, so two versions
 * in one second would share one date and a device holding the first would be told "not
 * modified" for the second. The date given is therefore never later than the start of the
 * second before the answer (a newer version can only be written after that), and a pass that
 * changed less than that long ago just gets sent again in full.
 */
export function lastModifiedFor(changedAt: string, servedAt: number): Date {
  const changed = Date.parse(changedAt);
  return new Date(Math.min(toSecond(changed + 999), toSecond(servedAt - 1000)));
}

/**
 * The pass as it is now, or an empty 304 when the device's copy (`If-Modified-Since`) is
 * current; either with its Last-Modified. 401 without the pass's token.
 */
export async function latestPass(ctx: PublicCtx, input: PassCall & { ifModifiedSince: string | null }, now = Date.now()): Promise<FileReply> {
  open(ctx, input.passType);
  const found = await authenticateAny(ctx.db, input.serial, input.authorization);
  const changedAt = "data" in found ? passChangedAt(found.data.member) : found.voided.voided_at;
  const headers = { "last-modified": lastModifiedFor(changedAt, now).toUTCString(), "cache-control": "no-store" };
  const since = input.ifModifiedSince ? Date.parse(input.ifModifiedSince) : Number.NaN;
  // A date in the future is no answer of ours: ignored (RFC 9110 section 13.1.3).
  if (!Number.isNaN(since) && since <= now && Date.parse(changedAt) <= since) return { status: 304, body: null, headers };
  if ("data" in found) return { body: await buildPass(ctx.db, ctx, found.data), contentType: PKPASS_TYPE, headers };
  const club = await loadCardClub(ctx.db.read, found.voided.club_id);
  if (!club) throw new Unauthorized("PASS_UNAUTHORIZED");
  return { body: await buildVoidedPass(ctx.db, ctx, club, input.serial, found.token), contentType: PKPASS_TYPE, headers };
}

/** Messages a device reports about our web service (bad answers, signature errors): logged, at most 20, each cut. */
export function logMessages(ctx: PublicCtx, logs: string[]): number {
  requireApple(ctx.wallets);
  const kept = logs.slice(0, 20).map((l) => l.replace(/[\r\n\t]+/g, " ").slice(0, 1000));
  for (const line of kept) console.warn(`apple wallet device log: ${line}`);
  return kept.length;
}
