// What the member list keeps between requests, against the club's members version
// (member_versions: raised in the same transaction by every write to a member's row, to a tier's
// name and to the club's grace period, whoever writes: db/index.ts), and the day:
// - the count of each filter (`keptTotal`): the list's `total`, the overview's and the stats';
// - the pages last answered (`keptPage`): a page asked again while nothing it shows has changed
//   is the same answer, read once.
// - the count of each search (`keptSearch`): a number per term and filter, the most recently
//   asked kept, so that the pages of one search, or one search asked again, count once.
// - what every item shows from its club (`keptTerms`): the grace period and the tiers' names, so
//   that a search's page, read each time, does not read them each time.
// While the version and the day stand each is exact; a write or midnight makes the next request
// read again, once for all who ask meanwhile. A search's pages are not kept (too many of them):
// each is read through its index. On PostgreSQL the version itself is one read for the requests
// that ask while one is on its way (`currentVersion`).
import { count, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db";
import { members, memberVersions } from "../../db/schema";
import { sharedAnswer } from "../reply";

type Kept<T> = { version: number; day: string; value: T };

/** Per store of kept values, the reads of them on their way (`keptLatest`). */
const readings = new WeakMap<object, WeakMap<Db, Map<string, Kept<Promise<unknown>>>>>();
function readingOf(store: object): WeakMap<Db, Map<string, Kept<Promise<unknown>>>> {
  let byDb = readings.get(store);
  if (!byDb) {
    byDb = new WeakMap();
    readings.set(store, byDb);
  }
  return byDb;
}

/** Per database (tests and benchmarks open several in one process), per club and key. */
const totals = new WeakMap<Db, Map<string, Kept<number>>>();
const pages = new WeakMap<Db, Map<string, Kept<unknown>>>();
const searches = new WeakMap<Db, Map<string, Kept<unknown>>>();
const terms = new WeakMap<Db, Map<string, Kept<unknown>>>();

/**
 * Pages kept per database, the least recently asked dropped first: 64 pages of 50 items took 6.1
 * MB of heap (measured at 10,000 members), plus their JSON once sent (about 47 KB each). The
 * pages people ask again (the first of each sort, the one a spreadsheet or a dashboard polls) stay.
 */
export const KEPT_PAGES = 64;

/**
 * Search counts kept per database, the least recently asked dropped first: a few numbers each, so
 * many more than pages (a person typing a name asks one per keystroke).
 */
export const KEPT_SEARCHES = 512;

/** Clubs whose terms (`keptTerms`) are kept per database, the least recently asked dropped first: a host's busiest. */
export const KEPT_TERMS = 256;

// An in-memory database reads through its writer, where a transaction not yet committed (and
// perhaps rolled back) is visible: nothing is kept there.
function keptIn<T>(store: WeakMap<Db, Map<string, Kept<T>>>, db: Db): Map<string, Kept<T>> | null {
  return db.path === ":memory:" ? null : mapIn(store, db);
}

/** The map `outer` holds for `db`, made at first use. */
function mapIn<V>(outer: WeakMap<Db, Map<string, V>>, db: Db): Map<string, V> {
  let inner = outer.get(db);
  if (!inner) {
    inner = new Map();
    outer.set(db, inner);
  }
  return inner;
}

const versionOf = (db: Db) =>
  db.prepareRead("members.version", (q) =>
    q
      // The sum of the club's stripes (db/schema.ts memberVersions): any write raises it.
      .select({ version: sql<number>`coalesce(sum(${memberVersions.version}), 0)` })
      .from(memberVersions)
      .where(eq(memberVersions.club_id, sql.placeholder("club"))),
  );

async function readVersion(db: Db, clubId: string): Promise<number> {
  const [row] = await versionOf(db).execute({ club: clubId });
  return row?.version ?? 0;
}

/** A club's version read on its way to PostgreSQL, and the one that follows it (shared by whoever asks meanwhile). */
type VersionReads = { current: Promise<number> | null; next: Promise<number> | null };
const versionReads = new WeakMap<Db, Map<string, VersionReads>>();

/**
 * The club's members version, read after the call: for a request that asks several kept values,
 * read once and handed to each (`keptSearch`, `keptTerms`), as each would read it first.
 */
export function membersVersion(db: Db, clubId: string): Promise<number> {
  return currentVersion(db, clubId);
}

/**
 * The club's members version, read after the call. On PostgreSQL each read is a round trip, and
 * every kept page and total asks one: the requests that ask while a read is on its way wait for
 * the next read, one for all of them, which starts once that one is back. A read begun before a
 * request arrived is never its answer (a write committed just before the request could be missing
 * from it); the next one begins after, so it sees every write committed before the request.
 * SQLite's read is a call in the process, answered at once: read each time.
 */
function currentVersion(db: Db, clubId: string): Promise<number> {
  if (db.engine !== "postgres") return readVersion(db, clubId);
  const byClub = mapIn(versionReads, db);
  let reads = byClub.get(clubId);
  if (!reads) {
    reads = { current: null, next: null };
    byClub.set(clubId, reads);
  }
  const r = reads;
  const start = (): Promise<number> => {
    const read = readVersion(db, clubId).finally(() => {
      if (r.current !== read) return;
      r.current = null;
      if (!r.next) byClub.delete(clubId); // a host's many clubs: none kept while nobody reads
    });
    r.current = read;
    return read;
  };
  if (!r.current) return start();
  if (!r.next) {
    const next = r.current
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        r.next = null;
        return start();
      });
    r.next = next;
  }
  return r.next;
}

/**
 * The number of the club's members matching `where` (built with the placeholders `club` and
 * `day`), `key` naming that filter. `day` is the day the filter's derived status depends on
 * ("" when it does not). The count, when taken, is read with the version in ONE statement: the
 * same snapshot, so the pair is true together.
 */
export async function keptTotal(db: Db, clubId: string, key: string, day: string, where: () => SQL | undefined): Promise<number> {
  const byKey = keptIn(totals, db);
  const id = `${clubId}:${key}`;
  const known = byKey?.get(id);
  if (known && known.day === day && (await currentVersion(db, clubId)) === known.version) return known.value;
  const [fresh] = await db
    .prepareRead(`members.total:${key}`, (q) =>
      q
        .select({
          total: count(),
          version: sql<number>`coalesce((select sum(${memberVersions.version}) from ${memberVersions} where ${memberVersions.club_id} = ${sql.placeholder("club")}), 0)`,
        })
        .from(members)
        .where(where()),
    )
    .execute({ club: clubId, day });
  byKey?.set(id, { version: fresh.version, day, value: fresh.total });
  return fresh.total;
}

/**
 * The answer `read` gives for the page `key` of the club's list on `day` (the day every item's
 * derived status is computed for), read again only when the club's members version has moved.
 * The answer is shared by every caller that asks for it (lib/reply `sharedAnswer`): nobody
 * changes it. `read` is handed the version it is kept under (none where nothing is kept).
 */
export function keptPage<T extends object>(db: Db, clubId: string, key: string, day: string, read: (version?: number) => Promise<T>): Promise<T> {
  return keptLatest(pages, KEPT_PAGES, db, clubId, key, day, async (version) => sharedAnswer(await read(version)));
}

/**
 * What `read` counts for the search `key` (its term and filter) of the club on `day` ("" when the
 * filter does not depend on it), counted again only when the club's members version has moved.
 * `version`: the club's, read by the caller before (`membersVersion`); read here when not given.
 */
export function keptSearch<T>(db: Db, clubId: string, key: string, day: string, read: () => Promise<T>, version?: number): Promise<T> {
  return keptLatest(searches, KEPT_SEARCHES, db, clubId, key, day, read, version);
}

/**
 * What `read` gives of the club that its members' items show (lib/members/internal `listTerms`:
 * the grace period, the tiers' names), read again only when the club's members version has moved:
 * a change of either raises it (db/sqlite.ts `memberVersionTriggers`, pg-migrations 0001).
 * `version` as for keptSearch.
 */
export function keptTerms<T>(db: Db, clubId: string, read: () => Promise<T>, version?: number): Promise<T> {
  return keptLatest(terms, KEPT_TERMS, db, clubId, "terms", "", read, version);
}

/**
 * `read`'s value for `key`, kept in `store` (at most `most` keys, the least recently asked dropped
 * first) with the club's members version and `day`; `read` is handed that version.
 *
 * The version is read BEFORE the value and the value kept under it: what was read is that
 * version's or a later one's. A later one's is never answered from here (the version has moved
 * on: the next request reads again), so what is answered is always what a read would give.
 * `known`: the version as the caller read it before this call (`membersVersion`), for the same.
 */
async function keptLatest<T>(
  store: WeakMap<Db, Map<string, Kept<unknown>>>,
  most: number,
  db: Db,
  clubId: string,
  key: string,
  day: string,
  read: (version?: number) => Promise<T>,
  known?: number,
): Promise<T> {
  const byKey = keptIn(store, db) as Map<string, Kept<T>> | null;
  if (!byKey) return read(known);
  const id = `${clubId}:${key}`;
  const version = known ?? (await currentVersion(db, clubId));
  const kept = byKey.get(id);
  if (kept && kept.day === day && kept.version === version) {
    byKey.delete(id);
    byKey.set(id, kept); // the most recently asked last
    return kept.value;
  }
  // A read of the same version and day on its way serves this caller too (it began after that
  // version was read, so it holds every write the version counts): a burst of requests after a
  // write reads the page once.
  const reading = mapIn(readingOf(store), db);
  const pending = reading.get(id) as Kept<Promise<T>> | undefined;
  if (pending && pending.day === day && pending.version === version) return pending.value;
  const value = read(version);
  const mine = { version, day, value };
  reading.set(id, mine);
  try {
    const done = await value;
    const now = byKey.get(id);
    // A slower read of an older version does not replace a newer one kept meanwhile.
    if (!now || now.version <= version) {
      byKey.delete(id);
      byKey.set(id, { version, day, value: done });
      if (byKey.size > most) byKey.delete(byKey.keys().next().value as string);
    }
    return done;
  } finally {
    if (reading.get(id) === mine) reading.delete(id);
  }
}
