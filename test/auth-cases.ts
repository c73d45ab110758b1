// The standard authorization cases for one route, generated so that every route gets them:
// no key, an unknown key, a key of another club (403 when the path names our club), and a key
// without the route's scope, or with only `view` on a write route.
import { expect, it } from "bun:test";
import type { Scope } from "../lib/access";
import type { TestEnv } from "./helpers";

export function authCases(
  getEnv: () => TestEnv,
  route: {
    method: string;
    path: (env: TestEnv) => string;
    body?: unknown;
    scope?: Scope;
    /** What a key of another club gets: 403 when the path names our club; a route without a club in its path answers for the caller's own club. */
    otherClubStatus?: number;
  },
) {
  const name = `${route.method} ${route.path({ clubId: ":club_id" } as TestEnv)}`;
  it(`${name}: no key -> 401`, async () => {
    const env = getEnv();
    const res = await env.call(route.method, route.path(env), { key: null, body: route.body });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("UNAUTHORIZED");
  });
  it(`${name}: unknown key -> 401`, async () => {
    const env = getEnv();
    const res = await env.call(route.method, route.path(env), { key: "mk_live_unknownunknownunknownunknownunknown", body: route.body });
    expect(res.status).toBe(401);
  });
  const otherClubStatus = route.otherClubStatus ?? 403;
  it(`${name}: key of another club -> ${otherClubStatus}`, async () => {
    const env = getEnv();
    const other = await env.otherClub();
    const res = await env.call(route.method, route.path(env), { key: other.api_key, body: route.body });
    expect(res.status).toBe(otherClubStatus);
  });
  if (route.scope) {
    const scope = route.scope;
    const [area, level] = scope.split(":");
    it(`${name}: key without ${area} -> 403`, async () => {
      const env = getEnv();
      const others = Object.fromEntries(Object.entries(env.allEdit).filter(([a]) => a !== area));
      const res = await env.call(route.method, route.path(env), { key: await env.makeKey(others), body: route.body });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("SCOPE_MISSING");
    });
    if (level === "edit") {
      it(`${name}: ${area}:view only -> 403`, async () => {
        const env = getEnv();
        const res = await env.call(route.method, route.path(env), { key: await env.makeKey({ ...env.allEdit, [area]: "view" }), body: route.body });
        expect(res.status).toBe(403);
      });
    }
  }
}
