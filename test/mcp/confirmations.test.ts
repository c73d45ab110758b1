// A destructive or mass tool acts only once the user has confirmed (DESIGN.md section 23): a
// 2026-07-28 client that can answer is asked through the protocol (an input request the SDK's
// client fulfils with its elicitation handler); any other caller gets CONFIRMATION_REQUIRED with
// the question and what the call would do, and `confirm: true` runs it. Unconfirmed, nothing changes.
import { describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { members } from "../../db/schema";
import { TOOLS } from "../../lib/mcp";
import { seedMember } from "../members-fixtures";
import { callTool, listTools, MODERN, mcpClient, mcpSuite } from "./client";

const s = mcpSuite();

const stored = async (id: string) => (await s.env.db.read.select().from(members).where(eq(members.id, id))).length;

describe("confirmations", () => {
  it("the destructive and mass tools ask first, and say so in their schema; no other does", async () => {
    expect(
      TOOLS.filter((def) => def.confirm)
        .map((def) => def.name)
        .sort(),
    ).toEqual(["delete_member", "import_bank_statement", "import_members", "reject_member", "run_invoices", "send_mailing"]);
    for (const tool of (await listTools(s.client)).tools) {
      const asks = !!TOOLS.find((def) => def.name === tool.name)?.confirm;
      expect({ tool: tool.name, confirm: "confirm" in (tool.inputSchema.properties ?? {}) }).toEqual({ tool: tool.name, confirm: asks });
    }
  });

  it("unconfirmed (a 2025-11-25 client), delete_member erases nobody and answers the question and who it would erase", async () => {
    const m = await seedMember(s.env, { first_name: "Greta", last_name: "Garbo", email: "greta@example.org" });
    const asked = await callTool(s.client, "delete_member", { member_id: m.id });
    expect(asked.isError).toBe(true);
    expect(asked.body.code).toBe("CONFIRMATION_REQUIRED");
    expect(asked.body.detail).toContain("Greta Garbo (greta@example.org)");
    expect(asked.body.detail).toContain("confirm: true");
    expect(asked.body.would).toEqual({ member_id: m.id, name: "Greta Garbo", email: "greta@example.org", status: "active" });
    expect(await stored(m.id)).toBe(1);
    expect((await callTool(s.client, "delete_member", { member_id: m.id, confirm: false })).body.code).toBe("CONFIRMATION_REQUIRED");
    expect(await stored(m.id)).toBe(1);
    expect((await callTool(s.client, "delete_member", { member_id: m.id, confirm: true })).body).toEqual({ erased: true, member_id: m.id });
    expect(await stored(m.id)).toBe(0);
  });

  it("a 2026-07-28 client that can answer is asked the question through the protocol; yes erases", async () => {
    const m = await seedMember(s.env, { first_name: "Ada", last_name: "Yes", email: "ada.yes@example.org" });
    const questions: string[] = [];
    const client = await mcpClient(s.env, s.env.key, MODERN, {
      elicit: ({ message }) => {
        questions.push(message);
        return { action: "accept", content: { confirm: true } };
      },
    });
    const res = await callTool(client, "delete_member", { member_id: m.id });
    expect(res.body).toEqual({ erased: true, member_id: m.id });
    expect(questions).toHaveLength(1);
    expect(questions[0]).toContain("Ada Yes (ada.yes@example.org)");
    expect(await stored(m.id)).toBe(0);
    await client.close();
  });

  it("declined, or accepted with 'no', nothing is erased and the answer says what it would have done", async () => {
    const m = await seedMember(s.env, { first_name: "Bob", last_name: "No", email: "bob.no@example.org" });
    for (const answer of [{ action: "decline" as const }, { action: "cancel" as const }, { action: "accept" as const, content: { confirm: false } }]) {
      const client = await mcpClient(s.env, s.env.key, MODERN, { elicit: () => answer });
      const res = await callTool(client, "delete_member", { member_id: m.id });
      expect(res.isError).toBe(true);
      expect(res.body).toMatchObject({ code: "CONFIRMATION_REQUIRED", would: { member_id: m.id, name: "Bob No" } });
      expect(await stored(m.id)).toBe(1);
      await client.close();
    }
  });

  it("a 2026-07-28 client that cannot answer (no elicitation) is refused as the first generation is", async () => {
    const m = await seedMember(s.env, { email: "mute@example.org" });
    const client = await mcpClient(s.env, s.env.key, MODERN);
    expect((await callTool(client, "delete_member", { member_id: m.id })).body.code).toBe("CONFIRMATION_REQUIRED");
    expect(await stored(m.id)).toBe(1);
    expect((await callTool(client, "delete_member", { member_id: m.id, confirm: true })).body.erased).toBe(true);
    await client.close();
  });

  it("a dry run needs no confirmation; an unconfirmed import writes nothing and counts what it would", async () => {
    const csv = "first_name,last_name,email,membership_end\nNew,One,new.one@example.org,2031-12-31\n";
    const dry = await callTool(s.client, "import_members", { csv, dry_run: true });
    expect(dry.isError).toBe(false);
    expect(dry.body).toMatchObject({ created: 1, written: false });
    const asked = await callTool(s.client, "import_members", { csv });
    expect(asked.body).toMatchObject({ code: "CONFIRMATION_REQUIRED", would: { created: 1, written: false } });
    expect(await s.env.db.read.select().from(members).where(eq(members.email, "new.one@example.org"))).toHaveLength(0);
  });

  it("the question is in the club's language", async () => {
    expect((await s.env.call("PUT", `/api/clubs/${s.env.clubId}`, { body: { locale: "de" } })).status).toBe(200);
    const m = await seedMember(s.env, { first_name: "Hans", last_name: "Muster", email: "hans@example.org" });
    const asked = await callTool(s.client, "delete_member", { member_id: m.id });
    expect(asked.body.detail).toContain("Es wurde nichts getan.");
    expect(asked.body.detail).toContain("Hans Muster (hans@example.org) endgültig löschen?");
    expect((await s.env.call("PUT", `/api/clubs/${s.env.clubId}`, { body: { locale: "fr" } })).status).toBe(200);
  });

  it("under an idempotency key, the question is not the key's answer: confirmed, the call runs; again, it is replayed", async () => {
    const m = await seedMember(s.env, { email: "keyed@example.org" });
    const key = "confirm-key-1";
    expect((await callTool(s.client, "delete_member", { member_id: m.id, idempotency_key: key })).body.code).toBe("CONFIRMATION_REQUIRED");
    const done = await callTool(s.client, "delete_member", { member_id: m.id, idempotency_key: key, confirm: true });
    expect(done.body).toEqual({ erased: true, member_id: m.id });
    const again = await s.client.callTool({ name: "delete_member", arguments: { member_id: m.id, idempotency_key: key, confirm: true } });
    expect(again._meta?.idempotent_replayed).toBe(true);
    expect(await stored(m.id)).toBe(0);
  });
});
