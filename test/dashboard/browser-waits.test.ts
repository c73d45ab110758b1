// Tests wait with a plain `await` (test/refusal.ts `refusalOf` for a refusal), never through
// `expect(promise).resolves` / `.rejects`. In Bun 1.4.5 such a matcher waits for its promise inside
// the setImmediate batch it was called from, and the immediates queued behind it in that batch wait
// for it (the open pull request oven-sh/bun#39103 describes and fixes it). The app yields with
// setImmediate (db/sqlite.ts group commit, lib/audit's writer), and in-process Playwright hands every
// answer over in a setImmediate (playwright-core's in-process connection), so the test's code runs in
// such a batch: a page waiting for the server behind such a matcher hung until its 30 s timeout (the
// door test, 3 runs in 50: docs/decisions.md, door21). The same holds for any promise that needs one
// of the app's immediates, browser or not.
import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Glob } from "bun";

const ROOT = join(import.meta.dir, "..");

describe("tests", () => {
  it("never wait through expect(...).resolves or .rejects", () => {
    const found: string[] = [];
    for (const file of new Glob("**/*.{ts,tsx}").scanSync(ROOT)) {
      const text = readFileSync(join(ROOT, file), "utf8");
      text.split("\n").forEach((line, i) => {
        // Code, not a comment saying why (this file's own, test/refusal.ts's).
        if (/^\s*(\/\/|\*)/.test(line)) return;
        if (/\.(resolves|rejects)\s*\./.test(line)) found.push(`test/${file}:${i + 1}`);
      });
    }
    expect(found).toEqual([]);
  });
});
