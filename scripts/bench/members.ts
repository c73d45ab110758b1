// The member list, GET /api/clubs/<club_id>/members, over 10,000 and 100,000 members: a page of
// 50 with its `total`, in the default sort (registered, newest first), by name, and with a search.
// Ours (the real server) against, in the same rounds, scripts/bench/baseline-members.ts running the
// same SQL by hand, the same script as a bare page (no key, count or audit), and our own auth/me.
import { join } from "node:path";
import { KEPT_PAGES } from "../../lib/members/kept";
import { type Benchmark, type ConfigName, cycleScript, expectJson, loadCase, type Measurement } from "./common";
import { type Dataset, dataset } from "./datasets";

/** Matches the family name "Żółć" (one member in ten) with its accents left out, as people type it. */
const SEARCH = "zolc";

/** Pages asked in turn by the "pages" case: more than are kept, so each is read again (the list's cost without its kept pages). */
const PAGES_IN_TURN = Array.from({ length: Math.max(200, KEPT_PAGES * 3) }, (_, i) => String(i + 1));

/** A list's signature without its total (the bare page has none). */
const itemsOnly = (signature: string | null) => (signature ?? "").replace(/^total \d+, /, "");

/**
 * GET `url` (a page of the list) with `key`: the page's signature, its `total` (when `withTotal`)
 * and a hash of its 50 items' ids, statuses and tiers; throws on another answer.
 */
export async function pageSignature(url: string, key: string, what: string, withTotal = true): Promise<string> {
  const body = (await expectJson(await fetch(url, { headers: { authorization: `Bearer ${key}` } }), what)) as {
    total?: number;
    items?: { id: string; status: string; tier_name: string | null }[];
  };
  const items = body.items ?? [];
  if (items.length !== 50) throw new Error(`${what}: ${items.length} items`);
  const ids = items.map((i) => `${i.id}:${i.status}:${i.tier_name}`).join(",");
  const hash = new Bun.CryptoHasher("sha1").update(ids).digest("hex").slice(0, 12);
  return withTotal ? `total ${body.total}, items ${hash}` : `items ${hash}`;
}

/**
 * `me`: the list's floor against our auth/me; `bare`: the list's default page against the bare
 * page; `nameBare`: the page by name against it; `meBare`: our auth/me against it (DESIGN.md
 * section 24: the floor of every keyed request); `searchPage`: our search against our own list's
 * default page (section 24: search served by an index); each of the last two measured only where set.
 */
type Floors = { me: number; bare: number | null; nameBare: number | null; meBare?: number; searchPage?: number };

function membersBenchmark(count: number, label: string, floors: Floors): Benchmark {
  let ds: Dataset;
  const name = `members-${label}`;
  const n = count.toLocaleString("en");
  const lists = {
    default: { query: "", title: `list page of 50, default sort, ${n} members` },
    name: { query: "?sort=name", title: `list page of 50, sort=name, ${n} members` },
    search: { query: `?search=${SEARCH}`, title: `list page of 50, search "${SEARCH}", ${n} members` },
    pages: { query: "?page=1", title: `list pages of 50, pages 1-${PAGES_IN_TURN.length} in turn (none kept), ${n} members` },
  };
  const ratio = (value: number | null) => (value === null ? { kind: "info" as const } : { kind: "ratio-min" as const, value });
  const cases = [
    { id: "default", title: `${lists.default.title}, against the hand baseline`, target: ratio(0.6) },
    { id: "search", title: `${lists.search.title}, against the hand baseline`, target: ratio(0.6) },
    { id: "pages", title: `${lists.pages.title}, against the hand baseline`, target: ratio(0.6) },
    { id: "default-bare", title: `${lists.default.title}, against the bare page`, target: ratio(floors.bare) },
    { id: "name-bare", title: `${lists.name.title}, against the bare page`, target: ratio(floors.nameBare) },
    ...(floors.meBare === undefined
      ? []
      : [{ id: "me-bare", title: `our GET /api/auth/me, ${n} members, against the bare page of 50`, target: ratio(floors.meBare) }]),
    ...(floors.searchPage === undefined
      ? []
      : [{ id: "search-page", title: `${lists.search.title}, against our own list page of 50, default sort`, target: ratio(floors.searchPage) }]),
    { id: "default-me", title: `${lists.default.title}, against our GET /api/auth/me`, target: ratio(floors.me) },
    { id: "name-me", title: `${lists.name.title}, against our GET /api/auth/me`, target: ratio(floors.me) },
  ];
  return {
    name,
    title: `GET /api/clubs/<club_id>/members, ${n} members`,
    about: [
      `A page of 50 with \`total\` among ${n} members (60% paid, 20% pending, 20% suspended, two tiers),`,
      `in the default sort (registered, newest first), by name (\`sort=name\`), and with \`search=${SEARCH}\` (accents ignored: one member in ten).`,
      "**Ours**: the real server (key, rate limit, query validated by zod, `listMembers`: a page without a search is kept",
      "with the club's members version and the day it was read at, and sent as the JSON text it was serialized to once;",
      "the version is read on every request, so the first request after any write reads the page again: one prepared",
      "query of the item's columns, the tier and referrer names looked up, `total` kept per version and day; a search is",
      "read and counted each time; audit row group-committed). Each ours run is compared, in the same round, with three others:",
      "**hand baseline** (`baseline-members.ts`): Bun.serve + bun:sqlite, key by SHA-256, club check, the count and the",
      "page SQL run each time, the same item shape, one audit row in its own transaction (same total and ids checked);",
      "**bare page** (`baseline-members.ts` with BARE=1): Bun.serve + bun:sqlite answering the same page of 50 items of",
      "the same SQL, no key, no count, no audit (same ids checked); **auth/me**: our own `GET /api/auth/me` on the same",
      "database, the cheapest request that still looks up a key, counts the rate and writes an audit row.",
      ...(floors.meBare === undefined
        ? []
        : ["**auth/me against the bare page**: our `GET /api/auth/me` (its own run) against the same bare page: the floor of a keyed request."]),
      ...(floors.searchPage === undefined
        ? []
        : ["**search against our own page**: our search against our own list's default page (its own run, in the baseline's turn)."]),
    ],
    cases: cases.map((c) => ({ ...c, kind: "load" as const, baseline: true })),
    async prepare(env) {
      ds = await dataset({ members: count }, env.log);
    },
    async run(config: ConfigName, round, env) {
      const run = (caseId: string, path: string, o: { server?: ConfigName; bare?: boolean; me?: boolean; inTurn?: boolean } = {}) =>
        loadCase({
          bench: name,
          caseId,
          config,
          round,
          env,
          ds,
          baseline: "baseline-members.ts",
          baselineEnv: o.bare ? { BARE: "1" } : {},
          server: o.server,
          path,
          connections: env.settings.connections,
          script: o.inTurn
            ? (dir) =>
                cycleScript(join(dir, "pages.lua"), { method: "GET", items: PAGES_IN_TURN, path: (page) => `/api/clubs/${ds.clubId}/members?page=${page}` })
            : undefined,
          async check(server) {
            if (!o.me) return pageSignature(server.url + path, ds.key, `${config} GET ${path}`, !o.bare);
            await expectJson(await fetch(server.url + path, { headers: { authorization: `Bearer ${ds.key}` } }), `${config} GET ${path}`);
            return "";
          },
          rows: { audit: "SELECT count(*) AS n FROM audit_log" },
          describe: (d, requests) => `audit rows ${d.audit}/${requests} requests`,
        });
      const list = (key: keyof typeof lists) => `/api/clubs/${ds.clubId}/members${lists[key].query}`;
      const as = (m: Measurement, caseId: string, signature = m.signature) => ({ ...m, caseId, signature });
      if (config === "ours") {
        const [byDefault, byName, search] = [await run("default", list("default")), await run("name", list("name")), await run("search", list("search"))];
        return [
          byDefault,
          search,
          await run("pages", list("pages"), { inTurn: true }),
          as(byDefault, "default-bare", itemsOnly(byDefault.signature)),
          as(byName, "name-bare", itemsOnly(byName.signature)),
          as(byDefault, "default-me", ""),
          as(byName, "name-me", ""),
          ...(floors.meBare === undefined ? [] : [as(await run("me-bare", "/api/auth/me", { me: true }), "me-bare", "")]),
          ...(floors.searchPage === undefined ? [] : [as(search, "search-page", "")]),
        ];
      }
      const me = await run("default-me", "/api/auth/me", { server: "ours", me: true });
      const bare = await run("default-bare", list("default"), { bare: true });
      return [
        await run("default", list("default")),
        await run("search", list("search")),
        await run("pages", list("pages"), { inTurn: true }),
        bare,
        await run("name-bare", list("name"), { bare: true }),
        me,
        as(me, "name-me"),
        ...(floors.meBare === undefined ? [] : [as(bare, "me-bare", "")]),
        // Our own default page (its own run, in the baseline's turn) is the search's baseline.
        ...(floors.searchPage === undefined ? [] : [as(await run("search-page", list("default"), { server: "ours" }), "search-page", "")]),
      ];
    },
  };
}

// DESIGN.md section 24: auth/me and the list's page at least 0.7 of the bare page of 50.
export const members10k = membersBenchmark(10_000, "10k", { me: 0.6, bare: 0.7, nameBare: 0.3, meBare: 0.7 });
// Section 24: search at 100,000 members at least 0.3 of the list's page 1.
export const members100k = membersBenchmark(100_000, "100k", { me: 0.4, bare: null, nameBare: null, searchPage: 0.3 });
