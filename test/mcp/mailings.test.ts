// The MCP mailing tools through the SDK client (issue 29): create_mailing and preview_mailing run
// the verbs of POST mailings and GET mailings/<id>/preview; send_mailing asks first and sends only with
// `confirm: true`, and without it answers the count and a few names and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { jobs, mailingRecipients, mailings } from "../../db/schema";
import { insertTier } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";
import { seedMember } from "../members-fixtures";
import { callTool, mcpClient } from "./client";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

describe("mailing tools", () => {
  it("create_mailing, preview_mailing; send_mailing without confirm changes nothing, with confirm sends", async () => {
    const tier = await insertTier(env, { name: "Juniors" });
    const ada = await seedMember(env, { first_name: "Ada", last_name: "Byron", tier_id: tier.id });
    await seedMember(env, { first_name: "Bea", last_name: "Cole", tier_id: tier.id, mailing_opt_out_at: new Date().toISOString() });
    await seedMember(env, { first_name: "Out", last_name: "Side" });
    const client = await mcpClient(env, await env.makeKey({ communication: "edit" } as never));
    try {
      const made = await callTool(client, "create_mailing", { subject: "Salut {{first_name}}", body_markdown: "**Hello**", audience: { tier_ids: [tier.id] } });
      expect(made.isError).toBe(false);
      expect(made.body).toMatchObject({ status: "draft", audience: { tier_ids: [tier.id] } });

      const bad = await callTool(client, "create_mailing", { subject: "x {{nope}}", body_markdown: "b" });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.body)).toContain("{{nope}}");

      const preview = await callTool(client, "preview_mailing", { mailing_id: made.body.id, member_id: ada.id });
      expect(preview.body).toMatchObject({ subject: "Salut Ada", to: ada.email });
      expect(preview.body.html).toContain("<strong>Hello</strong>");

      const jobsBefore = (await env.db.read.select().from(jobs)).length;
      const dry = await callTool(client, "send_mailing", { mailing_id: made.body.id });
      expect(dry.isError).toBe(true);
      expect(dry.body.code).toBe("CONFIRMATION_REQUIRED");
      expect(dry.body.would).toEqual({
        mailing_id: made.body.id,
        subject: made.body.subject,
        recipients: 2,
        skipped: 1,
        sample: [expect.objectContaining({ name: "Ada Byron" }), expect.objectContaining({ name: "Bea Cole" })],
      });
      expect(dry.body.detail).toContain("à 1 membre(s) (1 écarté(s)");
      expect((await env.db.read.select().from(mailings).where(eq(mailings.id, made.body.id)))[0].status).toBe("draft");
      expect(await env.db.read.select().from(mailingRecipients).where(eq(mailingRecipients.mailing_id, made.body.id))).toHaveLength(0);
      expect(await env.db.read.select().from(jobs)).toHaveLength(jobsBefore);

      const sent = await callTool(client, "send_mailing", { mailing_id: made.body.id, confirm: true });
      expect(sent.body).toMatchObject({ status: "sending", counts: { recipients: 2, skipped_opt_out: 1 } });
      const again = await callTool(client, "send_mailing", { mailing_id: made.body.id, confirm: true });
      expect(again.isError).toBe(true);
      expect(again.body.code).toBe("MAILING_NOT_SENDABLE");
    } finally {
      await client.close();
    }
    const viewer = await mcpClient(env, await env.makeKey({ communication: "view" } as never));
    try {
      const refused = await callTool(viewer, "send_mailing", { mailing_id: crypto.randomUUID() });
      expect(refused.isError).toBe(true);
      expect(refused.body.code).toBe("SCOPE_MISSING");
    } finally {
      await viewer.close();
    }
  });
});
