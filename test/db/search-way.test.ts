// db/search `searchWay`: which way a search's count and page read on SQLite, from the FTS5 index's
// matches, the club's size and the search's count (costs measured at 100,000 members: search15 in
// docs/benchmarks.md). Every way gives the same answer (test/routes/members-search-ways.test.ts);
// these pin the choice where the wrong one costs tens of milliseconds.
import { describe, expect, it } from "bun:test";
import { searchWay } from "../../db/search";

const members = 100_000;
const page = (matches: number, order: "covered" | "indexed" | "none") => searchWay({ matches, members, total: matches, wanted: 50, order });

describe("searchWay", () => {
  it("scans without an index to choose", () => {
    expect(searchWay({ matches: null, members })).toBe("scan");
    expect(searchWay({ matches: null, members, total: 3, wanted: 50, order: "covered" })).toBe("scan");
  });

  it("pages a term one member in ten holds by a scan of the list's index, in registration and name order", () => {
    // "zolc" at 100,000: the scan 0.3 ms (registration) and 18 ms (name), the FTS5 index 23-39 ms.
    expect(page(10_000, "covered")).toBe("scan");
  });

  it("pages a term one member in a hundred holds through the FTS5 index, as its holders may lie far in the order", () => {
    // "zolc1" at 100,000 (the oldest members): the index 3.7 ms, the scan 22 ms.
    expect(page(1_111, "covered")).toBe("index");
    expect(page(111, "covered")).toBe("index");
  });

  it("weighs a scan that reads each member's row (email, membership end) above one testing the index", () => {
    // 5,000 matches: a covered scan reads ~4,000 entries (1.2 ms), an uncovered one as many rows
    // (8 ms), the index 15 ms; at 2,500 the uncovered scan reads twice as many: the index wins.
    expect(page(5_000, "covered")).toBe("scan");
    expect(page(2_500, "covered")).toBe("scan");
    expect(page(2_500, "indexed")).toBe("index");
  });

  it("sorts by status after reading every member, or every match", () => {
    expect(page(10_000, "none")).toBe("index");
    expect(page(80_000, "none")).toBe("scan");
  });

  it("counts through the FTS5 index below one member in ten, else through the list's index", () => {
    expect(searchWay({ matches: 5_000, members })).toBe("index");
    expect(searchWay({ matches: 20_000, members })).toBe("scan");
  });
});
