// What a member's device registrations mean for the member: `has_wallet_a` holds while at least
// one device keeps the pass (written in docs/decisions.md, "Apple Wallet").
import { count, eq } from "drizzle-orm";
import type { Queryable } from "../../../db";
import { appleRegistrations, members } from "../../../db/schema";

/** Sets `has_wallet_a` of `memberIds` from whether any device still holds their pass. */
export async function refreshHasWallet(t: Queryable, memberIds: string[]): Promise<void> {
  for (const id of new Set(memberIds)) {
    const [{ n }] = await t.select({ n: count() }).from(appleRegistrations).where(eq(appleRegistrations.member_id, id));
    await t
      .update(members)
      .set({ has_wallet_a: n > 0 })
      .where(eq(members.id, id));
  }
}
