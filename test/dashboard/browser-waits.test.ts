// Browser tests wait with a plain `await`, never through `expect(promise).resolves` / `.rejects`.
// In Bun 1.4.5 such a matcher waits for its promise inside the setImmediate batch it was called
// from, and the immediates queued behind it in that batch wait for it (the open pull request oven-sh/bun#39103 describes and fixes it).
// In-process Playwright hands every answer over in a setImmediate (playwright-core's in-process
// connection), so the test's code runs in such a batch; the app in the same process yields with
// setImmediate too (db/sqlite.ts group commit, lib/audit's writer). A page waiting for the server
// behind such a matcher then hung until its 30 s timeout: the door test, 3 runs in 50
// (docs/decisions.md, door21).
import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Glob } from "bun";

const ROOT = join(import.meta.dir, "..");

describe("browser tests", () => {
  it("never wait through expect(...).resolves or .rejects", () => {
    const found: string[] = [];
    for (const file of new Glob("**/*.{ts,tsx}").scanSync(ROOT)) {
      const text = readFileSync(join(ROOT, file), "utf8");
      if (!/from "playwright-core"|browser-harness"/.test(text)) continue;
      text.split("\n").forEach((line, i) => {
        if (/\.(resolves|rejects)\s*\./.test(line)) found.push(`test/${file}:${i + 1}`);
      });
    }
    expect(found).toEqual([]);
  });
});
