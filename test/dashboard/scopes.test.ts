// The dashboard writes no scope of its own: each check reads the scope of the lib/ verb the page
// calls (`verb.scope`), so a page can never show a control the API would refuse, nor hide one it
// allows (issue 32). Read from the files themselves, so it stays true.
import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AREAS, LEVELS } from "../../lib/access";

const DASHBOARD = join(import.meta.dir, "..", "..", "dashboard");
const SCOPE = new RegExp(`["'\`](?:${AREAS.join("|")}):(?:${LEVELS.join("|")})["'\`]`, "g");

/** Where no verb carries the scope, each with its reason in docs/decisions.md (tidy32). */
const NO_VERB = [
  // The club is read with no scope (getClub); the settings page is the page area's.
  'pages/settings.tsx: nav: { id: "settings", path: "/settings", scope: "page:view", order: 70 },',
  'pages/settings.tsx: { method: "GET", path: "/settings", scope: "page:view", handler: (input) => clubPage(input) },',
];

function scopeLiterals(): string[] {
  const found: string[] = [];
  for (const rel of new Bun.Glob("**/*.{ts,tsx}").scanSync(DASHBOARD)) {
    for (const line of readFileSync(join(DASHBOARD, rel), "utf8").split("\n")) {
      if (line.trim().startsWith("//")) continue;
      if (line.match(SCOPE)) found.push(`${rel}: ${line.trim()}`);
    }
  }
  return found.sort();
}

describe("the dashboard's scopes", () => {
  it("come from the verbs the pages call, but where no verb has one", () => {
    expect(scopeLiterals()).toEqual([...NO_VERB].sort());
  });
});
