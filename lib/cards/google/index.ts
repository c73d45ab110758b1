// Google Wallet: the "save to Google Wallet" link of a member's card and the updates of the cards
// already saved. The link (GET /c/<serial>/google) redirects to Google with a signed JWT carrying
// the club's loyalty class and the member's loyalty object. When what a card shows changes,
// lib/cards/pass-updates asks this channel to fan out: one job per saved object (and one for the
// class on a club-wide change), each writing the new version through the Wallet REST API.
import { and, eq } from "drizzle-orm";
import { clubMembersIn, type Queryable } from "../../../db";
import { members } from "../../../db/schema";
import type { GoogleWalletConfig, WalletConfig } from "../../config";
import type { PublicCtx } from "../../context";
import { NotFound, ServiceUnavailable } from "../../errors";
import { enqueueJob, type JobEnv, type JobKind } from "../../jobs";
import type { WalletChannel } from "../channels";
import { markCardInstalled } from "../installs";
import { GOOGLE_OBJECT_UPDATE } from "../../passes";
import { upsertWalletResource } from "./api";
import { SAVE_URL, saveJwt } from "./jwt";
import { loadCard, loadCardClub } from "../view";
import { loyaltyClass, loyaltyObject, voidedLoyaltyObject } from "./objects";

export { GOOGLE_OBJECT_UPDATE };
export const GOOGLE_CLASS_UPDATE = "google_class_update";

/**
 * The Google address that saves the card of pass `serial` to the visitor's Google Wallet, and
 * records that the member has the Google card (`has_wallet_b`, `card_installed_at` the first time).
 * Throws NotFound `CARD_NOT_FOUND` for an unknown serial, `GOOGLE_WALLET_NOT_CONFIGURED` when the
 * service has no Google settings.
 */
export async function googleSaveUrl(ctx: PublicCtx, serial: string, now = new Date()): Promise<string> {
  const { db, baseUrl } = ctx;
  const cfg = ctx.wallets.google;
  if (!cfg) throw new NotFound("GOOGLE_WALLET_NOT_CONFIGURED");
  const data = await loadCard(db.read, { serial });
  if (!data) throw new NotFound("CARD_NOT_FOUND");
  const jwt = await saveJwt(cfg, {
    origin: baseUrl,
    loyaltyClass: loyaltyClass(cfg, data.club, baseUrl),
    loyaltyObject: loyaltyObject(cfg, data, now),
    now,
  }).catch((err) => {
    // The operator's key file is missing or broken: say so in the log, not as a 500 to the member.
    console.error(`Google Wallet: cannot sign with ${cfg.keyFile}: ${err}`);
    throw new ServiceUnavailable("WALLET_UNAVAILABLE");
  });
  // Google's own "saved" callback would need a public endpoint and Google-signed messages
  // (docs/decisions.md, "Google Wallet"): the click on our link is what we count as the install.
  if (!data.member.has_wallet_b || !data.member.card_installed_at) {
    await db.tx((t) => markCardInstalled(t, data.member.id, "google", now.toISOString()));
  }
  return `${SAVE_URL}${jwt}`;
}

/** The settings of the job's run, or null when Google Wallet has been switched off since. */
const configOf = (env: JobEnv): GoogleWalletConfig | null => env.config.wallets.google;

/** Writes one member's loyalty object as the card is now, or void once erased (lib/cards/jobs lists it). */
export const googleObjectJob: JobKind = {
  async run(db, job, env) {
    const cfg = configOf(env);
    if (!cfg) return "Google Wallet not configured: skipped";
    if (typeof job.payload.voided_serial === "string") {
      const club = await loadCardClub(db.read, job.club_id);
      if (!club) return "club gone: skipped";
      return upsertWalletResource(cfg, "loyaltyObject", voidedLoyaltyObject(cfg, club, job.payload.voided_serial) as { id: string }, job.id);
    }
    const data = await loadCard(db.read, { memberId: String(job.payload.member_id) });
    if (!data || data.member.club_id !== job.club_id) return "member gone: skipped";
    return upsertWalletResource(cfg, "loyaltyObject", loyaltyObject(cfg, data, env.now) as { id: string }, job.id);
  },
  // One wallet object (one member's card) is written by one job at a time, in order, so an older
  // version never lands after a newer one; the objects of different members are written at once.
  // An object may be written while its class is (each write carries the whole state; Google
  // shows the latest of each together).
  orderKey: (job) => `${GOOGLE_OBJECT_UPDATE}:${String(job.payload.member_id ?? "")}`,
};

/** Writes the club's loyalty class as it is now (lib/cards/jobs lists it). */
export const googleClassJob: JobKind = {
  async run(db, job, env) {
    const cfg = configOf(env);
    if (!cfg) return "Google Wallet not configured: skipped";
    const club = await loadCardClub(db.read, job.club_id);
    if (!club) return "club gone: skipped";
    return upsertWalletResource(cfg, "loyaltyClass", loyaltyClass(cfg, club, env.config.baseUrl) as { id: string }, job.id);
  },
  // The class is the club's: its updates in order too.
  orderKey: (job) => `${GOOGLE_CLASS_UPDATE}:${job.club_id}`,
};

export const googleChannel: WalletChannel = {
  name: "google",
  configured: (wallets: WalletConfig) => wallets.google !== null,

  async fanOut(t: Queryable, clubId: string, memberIds: string[] | null, env: JobEnv): Promise<number> {
    if (!configOf(env)) return 0;
    const saved = and(eq(members.club_id, clubId), eq(members.has_wallet_b, true));
    const rows = await t
      .select({ id: members.id })
      .from(members)
      .where(memberIds ? and(clubMembersIn(clubId, memberIds), eq(members.has_wallet_b, true)) : saved);
    if (!rows.length) return 0;
    // A club-wide change (name, colours, card settings) may change the class too: queued first.
    const classToo = memberIds === null;
    if (classToo) await enqueueJob(t, { clubId, kind: GOOGLE_CLASS_UPDATE, payload: {} });
    for (const row of rows) await enqueueJob(t, { clubId, kind: GOOGLE_OBJECT_UPDATE, payload: { member_id: row.id } });
    return rows.length + (classToo ? 1 : 0);
  },
};
