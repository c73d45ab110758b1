// The tools' input schemas as a client reads them over tools/list: a form every client takes (no
// `type` list, no empty schema), still accepting what the tool accepts; and their output schemas,
// which every real answer meets.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { setup, type TestEnv } from "../helpers";
import { callTool, mcpClient } from "./client";

let env: TestEnv;
let tools: Awaited<ReturnType<Awaited<ReturnType<typeof mcpClient>>["listTools"]>>["tools"];
beforeAll(async () => {
  env = await setup();
  const client = await mcpClient(env);
  tools = (await client.listTools()).tools;
  await client.close();
});
afterAll(() => env.close());

type Schema = Record<string, unknown>;
const isObject = (v: unknown): v is Schema => !!v && typeof v === "object" && !Array.isArray(v);

/** Every schema inside `schema` (itself included), each with its path. */
function* schemasIn(schema: Schema, path: string): Generator<[string, Schema]> {
  yield [path, schema];
  for (const key of ["additionalProperties", "items", "not", "if", "then", "else", "contains", "propertyNames"]) {
    const v = schema[key];
    if (isObject(v)) yield* schemasIn(v, `${path}.${key}`);
  }
  for (const key of ["properties", "patternProperties", "$defs", "definitions"]) {
    const v = schema[key];
    if (isObject(v)) for (const [name, s] of Object.entries(v)) if (isObject(s)) yield* schemasIn(s, `${path}.${key}.${name}`);
  }
  for (const key of ["anyOf", "oneOf", "allOf", "prefixItems"]) {
    const v = schema[key];
    if (Array.isArray(v)) for (const [i, s] of v.entries()) if (isObject(s)) yield* schemasIn(s, `${path}.${key}[${i}]`);
  }
}

describe("tools/list input schemas", () => {
  it("have no `type` list and no empty schema, in any tool, at any depth", () => {
    const typeLists: string[] = [];
    const empty: string[] = [];
    let seen = 0;
    for (const tool of tools) {
      for (const [path, schema] of schemasIn(tool.inputSchema as Schema, tool.name)) {
        seen++;
        if (Array.isArray(schema.type)) typeLists.push(path);
        if (Object.keys(schema).length === 0) empty.push(path);
      }
    }
    expect(seen).toBeGreaterThan(300);
    expect(typeLists).toEqual([]);
    expect(empty).toEqual([]);
  });

  it("write a nullable boolean as anyOf [boolean, null], its description outside", () => {
    const props = tools.find((t) => t.name === "update_tier")?.inputSchema.properties as Record<string, Schema>;
    expect(props.is_active).toEqual({
      description: "false: soft delete (the tier leaves the default list; its members keep it).",
      anyOf: [{ type: "boolean" }, { type: "null" }],
    });
  });

  it("write a free-form object without an empty `additionalProperties`", () => {
    const props = tools.find((t) => t.name === "add_member")?.inputSchema.properties as Record<string, Schema>;
    expect(props.custom_fields).toEqual({ anyOf: [{ type: "object", propertyNames: { type: "string" } }, { type: "null" }] });
  });

  it("compile as JSON Schema draft 7, and accept what the tools accept (null included)", async () => {
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    for (const tool of tools) expect(() => ajv.compile(tool.inputSchema)).not.toThrow();
    const updateClub = ajv.compile(tools.find((t) => t.name === "update_club")?.inputSchema as Schema);
    const args = { show_member_count: null, card_hide_branding: true, partners: [{ name: "Bakery", url: "https://bakery.example" }] };
    expect(updateClub(args)).toBe(true);
    expect(updateClub({ show_member_count: "yes" })).toBe(false);
    const client = await mcpClient(env);
    const { isError, body } = await callTool(client, "update_club", args);
    expect(isError).toBe(false);
    expect(body.card_hide_branding).toBe(true);
    await client.close();
  });
});

describe("tools/list output schemas", () => {
  it("every tool promises an object answer, in the same portable form as its input", () => {
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    const typeLists: string[] = [];
    for (const tool of tools) {
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      expect(() => ajv.compile(tool.outputSchema as Schema), tool.name).not.toThrow();
      for (const [path, schema] of schemasIn(tool.outputSchema as Schema, tool.name)) if (Array.isArray(schema.type)) typeLists.push(path);
    }
    expect(typeLists).toEqual([]);
  });

  it("are the route's response schema: a member tool promises MemberAdminItem's fields, a list is `{result: [...]}`", () => {
    const extend = tools.find((t) => t.name === "extend_membership")?.outputSchema as Schema;
    expect(Object.keys(extend.properties as Schema)).toContain("membership_end");
    expect(extend.additionalProperties).toBe(false);
    const listEvents = tools.find((t) => t.name === "list_events")?.outputSchema as Schema;
    expect(listEvents.required).toEqual(["result"]);
    expect((listEvents.properties as Record<string, Schema>).result.type).toBe("array");
  });

  it("hold for real answers: the structuredContent of a call validates against its tool's outputSchema", async () => {
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    const client = await mcpClient(env);
    for (const name of ["whoami", "get_club", "list_events", "list_members", "club_stats", "list_tiers"]) {
      const answer = (await client.callTool({ name, arguments: {} })) as { structuredContent?: unknown; isError?: boolean };
      expect(answer.isError ?? false, name).toBe(false);
      const check = ajv.compile(tools.find((t) => t.name === name)?.outputSchema as Schema);
      expect(check(answer.structuredContent), `${name}: ${JSON.stringify(check.errors)}`).toBe(true);
    }
    await client.close();
  });
});
