// MCP tools for an application to join (issue 13): approve_member and reject_member, through the
// SDK client, with the scope they need.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { members } from "../../db/schema";
import { setup, type TestEnv } from "../helpers";
import { memberRow, seedMember } from "../members-fixtures";
import { callTool, mcpClient } from "./client";

let env: TestEnv;
let client: Awaited<ReturnType<typeof mcpClient>>;
beforeAll(async () => {
  env = await setup();
  client = await mcpClient(env);
});
afterAll(async () => {
  await client.close();
  await env.close();
});
const applicant = () => seedMember(env, { payment_status: "pending", application_status: "pending_approval", amount_due_cents: 0 });

describe("approve_member and reject_member", () => {
  it("approve activates an applicant with nothing to pay; a second call is NOT_AWAITING_APPROVAL", async () => {
    const m = await applicant();
    const res = await callTool(client, "approve_member", { member_id: m.id });
    expect(res.isError).toBe(false);
    expect(res.body.status).toBe("active");
    expect((await memberRow(env, m.id)).application_status).toBeNull();
    expect((await callTool(client, "approve_member", { member_id: m.id })).body.code).toBe("NOT_AWAITING_APPROVAL");
  });

  it("reject erases the applicant; a member who never applied is refused", async () => {
    const m = await applicant();
    expect((await callTool(client, "reject_member", { member_id: m.id, confirm: true })).body).toEqual({ erased: true, member_id: m.id });
    expect(await env.db.read.select().from(members).where(eq(members.id, m.id))).toEqual([]);
    const plain = await seedMember(env);
    expect((await callTool(client, "reject_member", { member_id: plain.id, confirm: true })).body.code).toBe("NOT_AWAITING_APPROVAL");
    expect(await memberRow(env, plain.id)).toBeDefined();
  });

  it("members:view cannot approve or reject", async () => {
    const view = await mcpClient(env, await env.makeKey({ members: "view" } as never));
    const m = await applicant();
    for (const name of ["approve_member", "reject_member"]) expect((await callTool(view, name, { member_id: m.id })).body.code).toBe("SCOPE_MISSING");
    expect((await memberRow(env, m.id)).application_status).toBe("pending_approval");
    await view.close();
  });
});
