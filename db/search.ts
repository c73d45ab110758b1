// The member search's index, whichever engine holds it (issue 26 item 6): SQLite's FTS5 trigram
// table `members_search` (migration 0032, kept in step with members.search_text by triggers), or
// PostgreSQL's pg_trgm index on members.search_text (pg-migrations 0003), which serves the LIKE
// itself. A term shorter than a trigram has no index on either: the LIKE reads the club's members.
import { type SQL, sql } from "drizzle-orm";
import type { Db } from "./index";
import { members } from "./schema";

/** The shortest search term an index serves (a trigram). */
const INDEXED_SEARCH_MIN = 3;
/**
 * Up to this many matches (in every club) the list reads them from the FTS5 index, one member
 * row each (~5 µs a match); beyond, its scan of the club's search index is the faster way (it
 * stops at a page's worth in sort order): measured at 100,000 members, a term of no match took
 * 85 ms by the scan and under 2 ms by the index, a term of 10,000 matches 20 ms by the scan and
 * 40-80 ms by the index.
 */
const INDEX_DRIVES_UP_TO = 2_000;

/** The FTS5 query of a folded term: one phrase (a substring, for the trigram tokenizer), its quotes doubled. */
export function searchMatch(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/**
 * Whether the list finds the members holding `term` (folded) faster from SQLite's FTS5 index
 * than by its scan: a count of the index's matches (1-4 ms at 100,000 members) decides. False on
 * PostgreSQL, whose planner uses the trigram index for the LIKE by itself.
 */
export async function searchByIndex(db: Db, term: string): Promise<boolean> {
  if (db.engine === "postgres" || term.length < INDEXED_SEARCH_MIN) return false;
  const [{ n }] = await db.query<{ n: number }>("SELECT count(*) AS n FROM members_search WHERE members_search MATCH ?", [searchMatch(term)]);
  return n <= INDEX_DRIVES_UP_TO;
}

/**
 * The club's members whose search text holds the term (`match`'s value: `searchMatch(term)`),
 * read from SQLite's FTS5 index: the club's condition written `+club_id` so that SQLite starts
 * from the index's few rows rather than from the club's members (where it would check each one
 * against the list of matches). Only where `searchByIndex` said so.
 */
export function membersOfClubMatching(club: unknown, match: unknown): SQL {
  return sql`+${members.club_id} = ${club} and ${members}.rowid in (select rowid from members_search where members_search match ${match})`;
}
