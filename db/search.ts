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
 * Microseconds per member a way reads, measured at 100,000 members (docs/decisions.md, search31):
 * a member row read at random (the index's matches, or a scan in an order other than the rows'
 * own), one read in registration order (the rows lie mostly in that order: a page holds several),
 * an entry of the index of club and search text (a count; now the registration index, which carries
 * the text). A scan's estimate counts twice: it assumes the matches spread evenly over the list's
 * order, and a term of the oldest members' only is not. Measured before the registration index
 * carried the search text (docs/decisions.md, search14): a scan in that order now tests each
 * member in the index and reads only the rows it shows, so `storedRow` overstates it.
 */
const COST = { randomRow: 10, storedRow: 2, entry: 0.4, unevenScan: 2 };

/** How a scan reads the club's members in the list's order: by registration (the rows' own order), by another index, or all of them before a sort. */
export type ScanOrder = "stored" | "indexed" | "none";

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
    const rows = Math.min(e.members, (e.wanted * e.members) / Math.max(e.total ?? 0, 1));
    scan = rows * (e.order === "stored" ? COST.storedRow : COST.randomRow) * COST.unevenScan;
  }
  return e.matches * COST.randomRow < scan ? "index" : "scan";
}
