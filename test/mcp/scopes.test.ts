// tools/list shows the tools the caller's scopes allow, no others, and a tool outside them is
// refused (SCOPE_MISSING, the HTTP answer) before its arguments are read. For every tool: a key
// lacking one of the scopes its verb needs neither sees nor runs it; a key holding exactly those
// sees it and gets past the scope check.
import { describe, expect, it } from "bun:test";
import { AREAS, hasScope, type Scope, type Scopes, scopeList } from "../../lib/access";
import { TOOLS } from "../../lib/mcp";
import { callTool, listTools, mcpClient, mcpSuite, MODERN } from "./client";

const s = mcpSuite();

/** Every scope, but `missing` lowered: edit to view, view to nothing. */
function allBut(missing: Scope): Scopes {
  const [area, level] = missing.split(":") as [(typeof AREAS)[number], "view" | "edit"];
  const scopes: Scopes = Object.fromEntries(AREAS.map((a) => [a, "edit"]));
  if (level === "edit") scopes[area] = "view";
  else delete scopes[area];
  return scopes;
}

/** Exactly what a tool's verb needs (an edit includes its view). */
function exactly(needs: Scope[]): Scopes {
  const scopes: Scopes = {};
  for (const scope of needs) {
    const [area, level] = scope.split(":") as [(typeof AREAS)[number], "view" | "edit"];
    if (scopes[area] !== "edit") scopes[area] = level;
  }
  return scopes;
}

describe("tools by scope", () => {
  it("the owner's key sees every tool", async () => {
    const { tools } = await listTools(s.client);
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS.map((t) => t.name).sort());
  });

  it("a key lacking a scope a tool needs neither lists nor runs it (SCOPE_MISSING, nothing read), on both revisions", async () => {
    const needed = [...new Set(TOOLS.flatMap((def) => scopeList(def.scope ?? undefined)))];
    expect(needed.length).toBeGreaterThan(8);
    for (const missing of needed) {
      const scopes = allBut(missing);
      const key = await s.env.makeKey(scopes);
      const client = await mcpClient(s.env, key, MODERN);
      const listed = new Set((await client.listTools()).tools.map((t) => t.name));
      for (const def of TOOLS) {
        const held = scopeList(def.scope ?? undefined).every((scope) => hasScope(scopes, scope));
        expect({ tool: def.name, listed: listed.has(def.name) }).toEqual({ tool: def.name, listed: held });
        if (held) continue;
        const refused = await callTool(client, def.name, {});
        expect({ tool: def.name, isError: refused.isError, code: refused.body.code }).toEqual({ tool: def.name, isError: true, code: "SCOPE_MISSING" });
      }
      await client.close();
    }
  });

  it("a key holding exactly a tool's scopes lists it, and its call gets past the scope check", async () => {
    const byScopes = new Map<string, typeof TOOLS>();
    for (const def of TOOLS) {
      const needs = scopeList(def.scope ?? undefined)
        .sort()
        .join(",");
      byScopes.set(needs, [...(byScopes.get(needs) ?? []), def]);
    }
    for (const [needs, defs] of byScopes) {
      const key = await s.env.makeKey(exactly(needs ? (needs.split(",") as Scope[]) : []));
      const client = await mcpClient(s.env, key);
      const listed = (await listTools(client)).tools.map((t) => t.name);
      for (const def of defs) {
        expect(listed).toContain(def.name);
        const answer = await callTool(client, def.name, {});
        expect({ tool: def.name, code: answer.body.code }).not.toEqual({ tool: def.name, code: "SCOPE_MISSING" });
      }
      await client.close();
    }
  });
});
