// The member search's index, whichever engine holds it (issue 26 item 6): SQLite's FTS5 trigram
// table `members_search` (migration 0032, kept in step with members.search_text by triggers), or
// PostgreSQL's pg_trgm index on members.search_text (pg-migrations 0003), which serves the LIKE
// itself. A term shorter than a trigram has no index on either: the LIKE reads the club's members.
import { type SQL, sql } from "drizzle-orm";
import type { Db } from "./index";
import { members } from "./schema";

/** The shortest search term an index serves (a trigram). */
const INDEXED_SEARCH_MIN = 3;

/** The FTS5 query of a folded term: one phrase (a substring, for the trigram tokenizer), its quotes doubled. */
export function searchMatch(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/**
 * How many members (of every club) SQLite's FTS5 index finds for `term` (folded): its doclists
 * alone, no member row read (0.1 ms for 1,000 matches). Null where no index counts them:
 * PostgreSQL, whose planner uses its trigram index for the LIKE by itself, or a term shorter than
 * a trigram.
 */
export async function indexedMatches(db: Db, term: string): Promise<number | null> {
  if (db.engine === "postgres" || term.length < INDEXED_SEARCH_MIN) return null;
  const [{ n }] = await db.query<{ n: number }>("SELECT count(*) AS n FROM members_search WHERE members_search MATCH ?", [searchMatch(term)]);
  return n;
}

/**
 * Whether a member's search text holds the term: the rule every way applies to the rows it reads.
 * `term` is the folded term, `pattern` the same as a LIKE pattern (`%term%`, its `\`, `%` and `_`
 * escaped). SQLite compares with instr (0.5 µs a member, where its LIKE took 1.2 µs: 500 members
 * tested for a page of a term one member in ten holds); the same answer as LIKE, as both the
 * stored text and the term are folded to lower case (LIKE's only difference, ASCII case, never
 * shows). PostgreSQL keeps the LIKE, which its trigram index serves.
 */
export function searchTextHolds(db: Db, term: unknown, pattern: unknown): SQL {
  return db.engine === "postgres" ? sql`${members.search_text} like ${pattern} escape '\\'` : sql`instr(${members.search_text}, ${term}) > 0`;
}

/**
 * The club's members whose search text holds the term (`match`'s value: `searchMatch(term)`),
 * read from SQLite's FTS5 index: the club's condition written `+club_id` so that SQLite starts
 * from the index's matches rather than from the club's members (where it would check each one
 * against the list of matches). Only where `searchWay` says "index".
 */
export function membersOfClubMatching(club: unknown, match: unknown): SQL {
  return sql`+${members.club_id} = ${club} and ${members}.rowid in (select rowid from members_search where members_search match ${match})`;
}

/**
 * The two ways of reading a search on SQLite: "scan" reads the club's members (for a page, in the
 * list's order, each one's search text tested, until the page is full; for a count, the entries
 * of the list's registration index, which carries the search text), "index" reads the FTS5
 * index's matches and each one's member row.
 */
export type SearchWay = "scan" | "index";

/**
 * Microseconds of CPU a way spends, measured at 100,000 members (docs/benchmarks.md, search15):
 * `entry`, a member tested in an index that carries the search text (the list's registration and
 * name indexes: 0.27-0.32 µs, for a page or a count); `randomRow`, a member whose row a scan reads
 * at random to test it (the email and membership-end orders, or every member for the status sort:
 * 1.8-2 µs); `match`, a match of the FTS5 index, its row read at random and sorted (2.2-3.8 µs);
 * `shownRow`, a row a scan's page shows, read and handed over (3.5 µs).
 *
 * `unevenScan`: a scan's estimate assumes the matches spread evenly over the list's order; a
 * term held only by members that lie together far from the order's start (the oldest members, or
 * a name in the name order) is read to there, up to every member (30 ms at 100,000), where the
 * index costs what its matches do whatever their place. Four keeps a term one member in a hundred
 * holds (1,111 at 100,000: the index 3-5 ms, a scan 0.3 ms at the newest and 26 ms at the oldest)
 * on the index, and one in ten ("zolc": a scan 0.3 ms, the index 30 ms) on the scan.
 */
const COST = { entry: 0.3, randomRow: 2, match: 3, shownRow: 3.5, unevenScan: 4 };

/**
 * How a scan reads the club's members in the list's order: through an index that carries the
 * search text (registration, name: each member tested in the index, only the rows shown read),
 * through one that does not (each member's row read to test it), or all of them before a sort.
 */
export type ScanOrder = "covered" | "indexed" | "none";

/**
 * The faster way for a search's count (no `wanted`) or page (`wanted`: its rows up to the page's
 * end, at most the count). `matches`: the FTS5 index's (indexedMatches; null: no index, "scan");
 * `members`: the club's; `total`: the search's count in the club with the list's filters. A scan
 * for a page reads about `wanted` × `members` / `total` members.
 */
export function searchWay(e: { matches: number | null; members: number; total?: number; wanted?: number; order?: ScanOrder }): SearchWay {
  if (e.matches === null) return "scan";
  let scan: number;
  if (e.wanted === undefined) scan = e.members * COST.entry;
  else if (e.order === "none") scan = e.members * COST.randomRow;
  else {
    const read = Math.min(e.members, ((e.wanted * e.members) / Math.max(e.total ?? 0, 1)) * COST.unevenScan);
    scan = e.order === "covered" ? read * COST.entry + e.wanted * COST.shownRow : read * COST.randomRow;
  }
  return e.matches * COST.match < scan ? "index" : "scan";
}
