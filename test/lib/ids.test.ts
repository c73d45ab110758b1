// Keys that grow at the end of their index (issue 31, import18): the clock first, random after.
import { describe, expect, it } from "bun:test";
import { hourLedReadableCode, timeOrderedBase62 } from "../../lib/ids";

describe("timeOrderedBase62", () => {
  it("sorts a later millisecond after an earlier one, across the base's carries", () => {
    const times = [0, 1, 61, 62, 63, 3843, 3844, 1_700_000_000_000, 1_800_000_000_000, 1_800_000_000_061, 1_800_000_000_062, 62 ** 8 - 1];
    const keys = times.map((t) => timeOrderedBase62(24, t));
    for (let i = 1; i < keys.length; i++) expect(keys[i - 1] < keys[i]).toBe(true);
  });

  it("keeps the rest random: base62 of the length asked, no two alike within one millisecond", () => {
    const now = Date.now();
    const keys = Array.from({ length: 1000 }, () => timeOrderedBase62(24, now));
    for (const k of keys) expect(k).toMatch(/^[0-9A-Za-z]{24}$/);
    expect(new Set(keys.map((k) => k.slice(0, 8))).size).toBe(1);
    expect(new Set(keys).size).toBe(1000);
  });
});

describe("hourLedReadableCode", () => {
  it("leads with the hour, round the 25 readable characters, the rest random", () => {
    const hour = 3_600_000;
    const at = 1_800_000_000_000;
    const a = Array.from({ length: 200 }, () => hourLedReadableCode(8, at));
    expect(new Set(a.map((c) => c[0])).size).toBe(1);
    expect(new Set(a).size).toBe(200);
    for (const c of a) expect(c).toMatch(/^[3467ACDEFGHJKMNPQRTUVWXY9]{8}$/);
    // The next hour leads with another character; 25 hours on, with the same again.
    expect(hourLedReadableCode(8, at + hour)[0]).not.toBe(a[0][0]);
    expect(hourLedReadableCode(8, at + 25 * hour)[0]).toBe(a[0][0]);
    const firsts = new Set(Array.from({ length: 25 }, (_, i) => hourLedReadableCode(8, at + i * hour)[0]));
    expect(firsts.size).toBe(25);
  });
});
