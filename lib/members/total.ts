// The member list's `total` without counting every member at each page: a count is kept with the
// club's members version it was taken at (member_versions, raised by every write to a member's
// row in the same transaction: db/index.ts), and, for a status filter, the day its derived
// status was computed for. While both stand it is exact; a write or midnight makes the next page
// count again. Searches are not kept (too many of them): they count through their index.
import { count, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db";
import { members, memberVersions } from "../../db/schema";

type Kept = { version: number; day: string; total: number };

/** Per database (tests and benchmarks open several in one process), per club and status. */
const kept = new WeakMap<Db, Map<string, Kept>>();

const versionOf = (db: Db) =>
  db.prepareRead("members.version", (q) =>
    q
      .select({ version: memberVersions.version })
      .from(memberVersions)
      .where(eq(memberVersions.club_id, sql.placeholder("club"))),
  );

/**
 * The number of the club's members matching `where` (built with the placeholders `club` and
 * `day`), `key` naming that filter. `day` is the day the filter's derived status depends on
 * ("" when it does not). The count, when taken, is read with the version in ONE statement: the
 * same snapshot, so the pair is true together.
 */
export async function keptTotal(db: Db, clubId: string, key: string, day: string, where: () => SQL | undefined): Promise<number> {
  // An in-memory database reads through its writer, where a transaction not yet committed (and
  // perhaps rolled back) is visible: nothing is kept there.
  const byKey = db.path === ":memory:" ? null : (kept.get(db) ?? kept.set(db, new Map()).get(db));
  const id = `${clubId}:${key}`;
  const known = byKey?.get(id);
  if (known && known.day === day) {
    const [row] = await versionOf(db).execute({ club: clubId });
    if ((row?.version ?? 0) === known.version) return known.total;
  }
  const [fresh] = await db
    .prepareRead(`members.total:${key}`, (q) =>
      q
        .select({
          total: count(),
          version: sql<number>`coalesce((select ${memberVersions.version} from ${memberVersions} where ${memberVersions.club_id} = ${sql.placeholder("club")}), 0)`,
        })
        .from(members)
        .where(where()),
    )
    .execute({ club: clubId, day });
  byKey?.set(id, { version: fresh.version, day, total: fresh.total });
  return fresh.total;
}
