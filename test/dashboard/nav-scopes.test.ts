// The dashboard's navigation shows an entry to exactly the admins its page lets in: each entry
// needs the same scopes as the GET route of its path (both read from the page's verb, `verb.scope`),
// so no admin is shown a link that answers 403, nor kept from a page they may open (issue 32).
import { describe, expect, it } from "bun:test";
import { scopeList } from "../../lib/access";
import { loadPages } from "../../dashboard";

describe("the dashboard's navigation", () => {
  it("needs for each entry what the GET route of its path needs", async () => {
    const pages = await loadPages();
    const entries = pages.flatMap((p) => (p.nav ? [{ nav: p.nav, routes: p.routes }] : []));
    expect(entries.length).toBeGreaterThan(5);
    for (const { nav, routes } of entries) {
      const get = routes.find((r) => r.method === "GET" && r.path === (nav.path || "/"));
      expect({ id: nav.id, route: !!get }).toEqual({ id: nav.id, route: true });
      expect({ id: nav.id, needs: scopeList(nav.scope).sort() }).toEqual({ id: nav.id, needs: scopeList(get?.scope).sort() });
    }
  });
});
