// MCP tools of the members and tiers areas, through the SDK client.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { auditLog, memberHistory, members, tiers } from "../../db/schema";
import { ExtendRequest, MarkPaidRequest, MemberAdminItem, ReactivateRequest, SuspendRequest } from "../../lib/members/schemas";
import { setup, type TestEnv } from "../helpers";
import { historyOf, memberRow, paymentsOf, seedMember } from "../members-fixtures";
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

describe("MCP members and tiers tools", () => {
  it("lists every tool with a description, parameter descriptions and annotations", async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const name of [
      "list_members",
      "add_member",
      "extend_membership",
      "mark_member_paid",
      "suspend_member",
      "reactivate_member",
      "cancel_subscription",
      "list_tiers",
      "create_tier",
      "update_tier",
      "send_card_email",
      "export_members",
      "import_members",
    ]) {
      expect(byName[name]?.description?.length).toBeGreaterThan(40);
      expect(byName[name].annotations).toBeDefined();
    }
    expect(byName.list_members.annotations?.readOnlyHint).toBe(true);
    expect(byName.suspend_member.annotations?.destructiveHint).toBe(true);
    expect(byName.add_member.annotations?.readOnlyHint).toBe(false);
    const props = byName.extend_membership.inputSchema.properties as Record<string, { description?: string }>;
    expect(props.member_id.description).toContain("list_members");
    expect(props.extend_until.description).toBeString();
  });

  it("member action tools take the HTTP request shapes, with one documented reason", async () => {
    const { tools } = await client.listTools();
    const props = (name: string) => (tools.find((t) => t.name === name)?.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
    for (const [name, shape] of [
      ["extend_membership", ExtendRequest],
      ["mark_member_paid", MarkPaidRequest],
      ["suspend_member", SuspendRequest],
      ["reactivate_member", ReactivateRequest],
      ["cancel_subscription", SuspendRequest],
    ] as const) {
      expect(Object.keys(props(name)).sort()).toEqual(["member_id", "idempotency_key", ...Object.keys(shape.shape)].sort());
      expect(props(name).reason.description).toBe("Why (kept in the member's history).");
    }
  });

  it("add_member, list_members, extend, mark paid, suspend, reactivate, cancel subscription", async () => {
    const added = await callTool(client, "add_member", { first_name: "Zoé", last_name: "Rochat", email: "zoe@test.org", membership_end: "2031-12-31" });
    expect(added.isError).toBe(false);
    expect(added.body.wallet_urls.web).toStartWith("http://localhost/c/");
    const id = added.body.id;
    const dup = await callTool(client, "add_member", { first_name: "Zoé", last_name: "Rochat", email: "ZOE@test.org", membership_end: "2031-12-31" });
    expect(dup).toMatchObject({ isError: true, body: { code: "MEMBER_EMAIL_TAKEN" } });

    const listed = await callTool(client, "list_members", { search: "zoe", status: "active" });
    expect(listed.body.total).toBe(1);
    expect(listed.body.items[0].id).toBe(id);

    const ext = await callTool(client, "extend_membership", { member_id: id, extend_until: "2032-06-30" });
    expect(ext.body.membership_end).toBe("2032-06-30");
    const bad = await callTool(client, "extend_membership", { member_id: id, extend_until: "2030-01-01" });
    expect(bad.isError).toBe(true);
    expect(bad.body.code).toBe("VALIDATION_FAILED");

    const paid = await callTool(client, "mark_member_paid", { member_id: id, amount_cents: 4000, payment_method: "cash" });
    expect(paid.body.membership_end).toBe("2033-06-30");
    expect(await paymentsOf(env, id)).toHaveLength(1);

    expect((await callTool(client, "suspend_member", { member_id: id, reason: "test" })).body.status).toBe("suspended");
    expect((await callTool(client, "suspend_member", { member_id: id })).body.code).toBe("MEMBER_ALREADY_SUSPENDED");
    expect((await callTool(client, "reactivate_member", { member_id: id })).body.status).toBe("active");
    expect((await callTool(client, "cancel_subscription", { member_id: id })).body.code).toBe("NO_ACTIVE_SUBSCRIPTION");
    const sub = await seedMember(env, { payment_mode: "subscription" });
    expect((await callTool(client, "cancel_subscription", { member_id: sub.id })).body.renewal_opt_out_at).toBeString();

    expect((await historyOf(env, id)).map((h) => h.action)).toEqual(["manual_create", "extend", "mark_paid", "suspend", "reactivate"]);
    const row = await memberRow(env, id);
    expect(row.membership_end).toBe("2033-06-30");
    const audited = await env.db.read.select().from(auditLog).where(eq(auditLog.tool, "mark_member_paid"));
    expect(audited.length).toBeGreaterThan(0);
  });

  it("member items carry exactly MemberAdminItem's fields, never internal columns", async () => {
    const m = await seedMember(env, { email: "keys@test.org", pass_auth_token: "secret-token", pass_updated_at: "2025-01-01T00:00:00.000Z" });
    const fields = Object.keys(MemberAdminItem.shape).sort();
    const listed = await callTool(client, "list_members", { search: "keys@test.org" });
    expect(listed.body.items).toHaveLength(1);
    expect(Object.keys(listed.body.items[0]).sort()).toEqual(fields);
    const extended = await callTool(client, "extend_membership", { member_id: m.id, extend_months: 1 });
    expect(Object.keys(extended.body).sort()).toEqual(fields);
    const added = await callTool(client, "add_member", { first_name: "Key", last_name: "Set", email: "keyset@test.org", membership_end: "2031-01-01" });
    expect(Object.keys(added.body).sort()).toEqual([...fields, "wallet_urls"].sort());
    expect(JSON.stringify([listed.body, extended.body, added.body])).not.toContain("secret-token");
  });

  it("another club's member id is unknown to the tools", async () => {
    const other = await env.otherClub();
    const theirs = await seedMember(env, {}, other.club_id);
    const res = await callTool(client, "suspend_member", { member_id: theirs.id });
    expect(res).toMatchObject({ isError: true, body: { code: "MEMBER_NOT_FOUND" } });
    expect((await memberRow(env, theirs.id)).payment_status).toBe("paid");
  });

  it("a view key can list but not write", async () => {
    const view = await mcpClient(env, await env.makeKey({ members: "view", finances: "view" }));
    const target = await seedMember(env, { email: "viewed@test.org" });
    const tier = (await env.db.read.select().from(tiers).where(eq(tiers.club_id, env.clubId)))[0] ?? null;
    const snapshot = async () => ({
      members: await env.db.read.select().from(members).where(eq(members.club_id, env.clubId)),
      tiers: await env.db.read.select().from(tiers).where(eq(tiers.club_id, env.clubId)),
      history: await env.db.read.select().from(memberHistory).where(eq(memberHistory.club_id, env.clubId)),
    });
    const before = await snapshot();
    expect((await callTool(view, "list_members")).isError).toBe(false);
    expect((await callTool(view, "list_tiers")).isError).toBe(false);
    const res = await callTool(view, "add_member", { first_name: "A", last_name: "B", email: "view@test.org", membership_end: "2030-01-01" });
    expect(res).toMatchObject({ isError: true, body: { code: "SCOPE_MISSING" } });
    expect((await callTool(view, "create_tier", { name: "X", price_cents: 1 })).body.code).toBe("SCOPE_MISSING");
    expect((await callTool(view, "suspend_member", { member_id: target.id })).body.code).toBe("SCOPE_MISSING");
    expect((await callTool(view, "extend_membership", { member_id: target.id, extend_months: 1 })).body.code).toBe("SCOPE_MISSING");
    if (tier) expect((await callTool(view, "update_tier", { tier_id: tier.id, name: "Renamed" })).body.code).toBe("SCOPE_MISSING");
    // Nothing was written: the club's members, tiers and history are as they were.
    expect(await snapshot()).toEqual(before);
    expect(before.members.some((m) => m.email === "view@test.org")).toBe(false);
    await view.close();
  });

  it("create_tier, list_tiers, update_tier (soft delete)", async () => {
    const created = await callTool(client, "create_tier", { name: "Soutien", price_cents: 10000 });
    expect(created.body).toMatchObject({ name: "Soutien", currency: "CHF", duration_months: 12, member_count: 0 });
    expect((await callTool(client, "list_tiers")).body.map((t: { name: string }) => t.name)).toContain("Soutien");
    const upd = await callTool(client, "update_tier", { tier_id: created.body.id, is_active: false });
    expect(upd.body.is_active).toBe(false);
    expect((await env.db.read.select().from(tiers).where(eq(tiers.id, created.body.id)))[0].is_active).toBe(false);
    expect((await callTool(client, "list_tiers")).body).toHaveLength(0);
    expect((await callTool(client, "list_tiers", { include_inactive: true })).body).toEqual([
      expect.objectContaining({ id: created.body.id, is_active: false }),
    ]);
  });

  it("import_members (dry run, then for real), export_members as CSV text", async () => {
    const csv = "prénom,nom,courriel,fin abonnement\nAda,Lovelace,ada@test.org,2030-12-31\nBad,Line,nope,2030-12-31\n";
    const dry = await callTool(client, "import_members", { csv, dry_run: true });
    expect(dry.body).toMatchObject({ created: 1, dry_run: true, written: false });
    expect(dry.body.errors).toEqual([{ line: 3, detail: expect.stringContaining("nope") }]);
    const partial = await callTool(client, "import_members", { csv, partial: true, confirm: true });
    expect(partial.body).toMatchObject({ created: 1, written: true });
    // The same modes as HTTP: an existing email is left alone unless mode is update.
    const renamed = "courriel,prénom\nada@test.org,Augusta Ada\n";
    expect((await callTool(client, "import_members", { csv: renamed, mode: "update", dry_run: true })).body.changes).toEqual([
      { line: 2, member_id: expect.any(String), email: "ada@test.org", action: "update", fields: [{ field: "first_name", from: "Ada", to: "Augusta Ada" }] },
    ]);
    const kept = await callTool(client, "import_members", {
      csv: "prénom,nom,courriel,fin abonnement\nAugusta,Lovelace,ada@test.org,2031-12-31\n",
      confirm: true,
    });
    expect(kept.body).toMatchObject({ created: 0, skipped: 1, warnings: [{ line: 2, code: "MEMBER_EXISTS" }] });
    expect((await callTool(client, "import_members", { csv: renamed, mode: "update", confirm: true })).body).toMatchObject({ updated: 1, written: true });
    const exported = await callTool(client, "export_members", {});
    expect(exported.body.url).toBeNull();
    expect(exported.body.csv).toStartWith("id,referral_code,pass_serial_number,first_name");
    expect(exported.body.csv).toContain("Ada,Lovelace,ada@test.org");
    expect(exported.body.count).toBeGreaterThan(1);
    const ada = (await callTool(client, "list_members", { search: "ada@test.org" })).body.items[0];
    const one = await callTool(client, "export_members", { member_ids: ada.id });
    expect(one.body.count).toBe(1);
    expect(one.body.csv.trim().split("\r\n")).toHaveLength(2);
    expect((await callTool(client, "export_members", { member_ids: "x" })).body.code).toBe("VALIDATION_FAILED");
  });

  it("import_members takes its mode as the API's import does: one field, the same values, default and words", async () => {
    const tool = (await client.listTools()).tools.find((t) => t.name === "import_members");
    const mode = (tool?.inputSchema.properties as Record<string, { enum?: string[]; default?: unknown; description?: string }> | undefined)?.mode ?? {};
    const doc = (await env.call("GET", "/api/public/openapi.json", { key: null })).body;
    const param = doc.paths["/api/clubs/{club_id}/members/import"].post.parameters.find((p: { name: string }) => p.name === "mode");
    expect({ enum: mode.enum, default: mode.default, description: mode.description }).toEqual({
      enum: param.schema.enum,
      default: param.schema.default,
      description: param.description ?? param.schema.description,
    });
  });

  it("import_members takes a default tier_id and a tier column by name, and refuses another club's tier", async () => {
    const tier = await callTool(client, "create_tier", { name: "Bénévole", price_cents: 2000 });
    const csv = "first_name,last_name,email,membership_end,tier\nAna,Mcp,mcp-tier-a@test.org,2031-06-30,\nBo,Mcp,mcp-tier-b@test.org,2031-06-30,BENEVOLE\n";
    const res = await callTool(client, "import_members", { csv, tier_id: tier.body.id, confirm: true });
    expect(res.body).toMatchObject({ created: 2, errors: [], written: true });
    const tierOf = async (email: string) => (await env.db.read.select().from(members).where(eq(members.email, email)))[0].tier_id;
    expect([await tierOf("mcp-tier-a@test.org"), await tierOf("mcp-tier-b@test.org")]).toEqual([tier.body.id, tier.body.id]);
    const refused = await callTool(client, "import_members", { csv: csv.replaceAll("mcp-tier", "mcp-none"), tier_id: crypto.randomUUID(), confirm: true });
    expect(refused.body.code).toBe("VALIDATION_FAILED");
    expect((await env.db.read.select().from(members).where(eq(members.email, "mcp-none-a@test.org"))).length).toBe(0);
  });

  it("export_members gives the count and the export URL over 500 members", async () => {
    const big = await setup();
    const bigClient = await mcpClient(big);
    for (let i = 0; i < 501; i++) await seedMember(big);
    const res = await callTool(bigClient, "export_members");
    expect(res.body).toEqual({ count: 501, csv: null, url: `http://localhost/api/clubs/${big.clubId}/members/export` });
    await bigClient.close();
    await big.close();
  });

  it("send_card_email writes the mail (outbox here) and sets card_email_sent_at", async () => {
    const m = await seedMember(env, { email: "card@test.org" });
    const res = await callTool(client, "send_card_email", { member_id: m.id });
    expect(res.body).toMatchObject({ sent: true, to: "card@test.org" });
    expect((await memberRow(env, m.id)).card_email_sent_at).toBe(res.body.card_email_sent_at);
    const view = await mcpClient(env, await env.makeKey({ members: "edit", communication: "view" }));
    expect((await callTool(view, "send_card_email", { member_id: m.id })).body.code).toBe("SCOPE_MISSING");
    await view.close();
  });
});
