// The wallet platforms a pass can live in. Each channel turns "these passes changed" into its own
// delivery jobs and knows the member's "add to wallet" address; lib/cards/pass-updates drives them.
import type { Queryable } from "../../db";
import type { WalletConfig } from "../config";
import type { JobEnv } from "../jobs";
import { appleChannel } from "./apple";
import { googleChannel } from "./google";

export type WalletChannel = {
  name: "apple" | "google";
  /** Whether the platform is set up in `wallets` (a channel that is not fans out to nothing). */
  configured(wallets: WalletConfig): boolean;
  /**
   * Queues, inside `t`, one delivery job per device or wallet object holding a pass of
   * `memberIds` (null: every member of the club); nothing when the platform is not configured.
   * Returns how many deliveries it queued.
   */
  fanOut(t: Queryable, clubId: string, memberIds: string[] | null, env: JobEnv): Promise<number>;
};

export const WALLET_CHANNELS: WalletChannel[] = [appleChannel, googleChannel];
