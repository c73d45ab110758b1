// MCP tools of a member's other half (DESIGN.md section 12): get_member, update_member,
// delete_member, member_history, export_member_data, through the SDK client.
import { describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { members } from "../../db/schema";
import { historyOf, memberRow, seedMember } from "../members-fixtures";
import { callTool, mcpClient, mcpSuite } from "./client";

const suite = mcpSuite();

describe("MCP tools of a member's other half", () => {
  const use = () => ({ env: suite.env, client: suite.client });
  it("declares each tool with its hints; delete_member is destructive and says it cannot be undone", async () => {
    const { client } = use();
    const byName = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, t]));
    for (const name of ["get_member", "member_history", "export_member_data"]) {
      expect(byName[name].annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    }
    expect(byName.update_member.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(byName.delete_member.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.delete_member.description).toContain("cannot be undone");
    const props = byName.update_member.inputSchema.properties as Record<string, unknown>;
    expect(Object.keys(props)).toEqual(expect.arrayContaining(["member_id", "first_name", "email", "tier_id", "membership_end", "reason"]));
  });

  it("get_member answers the member as structuredContent; another club's member is MEMBER_NOT_FOUND", async () => {
    const { env, client } = use();
    const m = await seedMember(env, { first_name: "Mira" });
    const res = (await client.callTool({ name: "get_member", arguments: { member_id: m.id } })) as { structuredContent?: { id: string; first_name: string } };
    expect(res.structuredContent).toMatchObject({ id: m.id, first_name: "Mira" });
    const other = await env.otherClub();
    const theirs = await seedMember(env, {}, other.club_id);
    const refused = await callTool(client, "get_member", { member_id: theirs.id });
    expect([refused.isError, refused.body.code]).toEqual([true, "MEMBER_NOT_FOUND"]);
  });

  it("update_member changes the fields given and writes history; member_history lists it with the actor", async () => {
    const { env, client } = use();
    const m = await seedMember(env, { first_name: "Old" });
    const res = await callTool(client, "update_member", { member_id: m.id, first_name: "New", membership_end: "2031-01-31", reason: "Board decision" });
    expect(res.isError).toBe(false);
    expect(res.body).toMatchObject({ first_name: "New", membership_end: "2031-01-31" });
    expect((await memberRow(env, m.id)).first_name).toBe("New");
    const history = await callTool(client, "member_history", { member_id: m.id });
    expect(history.body.items[0]).toMatchObject({ kind: "correction", reason: "Board decision", actor: `owner@test.org (${env.key.slice(0, 12)})` });
    const taken = await seedMember(env, { email: "mcp-taken@test.org" });
    const refused = await callTool(client, "update_member", { member_id: m.id, email: taken.email });
    expect([refused.isError, refused.body.code]).toEqual([true, "MEMBER_EMAIL_TAKEN"]);
  });

  it("export_member_data answers the document; delete_member erases, and a view key may not", async () => {
    const { env, client } = use();
    const m = await seedMember(env, { first_name: "Gone" });
    const data = await callTool(client, "export_member_data", { member_id: m.id });
    expect(data.body.member.first_name).toBe("Gone");
    const viewer = await mcpClient(env, await env.makeKey({ members: "view" }));
    const refused = await callTool(viewer, "delete_member", { member_id: m.id });
    expect([refused.isError, refused.body.code]).toEqual([true, "SCOPE_MISSING"]);
    await viewer.close();
    expect(await memberRow(env, m.id)).toBeDefined();
    const res = await callTool(client, "delete_member", { member_id: m.id, confirm: true });
    expect(res.body).toEqual({ erased: true, member_id: m.id });
    expect(await env.db.read.select().from(members).where(eq(members.id, m.id))).toHaveLength(0);
    expect((await historyOf(env, m.id)).map((h) => h.action)).toEqual(["erase"]);
    const again = await callTool(client, "get_member", { member_id: m.id });
    expect(again.body.code).toBe("MEMBER_NOT_FOUND");
  });
});
