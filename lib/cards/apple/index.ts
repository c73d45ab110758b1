// The Apple Wallet channel (lib/cards/channels): where a member adds the pass (its `.pkpass`
// download) and, when passes change, one APNs push job per device holding them. The pass
// itself is in ./pass, the PassKit web service the phones call in ./web-service, the pushes in
// ./apns.
import { and, eq, inArray } from "drizzle-orm";
import { appleRegistrations } from "../../../db/schema";
import { enqueueJob } from "../../jobs";
import type { WalletChannel } from "../channels";
import { APPLE_PUSH } from "./apns";

/** The public download address of a member's pass (the serial is its secret). */

export const appleChannel: WalletChannel = {
  name: "apple",
  configured: (wallets) => wallets.apple !== null,
  async fanOut(t, clubId, memberIds, env) {
    const apple = env.config.wallets.apple;
    if (!apple || (memberIds && memberIds.length === 0)) return 0;
    const scope = [eq(appleRegistrations.club_id, clubId), eq(appleRegistrations.pass_type_id, apple.passTypeId)];
    if (memberIds) scope.push(inArray(appleRegistrations.member_id, memberIds));
    // A device holding several changed passes needs one push: it then asks which ones changed.
    const tokens = await t
      .selectDistinct({ push_token: appleRegistrations.push_token })
      .from(appleRegistrations)
      .where(and(...scope));
    for (const { push_token } of tokens) {
      await enqueueJob(t, { clubId, kind: APPLE_PUSH, payload: { push_token, pass_type_id: apple.passTypeId } });
    }
    return tokens.length;
  },
};
