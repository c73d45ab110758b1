// One error code, one status: a client that branches on `code` (an assistant, a website's form)
// must never meet the same code under two statuses. Read from the source, every refusal thrown
// with a literal code, by the class (or the status) it is thrown with.
import { describe, expect, it } from "bun:test";
import { Glob } from "bun";
import { MESSAGES } from "../../lib/i18n/messages";

const STATUS_OF: Record<string, number> = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  ValidationFailed: 422,
  RateLimited: 429,
  BadGateway: 502,
  ServiceUnavailable: 503,
};

async function thrownCodes(): Promise<Map<string, Set<string>>> {
  const seen = new Map<string, Set<string>>();
  for (const dir of ["lib", "http", "server", "app", "dashboard", "routes"]) {
    for (const file of new Glob(`${dir}/**/*.{ts,tsx}`).scanSync(".")) {
      const src = await Bun.file(file).text();
      for (const m of src.matchAll(/new (\w+)\((?:(\d{3}), )?"([A-Z][A-Z0-9_]+)"/g)) {
        const status = m[2] ? Number(m[2]) : STATUS_OF[m[1]];
        if (!status) continue;
        const at = seen.get(m[3]) ?? new Set<string>();
        at.add(`${status} ${file}`);
        seen.set(m[3], at);
      }
    }
  }
  return seen;
}

describe("error codes", () => {
  it("each code thrown in the source has one status, and a message", async () => {
    const seen = await thrownCodes();
    // The scan finds the refusals it is about (a changed pattern would make this pass vacuously).
    expect(seen.get("TICKET_MEMBERS_ONLY")).toEqual(new Set(["403 lib/registrations/admin.ts", "403 lib/registrations/public.ts"]));
    expect(seen.size).toBeGreaterThan(50);
    const twoStatuses = [...seen]
      .filter(([, at]) => new Set([...at].map((a) => a.split(" ")[0])).size > 1)
      .map(([code, at]) => `${code}: ${[...at].join(", ")}`);
    expect(twoStatuses).toEqual([]);
    const unnamed = [...seen.keys()].filter((code) => !(code in MESSAGES));
    expect(unnamed).toEqual([]);
  });
});
