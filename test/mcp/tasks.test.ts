// Long tools as MCP tasks (2025-11-25's tasks, raw JSON-RPC as a client speaks it): a call asking
// for a task is answered at once with the task, which tasks/get, tasks/result, tasks/list and
// tasks/cancel then follow from the database (any process could answer them); an unconfirmed call
// is never a task; another key's task is not found; a task whose runner died is failed.
import { describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { mcpTasks, members } from "../../db/schema";
import { createTask, finishTask, renewTask, TASK_ERASED } from "../../lib/mcp-tasks";
import { createTaskSessionFromClient, resultFromTaskOutcome } from "@modelcontextprotocol/ext-tasks/client";
import type { JsonValue } from "@modelcontextprotocol/ext-tasks/core";
import { TASKS_EXTENSION } from "../../server/mcp-tasks";
import { ENVELOPE, listTools, MODERN, mcpClient, mcpSuite, modernPost } from "./client";

const s = mcpSuite();

const csvOf = (n: number, tag: string) =>
  `first_name,last_name,email,membership_end\n${Array.from({ length: n }, (_, i) => `T${i},${tag},${tag}${i}@example.org,2031-12-31`).join("\n")}\n`;

type Rpc = { result?: Record<string, unknown> & { task?: Record<string, unknown> }; error?: { code: number; message: string } };

let id = 0;
/** One raw 2025-11-25 request (the stateless endpoint needs no handshake), with `key` (default the owner's). */
async function rpc(method: string, params: Record<string, unknown>, key?: string): Promise<Rpc> {
  const headers = { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
  const res = await s.env.call("POST", "/mcp", { headers, key, body: { jsonrpc: "2.0", id: ++id, method, params } });
  expect(res.status).toBe(200);
  return res.body as Rpc;
}

/** The task a tools/call answered (fails the test when it answered none). */
function taskIdOf(answer: Rpc): string {
  const task = answer.result?.task as { taskId?: string } | undefined;
  if (!task?.taskId) throw new Error(`no task: ${JSON.stringify(answer).slice(0, 300)}`);
  return task.taskId;
}

/** A tool result's JSON text (a refusal's `{detail, code}`). */
const bodyOf = (answer: Rpc) => JSON.parse((answer.result?.content as { text: string }[] | undefined)?.[0]?.text ?? "null");

const taskRow = async (taskId: string) => (await s.env.db.read.select().from(mcpTasks).where(eq(mcpTasks.id, taskId)))[0];

describe("tasks (2025-11-25)", () => {
  it("declares tasks, and the long tools as optional tasks, the others forbidden", async () => {
    const init = await rpc("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } });
    expect(init.result?.capabilities).toMatchObject({ tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } });
    const { tools } = await listTools(s.client);
    const support = Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport]));
    expect(support).toMatchObject({ import_members: "optional", run_invoices: "optional", send_mailing: "optional", list_members: "forbidden" });
  });

  it("an import as a task: the task at once, then its result, the row and the members in the database", async () => {
    const created = await rpc("tools/call", { name: "import_members", arguments: { csv: csvOf(120, "task"), confirm: true }, task: { ttl: 600_000 } });
    const task = created.result?.task as { taskId: string; status: string; ttl: number; pollInterval: number };
    expect(task).toMatchObject({ status: "working", ttl: 600_000 });
    expect(task.pollInterval).toBeGreaterThan(0);

    const result = await rpc("tasks/result", { taskId: task.taskId });
    expect(result.result?.isError).toBeFalsy();
    expect(result.result?.structuredContent).toMatchObject({ created: 120, written: true });
    expect(result.result?._meta).toMatchObject({ "io.modelcontextprotocol/related-task": { taskId: task.taskId } });

    const got = await rpc("tasks/get", { taskId: task.taskId });
    expect(got.result).toMatchObject({ taskId: task.taskId, status: "completed", statusMessage: "120/120" });
    const row = await taskRow(task.taskId);
    expect(row).toMatchObject({ club_id: s.env.clubId, tool: "import_members", status: "completed", progress: 120, total: 120, lease_owner: null });
    expect(row.owner).toStartWith("key:");
    expect(row.result).toMatchObject({ structuredContent: { created: 120 } });
    expect(await s.env.db.read.select().from(members).where(eq(members.last_name, "task"))).toHaveLength(120);
  });

  it("the first SDK generation's client runs a dues run as a task (callToolStream) and reads it back", async () => {
    await listTools(s.client);
    const seen: string[] = [];
    let taskId = "";
    let result: Record<string, unknown> | undefined;
    const stream = s.client.experimental.tasks.callToolStream({ name: "run_invoices", arguments: { until: "2027-01-01", dry_run: true } }, undefined, {
      task: { ttl: 120_000 },
    });
    for await (const message of stream) {
      seen.push(message.type);
      if (message.type === "taskCreated") taskId = message.task.taskId;
      if (message.type === "result") result = message.result as Record<string, unknown>;
      if (message.type === "error") throw message.error;
    }
    expect(seen[0]).toBe("taskCreated");
    expect(seen.at(-1)).toBe("result");
    expect(result?.structuredContent).toMatchObject({ dry_run: true });
    expect(await s.client.experimental.tasks.getTask(taskId)).toMatchObject({ taskId, status: "completed" });
    expect((await s.client.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).toContain(taskId);
    expect(await taskRow(taskId)).toMatchObject({ tool: "run_invoices", status: "completed", ttl_ms: 120_000 });
  });

  it("an unconfirmed call is never a task: the refusal at once, nothing stored, nothing written", async () => {
    const before = (await s.env.db.read.select().from(mcpTasks)).length;
    const refused = await rpc("tools/call", { name: "import_members", arguments: { csv: csvOf(3, "unconfirmed") }, task: {} });
    expect(refused.result?.task).toBeUndefined();
    expect(refused.result?.isError).toBe(true);
    expect(bodyOf(refused)).toMatchObject({ code: "CONFIRMATION_REQUIRED" });
    expect(await s.env.db.read.select().from(mcpTasks)).toHaveLength(before);
    expect(await s.env.db.read.select().from(members).where(eq(members.last_name, "unconfirmed"))).toHaveLength(0);
  });

  it("a tool that is not long cannot be a task", async () => {
    const answer = await rpc("tools/call", { name: "list_members", arguments: {}, task: {} });
    expect(answer.error?.code).toBe(-32601);
  });

  it("a refusal of the verb fails the task; tasks/result answers the refusal", async () => {
    const created = await rpc("tools/call", {
      name: "send_mailing",
      arguments: { mailing_id: "0195c6a0-0000-7000-8000-000000000000", confirm: true },
      task: {},
    });
    const taskId = taskIdOf(created);
    const result = await rpc("tasks/result", { taskId });
    expect(result.result?.isError).toBe(true);
    expect(bodyOf(result)).toMatchObject({ code: "MAILING_NOT_FOUND" });
    expect(await taskRow(taskId)).toMatchObject({ status: "failed" });
  });

  it("another key's task is not found, nor listed, nor cancelled", async () => {
    const created = await rpc("tools/call", { name: "run_invoices", arguments: { until: "2027-01-01", dry_run: true }, task: {} });
    const taskId = taskIdOf(created);
    const other = await s.env.makeKey({ members: "edit", finances: "edit" });
    expect((await rpc("tasks/get", { taskId }, other)).error?.code).toBe(-32602);
    expect((await rpc("tasks/result", { taskId }, other)).error?.code).toBe(-32602);
    expect((await rpc("tasks/cancel", { taskId }, other)).error?.code).toBe(-32602);
    expect((await rpc("tasks/list", {}, other)).result?.tasks).toEqual([]);
    const mine = (await rpc("tasks/list", {})).result?.tasks as { taskId: string }[];
    expect(mine.map((t) => t.taskId)).toContain(taskId);
    expect((await rpc("tasks/result", { taskId })).result?.isError).toBeFalsy();
  });

  it("a member erased: the results of tasks that named them are erased, the tasks stay", async () => {
    const created = await rpc("tools/call", { name: "import_members", arguments: { csv: csvOf(2, "erasure"), mode: "update", dry_run: true }, task: {} });
    const taskId = taskIdOf(created);
    await rpc("tasks/result", { taskId });
    expect(JSON.stringify((await taskRow(taskId)).result)).toContain("erasure0@example.org");
    const [member] = await s.env.db.read.select().from(members).where(eq(members.email, "task0@example.org"));
    const named = await rpc("tools/call", {
      name: "import_members",
      arguments: { csv: csvOf(1, "task").replace("T0,", "Renamed,"), mode: "update", dry_run: true },
      task: {},
    });
    const namedId = taskIdOf(named);
    await rpc("tasks/result", { taskId: namedId });
    expect(JSON.stringify((await taskRow(namedId)).result)).toContain("task0@example.org");
    const erased = await rpc("tools/call", { name: "delete_member", arguments: { member_id: member.id, confirm: true } });
    expect(erased.result?.isError).toBeFalsy();
    expect(await taskRow(namedId)).toMatchObject({ status: "completed", result: null, status_message: TASK_ERASED });
    expect((await rpc("tasks/result", { taskId: namedId })).error?.code).toBe(-32600);
    expect((await taskRow(taskId)).result).not.toBeNull();
  });

  it("a task whose runner died (its lease lapsed) is failed when read, and its result says so", async () => {
    const owner = (await s.env.db.read.select().from(mcpTasks).limit(1))[0].owner;
    const lost = await createTask(s.env.db, { clubId: s.env.clubId, owner }, "import_members", 600_000);
    await s.env.db.tx((t) => t.update(mcpTasks).set({ lease_owner: "dead:1", lease_until: "2020-01-01T00:00:00.000Z" }).where(eq(mcpTasks.id, lost.id)));
    expect((await rpc("tasks/get", { taskId: lost.id })).result).toMatchObject({ status: "failed" });
    expect(await taskRow(lost.id)).toMatchObject({ status: "failed", lease_owner: null });
    const result = await rpc("tasks/result", { taskId: lost.id });
    expect(result.result?.isError).toBe(true);
  });

  it("cancel: a working task is cancelled at once and keeps no result; a finished one cannot be", async () => {
    const owner = (await s.env.db.read.select().from(mcpTasks).limit(1))[0].owner;
    const working = await createTask(s.env.db, { clubId: s.env.clubId, owner }, "import_members", 600_000);
    expect((await rpc("tasks/cancel", { taskId: working.id })).result).toMatchObject({ status: "cancelled" });
    expect(await taskRow(working.id)).toMatchObject({ status: "cancelled", result: null });
    // The runner's result, coming after the cancel, is dropped; its lease is not renewed.
    expect(await finishTask(s.env.db, working.id, "completed", { content: [] }, null)).toBe(false);
    expect(await renewTask(s.env.db, working.id)).toBe(false);
    expect(await taskRow(working.id)).toMatchObject({ status: "cancelled", result: null });
    expect((await rpc("tasks/cancel", { taskId: working.id })).error?.code).toBe(-32602);
    expect((await rpc("tasks/result", { taskId: working.id })).error?.code).toBe(-32600);
  });
});

/** The extension's client over a second-generation client pinned to 2026-07-28; its task traffic goes raw through the app. */
async function taskSession(key: string) {
  const client = await mcpClient(s.env, key, MODERN);
  const clientCapabilities = { extensions: { [TASKS_EXTENSION]: {} } };
  const rawDispatch = async (request: unknown) => {
    const { method, params } = request as { method: string; params: Record<string, unknown> };
    const name = params.name ?? params.taskId;
    const headers: Record<string, string> = { accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": method };
    if (typeof name === "string") headers["mcp-name"] = name;
    // The framed request is method and params: the JSON-RPC envelope is the dispatcher's.
    const res = await s.env.call("POST", "/mcp", { headers, key, body: { jsonrpc: "2.0", id: ++id, ...(request as object) } });
    const body = res.body as { result?: JsonValue; error?: { code: number; message: string } };
    return body.error ? { kind: "error" as const, error: body.error } : { kind: "result" as const, result: body.result as JsonValue };
  };
  const session = createTaskSessionFromClient(client, {
    endpointId: "test",
    rawDispatch,
    v2RequestFraming: { protocolVersion: MODERN, clientInfo: { name: "ext-tasks", version: "1" }, clientCapabilities },
  });
  return { client, session };
}

describe("tasks (2026-07-28, the tasks extension)", () => {
  it("the extension's client runs an import as a task to its result; the row holds it", async () => {
    const { client, session } = await taskSession(s.env.key);
    try {
      const execution = await session.callTool("import_members", { csv: csvOf(40, "extension"), confirm: true });
      const { outcome } = await execution.settle();
      const result = resultFromTaskOutcome(outcome) as { structuredContent?: Record<string, unknown> };
      expect(result.structuredContent).toMatchObject({ created: 40, written: true });
    } finally {
      await session.close();
      await client.close();
    }
    const rows = await s.env.db.read.select().from(mcpTasks).where(eq(mcpTasks.tool, "import_members"));
    expect(rows.filter((r) => (r.result as { structuredContent?: { created?: number } } | null)?.structuredContent?.created === 40)).toHaveLength(1);
    expect(await s.env.db.read.select().from(members).where(eq(members.last_name, "extension"))).toHaveLength(40);
  });

  it("a client that declared the extension gets a task answer at once; tasks/get gives the result inline; another key's is not found", async () => {
    const meta = { ...ENVELOPE, "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS_EXTENSION]: {} } } };
    const created = await modernPost(s.env, "tools/call", { name: "run_invoices", arguments: { until: "2027-01-01", dry_run: true } }, meta);
    const task = (created.body as { result: { resultType: string; taskId: string; status: string; ttlMs: number } }).result;
    expect(task).toMatchObject({ resultType: "task", status: "working", ttlMs: 3_600_000 });
    const get = async (key: string) => {
      const headers = { "mcp-protocol-version": MODERN, "mcp-method": "tasks/get", "mcp-name": task.taskId };
      const res = await s.env.call("POST", "/mcp", {
        headers,
        key,
        body: { jsonrpc: "2.0", id: 1, method: "tasks/get", params: { taskId: task.taskId, _meta: meta } },
      });
      return res.body as { result?: { status: string; result?: Record<string, unknown> }; error?: { code: number } };
    };
    let answer = await get(s.env.key);
    while (answer.result?.status === "working") answer = await get(s.env.key);
    expect(answer.result).toMatchObject({ status: "completed", result: { structuredContent: { dry_run: true } } });
    const other = await s.env.makeKey({ finances: "edit" });
    expect((await get(other)).error?.code).toBe(-32602);
    // Without the extension declared, the same call is answered in place.
    const plain = await modernPost(s.env, "tools/call", { name: "run_invoices", arguments: { until: "2027-01-01", dry_run: true } });
    expect((plain.body as { result: { resultType: string } }).result.resultType).toBe("complete");
  });
});
