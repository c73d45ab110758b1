// The MCP prompts through the official SDK client: each fills in a task for the assistant with
// the figures the key may read, and names the tools to go on with.
import { describe, expect, it } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { and, eq } from "drizzle-orm";
import { auditLog } from "../../db/schema";
import { addDays, seedMember, todayUtc } from "../members-fixtures";
import { mcpClient, mcpSuite, rpcError } from "./client";

const s = mcpSuite();

async function promptText(c: Client, name: string, args?: Record<string, string>) {
  const { messages } = await c.getPrompt({ name, arguments: args });
  expect(messages).toHaveLength(1);
  expect(messages[0].role).toBe("user");
  return (messages[0].content as { type: string; text: string }).text;
}

describe("prompts", () => {
  it("prompts/list shows each prompt with its optional arguments", async () => {
    const { prompts } = await s.client.listPrompts();
    expect(prompts.map((p) => [p.name, p.arguments?.map((a) => [a.name, a.required])])).toEqual([
      ["monthly_report", [["month", false]]],
      ["not_renewed", [["days", false]]],
      ["dues_run", [["until", false]]],
      ["mailing_to_lapsed", []],
    ]);
    expect(prompts.every((p) => (p.description?.length ?? 0) > 40 && p.arguments?.every((a) => (a.description?.length ?? 0) > 10))).toBe(true);
  });

  it("not_renewed lists who ended lately and who ends soon without automatic renewal, nobody else", async () => {
    const today = todayUtc();
    const seed = (last_name: string, membership_end: string, over = {}) => seedMember(s.env, { first_name: "Nr", last_name, membership_end, ...over });
    const ended = await seed("Ended", addDays(today, -5));
    const endedEdge = await seed("EndedEdge", addDays(today, -30));
    const longAgo = await seed("LongAgo", addDays(today, -31));
    const suspended = await seed("Suspended", addDays(today, -3), { payment_status: "suspended" });
    const endsToday = await seed("EndsToday", today);
    const endsEdge = await seed("EndsEdge", addDays(today, 30));
    const later = await seed("Later", addDays(today, 31));
    const renewsItself = await seed("RenewsItself", addDays(today, 10), { payment_mode: "subscription" });
    const optedOut = await seed("OptedOut", addDays(today, 10), { payment_mode: "subscription", renewal_opt_out_at: new Date().toISOString() });
    const pending = await seed("Pending", addDays(today, 10), { payment_status: "pending" });

    const text = await promptText(s.client, "not_renewed");
    const [endedPart, endingPart] = text.split("Ending by");
    for (const m of [ended, endedEdge]) expect(endedPart).toContain(`member_id ${m.id}`);
    for (const m of [endsToday, optedOut, endsEdge]) expect(endingPart).toContain(`member_id ${m.id}`);
    for (const m of [longAgo, suspended, later, renewsItself, pending]) expect(text).not.toContain(m.id);
    // Latest end first among the ended, soonest first among the ending.
    expect(endedPart.indexOf(ended.id)).toBeLessThan(endedPart.indexOf(endedEdge.id));
    expect(endingPart.indexOf(endsToday.id)).toBeLessThan(endingPart.indexOf(optedOut.id));
    expect(endedPart).toContain(`Ended between ${addDays(today, -30)} and yesterday`);
    expect(text).toContain("mark_member_paid");
    expect(text).toContain("list_members");
    expect(text).toContain("in French");

    const wider = await promptText(s.client, "not_renewed", { days: "90" });
    expect(wider).toContain(longAgo.id);
    expect(wider).toContain(later.id);
  });

  it("monthly_report embeds the month's revenue and new members, and names the tools for the rest", async () => {
    const member = await seedMember(s.env, { payment_status: "pending", membership_end: addDays(todayUtc(), 10) });
    const paid = await s.env.call("POST", `/api/clubs/${s.env.clubId}/members/${member.id}/actions/mark-paid`, { body: { amount_cents: 4250 } });
    expect(paid.status).toBe(200);
    const stats = await s.env.call("GET", `/api/clubs/${s.env.clubId}/stats`);
    const month = todayUtc().slice(0, 7);

    const text = await promptText(s.client, "monthly_report");
    expect(text).toContain(`for ${month} (${month}-01 to `);
    expect(text).toContain(`gross ${(stats.body.revenue.this_month.gross_cents / 100).toFixed(2)} CHF`);
    expect(text).toContain(`; ${stats.body.members.new_this_month} new members.`);
    expect(text).toContain(`Members today: ${stats.body.members.total} in all, ${stats.body.members.active} active`);
    for (const tool of ["list_events", "attendance with from=", "list_members"]) expect(text).toContain(tool);

    const past = await promptText(s.client, "monthly_report", { month: "2020-02" });
    expect(past).toContain("for 2020-02 (2020-02-01 to 2020-02-29, UTC)");
    expect(past).toContain("- 2020-02: gross 0.00 CHF");
    expect(past).toContain("attendance with from=2020-02-01 and to=2020-02-29");
  });

  it("bad arguments are invalid params (-32602) with the API's 422 items, under body", async () => {
    for (const [name, args, field] of [
      ["monthly_report", { month: "2024-13" }, "month"],
      ["not_renewed", { days: "0" }, "days"],
    ] as const) {
      const err = await rpcError(s.client.getPrompt({ name, arguments: args }));
      expect(err).toMatchObject({ code: -32602, data: { status: 422, code: "VALIDATION_FAILED" } });
      expect((err.data as { detail: { loc: string[] }[] }).detail[0].loc).toEqual(["body", field]);
    }
    expect(await rpcError(s.client.getPrompt({ name: "no_such_prompt" }))).toMatchObject({
      code: -32602,
      message: "MCP error -32602: Unknown prompt: no_such_prompt",
    });
  });

  it("a prompt needs the scope of the figures it embeds: refused without it, and audited under its name", async () => {
    const key = await s.env.makeKey({ members: "view" });
    const membersOnly = await mcpClient(s.env, key);
    expect(await promptText(membersOnly, "not_renewed")).toContain("who have not renewed");
    expect(await rpcError(membersOnly.getPrompt({ name: "monthly_report" }))).toMatchObject({
      code: -32600,
      data: { status: 403, code: "SCOPE_MISSING", detail: "Cette clé n'a pas la permission « finances:view »." },
    });
    await membersOnly.close();
    const rows = await s.env.db.read
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.key_prefix, key.slice(0, 12)), eq(auditLog.mcp_method, "prompts/get")));
    expect(rows.map((r) => r.tool).sort()).toEqual(["monthly_report", "not_renewed"]);
  });
});
