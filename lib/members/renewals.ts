// Who has not renewed: members whose membership ended lately, and paid members whose membership
// ends soon and will not renew by itself. Read by the MCP prompt `not_renewed`, so that an
// assistant starts from the same list the club would draw.
import { and, asc, count, desc, eq, gte, isNotNull, lte, ne, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import { members } from "../../db/schema";
import { verb } from "../context";
import type { Ctx } from "../context";
import { addDays, selectItems, toItem } from "./internal";
import type { MemberAdminItem } from "./schemas";
import { statusDay, statusWhere, todayUtc } from "./status";
import { clubGraceDays } from "../clubs/internal";

export const NotRenewedQuery = z.object({
  days: z.coerce.number().int().min(1).max(365).default(30).meta({ description: "How far back and ahead to look, in days (1..365, default 30)." }),
  limit: z.coerce.number().int().min(1).max(200).default(50).meta({ description: "At most this many members in each list (1..200, default 50)." }),
});
export type NotRenewedQuery = z.input<typeof NotRenewedQuery>;

type Group = { total: number; items: MemberAdminItem[] };
export type NotRenewed = { today: string; from: string; to: string; ended: Group; ending: Group };

/**
 * `ended`: members whose membership ended in the last `days` days (status expired, so not
 * suspended), the latest end first. `ending`: active members whose last day falls within the next
 * `days` days, the nearest first, leaving out those on an automatic renewal still running (a
 * subscription renews them without anyone's help). Each list is cut at `limit`, with its total.
 */
export const listNotRenewed = verb("members:view", async function listNotRenewed(ctx: Ctx, input: NotRenewedQuery & { now?: Date }): Promise<NotRenewed> {
  const q = NotRenewedQuery.parse(input);
  const today = todayUtc(input.now);
  const from = addDays(today, -q.days);
  const to = addDays(today, q.days);
  const club = eq(members.club_id, ctx.clubId);
  const day = statusDay(today, await clubGraceDays(ctx.db, ctx.clubId));
  const ended = and(club, statusWhere("expired", day), gte(members.membership_end, from)) as SQL;
  const ending = and(
    club,
    statusWhere("active", day),
    lte(members.membership_end, to),
    // Not on a subscription, or one the member has turned off.
    or(ne(members.payment_mode, "subscription"), isNotNull(members.renewal_opt_out_at)),
  ) as SQL;
  const group = async (where: SQL, order: SQL[]): Promise<Group> => {
    const [{ total }] = await ctx.db.read.select({ total: count() }).from(members).where(where);
    const rows = await selectItems(ctx.db.read)
      .where(where)
      .orderBy(...order)
      .limit(q.limit);
    return { total, items: rows.map((r) => toItem(r, today)) };
  };
  return {
    today,
    from,
    to,
    ended: await group(ended, [desc(members.membership_end), asc(members.sort_name), asc(members.id)]),
    ending: await group(ending, [asc(members.membership_end), asc(members.sort_name), asc(members.id)]),
  };
});
