// A card installed in a wallet (docs/decisions.md, "Apple Wallet" and "Google Wallet"): the
// member's flag for that wallet is set, and `card_installed_at` records the first install,
// whichever wallet came first. One rule for both wallets, applied inside the caller's
// transaction on the row as it is then (never from a read made before), so an install time
// already written by the other wallet is never overwritten.
import { eq, sql } from "drizzle-orm";
import type { Queryable } from "../../db";
import { members } from "../../db/schema";

export type Wallet = "apple" | "google";

const FLAG = { apple: "has_wallet_a", google: "has_wallet_b" } as const;

/** Marks the card of `memberId` as installed in `wallet` at `now` (ISO), inside `t`. */
export async function markCardInstalled(t: Queryable, memberId: string, wallet: Wallet, now: string): Promise<void> {
  await t
    .update(members)
    .set({ [FLAG[wallet]]: true, card_installed_at: sql`coalesce(${members.card_installed_at}, ${now})` })
    .where(eq(members.id, memberId));
}
