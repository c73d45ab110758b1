// The club's wall clock (lib/clubs/time-zone): a local date and time typed by an admin as the
// instant it names, and back, daylight saving included: summer and winter, the hour the clocks
// skip in spring (refused), the hour they live twice in autumn (its first).
import { describe, expect, it } from "bun:test";
import { localToUtc, utcToLocal } from "../../lib/clubs/time-zone";

describe("localToUtc", () => {
  it("takes 19:00 in Zurich as 17:00 UTC in summer (CEST, +2) and 18:00 UTC in winter (CET, +1)", () => {
    expect(localToUtc("2031-07-01T19:00", "Europe/Zurich")).toEqual({ iso: "2031-07-01T17:00:00.000Z" });
    expect(localToUtc("2031-01-15T19:00", "Europe/Zurich")).toEqual({ iso: "2031-01-15T18:00:00.000Z" });
    expect(localToUtc("2031-01-15T19:00", "Europe/London")).toEqual({ iso: "2031-01-15T19:00:00.000Z" });
  });

  it("refuses the hour the clocks skip in spring, and takes the minutes on either side of it", () => {
    // Sunday 30 March 2031: 02:00 becomes 03:00 in Zurich; 01:00 becomes 02:00 in London.
    expect(localToUtc("2031-03-30T02:00", "Europe/Zurich")).toEqual({ skipped: true });
    expect(localToUtc("2031-03-30T02:59", "Europe/Zurich")).toEqual({ skipped: true });
    expect(localToUtc("2031-03-30T01:59", "Europe/Zurich")).toEqual({ iso: "2031-03-30T00:59:00.000Z" });
    expect(localToUtc("2031-03-30T03:00", "Europe/Zurich")).toEqual({ iso: "2031-03-30T01:00:00.000Z" });
    expect(localToUtc("2031-03-30T01:30", "Europe/London")).toEqual({ skipped: true });
    expect(localToUtc("2031-03-30T02:30", "Europe/London")).toEqual({ iso: "2031-03-30T01:30:00.000Z" });
  });

  it("takes the first of the hour lived twice in autumn (still summer time)", () => {
    // Sunday 26 October 2031: 03:00 goes back to 02:00 in Zurich.
    expect(localToUtc("2031-10-26T02:30", "Europe/Zurich")).toEqual({ iso: "2031-10-26T00:30:00.000Z" });
    expect(localToUtc("2031-10-26T03:00", "Europe/Zurich")).toEqual({ iso: "2031-10-26T02:00:00.000Z" });
  });

  it("says invalid for anything else than a date and time that exist", () => {
    for (const text of ["2031-02-30T10:00", "2031-07-01", "2031-07-01T19:00:00Z", "19:00", ""])
      expect(localToUtc(text, "Europe/Zurich")).toEqual({ invalid: true });
  });
});

describe("utcToLocal", () => {
  it("shows an instant on the club's wall clock, both of autumn's doubled hours as the same local time", () => {
    expect(utcToLocal("2031-07-01T17:00:00Z", "Europe/Zurich")).toBe("2031-07-01T19:00");
    expect(utcToLocal("2031-01-15T18:00:00.000Z", "Europe/Zurich")).toBe("2031-01-15T19:00");
    expect(utcToLocal("2031-10-26T00:30:00Z", "Europe/Zurich")).toBe("2031-10-26T02:30");
    expect(utcToLocal("2031-10-26T01:30:00Z", "Europe/Zurich")).toBe("2031-10-26T02:30");
    expect(utcToLocal("not a date", "Europe/Zurich")).toBe("");
  });
});
