// A long tool reports how far it has come when the call carries a progress token
// (`notifications/progress`, on the answer's event stream), on both revisions: an import of
// members line by line, the dues run member by member. Without a token the answer stays plain JSON.
import { describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { members } from "../../db/schema";
import { seedMember } from "../members-fixtures";
import { MODERN, mcpClient, mcpSuite } from "./client";

const s = mcpSuite();

type Report = { progress: number; total?: number };

const csvOf = (n: number, tag: string) =>
  `first_name,last_name,email,membership_end\n${Array.from({ length: n }, (_, i) => `P${i},${tag},${tag}${i}@example.org,2031-12-31`).join("\n")}\n`;

describe("progress", () => {
  it("import_members reports lines done of the file's, the last one all of them (2025-11-25 client)", async () => {
    const reports: Report[] = [];
    const res = await s.client.callTool({ name: "import_members", arguments: { csv: csvOf(300, "prog"), confirm: true } }, undefined, {
      onprogress: (p) => reports.push(p),
    });
    expect(res.isError).toBeFalsy();
    expect(reports.length).toBeGreaterThan(0);
    expect(reports.at(-1)).toMatchObject({ progress: 300, total: 300 });
    for (const [i, r] of reports.entries()) if (i > 0) expect(r.progress).toBeGreaterThanOrEqual(reports[i - 1].progress);
    expect(await s.env.db.read.select().from(members).where(eq(members.last_name, "prog"))).toHaveLength(300);
  });

  it("run_invoices reports the members gone through (2026-07-28 client)", async () => {
    for (let i = 0; i < 3; i++) await seedMember(s.env, { email: `due${i}@example.org`, membership_end: "2026-12-01" });
    const client = await mcpClient(s.env, s.env.key, MODERN);
    const reports: Report[] = [];
    const res = await client.callTool({ name: "run_invoices", arguments: { until: "2027-01-01", dry_run: true } }, { onprogress: (p) => reports.push(p) });
    expect(res.isError).toBeFalsy();
    const run = res.structuredContent as { created: number; skipped: { nothing_to_pay: number; already_invoiced: number } };
    const through = run.created + run.skipped.nothing_to_pay + run.skipped.already_invoiced;
    expect(through).toBeGreaterThanOrEqual(3);
    expect(reports.at(-1)?.total).toBe(through);
    expect(reports.at(-1)?.progress).toBe(reports.at(-1)?.total);
    await client.close();
  });

  it("without a progress token the answer is JSON, with one an event stream", async () => {
    const body = (meta: Record<string, unknown>) => ({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "import_members", arguments: { csv: csvOf(2, "raw"), dry_run: true }, _meta: meta },
    });
    const headers = { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
    const plain = await s.env.app.handle(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: { ...headers, "content-type": "application/json", authorization: `Bearer ${s.env.key}` },
        body: JSON.stringify(body({})),
      }),
    );
    expect(plain.headers.get("content-type")).toContain("application/json");
    const streamed = await s.env.app.handle(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: { ...headers, "content-type": "application/json", authorization: `Bearer ${s.env.key}` },
        body: JSON.stringify(body({ progressToken: "t1" })),
      }),
    );
    expect(streamed.headers.get("content-type")).toContain("text/event-stream");
    const text = await streamed.text();
    expect(text).toContain('"method":"notifications/progress"');
    expect(text).toContain('"progressToken":"t1"');
    expect(text.indexOf("notifications/progress")).toBeLessThan(text.indexOf('"result"'));
  });
});
