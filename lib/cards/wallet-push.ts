// The wallet-pass update job (SPEC: a change of `card_custom_link_url` pushes an update to all
// active wallet passes, in the background). Until wallet passes exist (cards issue) there is no
// device to reach: the job records the push time so the club sees it ran.
import { eq } from "drizzle-orm";
import { clubs } from "../../db/schema";
import { nowIso } from "../ids";
import { registerJobHandler } from "../jobs";

export const WALLET_PUSH = "wallet_push";

registerJobHandler(WALLET_PUSH, async (db, job) => {
  await db.tx((t) => t.update(clubs).set({ last_wallet_push_at: nowIso() } as never).where(eq(clubs.id, job.club_id)));
});
