// The protocol's utilities on /mcp, on both revisions (the first SDK's client, 2025-11-25 after its
// handshake; the second's pinned to 2026-07-28): `logging/setLevel` accepted, `completion/complete`
// suggesting the values a resource template's variable or a prompt's argument may take (those its
// zod schema lists: a member's status, a sort order), and the capabilities that announce them.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Client as Client2026 } from "@modelcontextprotocol/client";
import { EmptyResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { ENVELOPE, MODERN, mcpClient, mcpSuite, modernPost, rpcError } from "./client";

const s = mcpSuite();
let modern: Client2026;
beforeAll(async () => {
  modern = await mcpClient(s.env, s.env.key, MODERN);
});
afterAll(() => modern.close());

/** Each generation's client, by the revision it speaks. */
const clients = () =>
  [
    ["2025-11-25", s.client],
    [MODERN, modern],
  ] as const;

const membersTemplate = () => `club://${s.env.clubId}/members{?search,status,sort,dir,page,limit}`;

describe("logging/setLevel", () => {
  it("2025-11-25: the logging capability is declared and any of the protocol's levels is accepted with {}", async () => {
    expect(s.client.getServerCapabilities()?.logging).toEqual({});
    expect(await s.client.setLoggingLevel("info")).toEqual({});
    expect(await s.client.setLoggingLevel("emergency")).toEqual({});
  });

  it("2025-11-25: a level that is none of the protocol's is invalid params", async () => {
    const error = await rpcError(s.client.request({ method: "logging/setLevel", params: { level: "loud" } }, EmptyResultSchema));
    expect(error.code).toBe(-32602);
  });

  it("2026-07-28: the capability is declared, the level rides in each request's _meta; logging/setLevel is not of this revision", async () => {
    expect(modern.getServerCapabilities()?.logging).toEqual({});
    const res = await modernPost(s.env, "tools/list", {}, { ...ENVELOPE, "io.modelcontextprotocol/logLevel": "info" });
    expect(res.status).toBe(200);
    const setLevel = await modernPost(s.env, "logging/setLevel", { level: "info" });
    expect((setLevel.body as { error: { code: number } }).error.code).toBe(-32601);
  });
});

describe("completion/complete", () => {
  it("the completions capability is declared on both revisions", () => {
    for (const [, client] of clients()) expect(client.getServerCapabilities()?.completions).toEqual({});
  });

  it("a template variable with listed values: those beginning with what was typed, case ignored; all of them for nothing typed", async () => {
    for (const [, client] of clients()) {
      const ref = { type: "ref/resource" as const, uri: membersTemplate() };
      const status = (value: string) => client.complete({ ref, argument: { name: "status", value } });
      expect((await status("")).completion).toEqual({ values: ["active", "expired", "pending", "suspended", "all"], total: 5, hasMore: false });
      expect((await status("a")).completion).toEqual({ values: ["active", "all"], total: 2, hasMore: false });
      expect((await status("SU")).completion.values).toEqual(["suspended"]);
      expect((await status("x")).completion).toEqual({ values: [], total: 0, hasMore: false });
      const dir = await client.complete({ ref, argument: { name: "dir", value: "d" } });
      expect(dir.completion.values).toEqual(["desc"]);
      const sort = await client.complete({ ref, argument: { name: "sort", value: "m" } });
      expect(sort.completion.values).toEqual(["membership_end"]);
    }
  });

  it("free text (a search, a page, a prompt's month or days) and an unknown variable (an inherited name too) have no suggestions", async () => {
    for (const [, client] of clients()) {
      const ref = { type: "ref/resource" as const, uri: membersTemplate() };
      for (const name of ["search", "page", "nope", "constructor", "__proto__"]) {
        expect((await client.complete({ ref, argument: { name, value: "a" } })).completion.values).toEqual([]);
      }
      for (const [prompt, name] of [
        ["monthly_report", "month"],
        ["not_renewed", "days"],
      ]) {
        for (const arg of [name, "toString"]) {
          const answer = await client.complete({ ref: { type: "ref/prompt", name: prompt }, argument: { name: arg, value: "2" } });
          expect(answer.completion).toEqual({ values: [], total: 0, hasMore: false });
        }
      }
    }
  });

  it("a prompt or a template that does not exist, or another club's template, is invalid params", async () => {
    for (const [, client] of clients()) {
      const argument = { name: "status", value: "" };
      for (const ref of [
        { type: "ref/prompt" as const, name: "test_prompt_with_arguments" },
        { type: "ref/resource" as const, uri: "test://template/{id}/data" },
        { type: "ref/resource" as const, uri: membersTemplate().replace(s.env.clubId, crypto.randomUUID()) },
      ]) {
        const error = await rpcError(client.complete({ ref, argument }));
        expect(error.code).toBe(-32602);
      }
    }
  });

  it("a fixed resource has no variables: no suggestions", async () => {
    for (const [, client] of clients()) {
      const answer = await client.complete({ ref: { type: "ref/resource", uri: `club://${s.env.clubId}/tiers` }, argument: { name: "x", value: "" } });
      expect(answer.completion.values).toEqual([]);
    }
  });
});
