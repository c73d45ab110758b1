// http/paths.ts, the one reading of an address that the API's route table and the dashboard's
// share: parameters by name, decoded, ids lower-cased; the most specific pattern first; a
// trailing slash only where asked (the dashboard's pages, not the API).
import { describe, expect, it } from "bun:test";
import { bySpecificity, compilePath, decodeParam, matchPath } from "../../http/paths";

describe("path patterns", () => {
  it("match segment for segment and name their parameters", () => {
    const p = compilePath("/api/clubs/:club_id/members/:member_id");
    expect(matchPath(p, "/api/clubs/ABC/members/x1")).toEqual({ club_id: "ABC", member_id: "x1" });
    expect(matchPath(p, "/api/clubs/ABC/members")).toBeNull();
    expect(matchPath(p, "/api/clubs/ABC/members/x1/history")).toBeNull();
    expect(matchPath(p, "/api/clubs//members/x1")).toBeNull();
  });

  it("take a trailing slash only when the pattern allows it", () => {
    expect(matchPath(compilePath("/admin/members"), "/admin/members/")).toBeNull();
    expect(matchPath(compilePath("/admin/members", { trailingSlash: true }), "/admin/members/")).toEqual({});
    expect(matchPath(compilePath("/admin", { trailingSlash: true }), "/admin")).toEqual({});
  });

  it("read fixed segments literally (a dot is a dot)", () => {
    expect(matchPath(compilePath("/openapi.json"), "/openapi.json")).toEqual({});
    expect(matchPath(compilePath("/openapi.json"), "/openapiXjson")).toBeNull();
  });

  it("put the pattern with more fixed segments first: /members/new before /members/:member_id", () => {
    const table = [{ pattern: compilePath("/members/:member_id") }, { pattern: compilePath("/members/new") }].sort(bySpecificity);
    expect(table.map((t) => t.pattern.path)).toEqual(["/members/new", "/members/:member_id"]);
  });

  it("decode a parameter, lower-case an id, and refuse one that does not decode", () => {
    expect(decodeParam("member_id", "0190A0A0-0000-7000-8000-00000000000F")).toBe("0190a0a0-0000-7000-8000-00000000000f");
    expect(decodeParam("slug", "F%C3%AAte")).toBe("Fête");
    expect(decodeParam("slug", "%E0%A4%A")).toBeNull();
  });
});
