// MCP tasks on the wire (the 2025-11-25 revision's vocabulary; DESIGN.md section 23): a long tool
// call that asks for a task is answered at once with the task, and runs on in this process; its
// state is lib/mcp-tasks's row, so `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel`
// are answered by whichever process the client reaches. The SDK 2.x keeps these methods' types
// but no runtime: they are registered here as custom methods with their params' schemas.
import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
  type Server,
  type Task,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { type Ctx, type Progress, throttledProgress } from "../lib/context";
import {
  cancelTask,
  createTask,
  findTask,
  finishTask,
  listTasks,
  renewTask,
  TASK_ERASED,
  TASK_LEASE_MS,
  type TaskOwner,
  type TaskRow,
  taskProgress,
  taskTtl,
} from "../lib/mcp-tasks";
import { t } from "../lib/i18n";
import { errorAnswer } from "../http/errors";
import { keyOwner } from "./idempotency";

/** What the server declares: tasks listed and cancelled, and tool calls as tasks. */
export const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/** How often a client should poll `tasks/get`, and how often `tasks/result` reads the row while it waits. */
const POLL_MS = 1_000;
const WAIT_MS = 200;
/** Progress written to the row a second apart at most, and the last report always. */
const PROGRESS_EVERY_MS = 1_000;

const TASK_PARAMS = z.object({ taskId: z.string() });
const LIST_PARAMS = z.object({ cursor: z.string().optional() }).optional();

const ownerOf = (ctx: Ctx): TaskOwner => ({ clubId: ctx.clubId, owner: keyOwner(ctx.actor) });

/** A task as the protocol shows it; its progress is in the status message ("done/total"). */
export function taskOf(row: TaskRow): Task {
  return {
    taskId: row.id,
    status: row.status as Task["status"],
    ttl: row.ttl_ms,
    createdAt: row.created_at,
    lastUpdatedAt: row.updated_at,
    pollInterval: POLL_MS,
    ...(row.status_message ? { statusMessage: row.status_message } : {}),
  };
}

/** A tool result's refusal detail, for the failed task's status message. */
function detailOf(result: CallToolResult): string | null {
  const text = result.content[0]?.type === "text" ? result.content[0].text : "";
  try {
    const detail = (JSON.parse(text) as { detail?: unknown }).detail;
    return typeof detail === "string" ? detail.slice(0, 500) : null;
  } catch {
    return null;
  }
}

/** A refusal of our own failure (a runner that threw: logged), as a tool result. */
function failure(ctx: Ctx, err: unknown): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify(errorAnswer(err, ctx.locale).body) }] };
}

/** The result of a task lost with its runner (already logged where it died, if anywhere): our failure. */
const lostResult = (ctx: Ctx): CallToolResult => ({
  isError: true,
  content: [{ type: "text", text: JSON.stringify({ detail: t(ctx.locale, "INTERNAL"), code: "INTERNAL" }) }],
});

/** The 2026-07-28 revision's tasks extension: its id in capabilities, declared by client and server. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** Whether a 2026-07-28 request's client declared the tasks extension (in its `_meta` envelope). */
export function declaresTasks(envelope: unknown): boolean {
  const capabilities = (envelope as Record<string, { extensions?: Record<string, unknown> } | undefined> | undefined)?.[CLIENT_CAPABILITIES_META_KEY];
  return !!capabilities?.extensions?.[TASKS_EXTENSION];
}

/** A task as the extension shows it (2026-07-28: `ttlMs`, `pollIntervalMs`). */
function taskV2Of(row: TaskRow) {
  const { ttl, pollInterval, ...task } = taskOf(row);
  return { ...task, ttlMs: ttl, pollIntervalMs: pollInterval };
}

/**
 * The answer to a tools/call made a task. 2025-11-25: CreateTaskResult (`task`), with the task as
 * text content too: the SDK 2.x checks every tools/call result as a CallToolResult, whose `content`
 * it requires beside a `task`; the result is both, and a client that asked for a task reads `task`.
 * 2026-07-28: the extension's `resultType: "task"` with the task's fields.
 */
export function taskCreated(row: TaskRow, modern: boolean) {
  if (modern) return { resultType: "task", ...taskV2Of(row) };
  const task = taskOf(row);
  return { task, content: [{ type: "text" as const, text: JSON.stringify({ task }) }] };
}

/**
 * Starts a confirmed, checked tool call as a task: the row first (held by this process), then the
 * call in the background with its progress going to the row and its lease renewed while it runs.
 * A result refusing the call (`isError`) fails the task; `tasks/result` answers it either way.
 */
export async function startTask(ctx: Ctx, tool: string, ttl: number | undefined, run: (progress: Progress) => Promise<CallToolResult>): Promise<TaskRow> {
  const row = await createTask(ctx.db, ownerOf(ctx), tool, taskTtl(ttl));
  const renewal = setInterval(() => renewTask(ctx.db, row.id).catch(() => {}), TASK_LEASE_MS / 3);
  // One write after the other, all before the outcome: a late report never lands after it.
  let writes = Promise.resolve();
  const progress = throttledProgress((done, total) => {
    writes = writes.then(() => taskProgress(ctx.db, row.id, done, total)).catch(() => {});
  }, PROGRESS_EVERY_MS);
  void run(progress)
    .catch((err) => failure(ctx, err))
    .then(async (result) => {
      await writes;
      return result;
    })
    .then((result) => finishTask(ctx.db, row.id, result.isError ? "failed" : "completed", result, result.isError ? detailOf(result) : null))
    .catch((err) => console.error("mcp task: its outcome was not stored:", err))
    .finally(() => clearInterval(renewal));
  return row;
}

function notFound(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, "Task not found");
}

async function found(ctx: Ctx, taskId: string): Promise<TaskRow> {
  const row = await findTask(ctx.db, ownerOf(ctx), taskId);
  if (!row) throw notFound();
  return row;
}

/**
 * The call's own result once the task is over (waiting for it as the revision asks, reading the
 * row): the tool's result or refusal, marked with the task; a task lost with its runner answers
 * our failure; a cancelled one has none.
 */
async function resultOf(ctx: Ctx, taskId: string): Promise<CallToolResult> {
  let row = await found(ctx, taskId);
  while (row.status === "working") {
    await Bun.sleep(WAIT_MS);
    row = await found(ctx, taskId);
  }
  if (row.status === "cancelled") throw new ProtocolError(ProtocolErrorCode.InvalidRequest, "Task cancelled: it has no result");
  if (row.status_message === TASK_ERASED)
    throw new ProtocolError(ProtocolErrorCode.InvalidRequest, "Task done, but its result named a member erased since: it is no longer kept");
  const result = (row.result as CallToolResult | null) ?? lostResult(ctx);
  return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId } } };
}

/** `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel`: the caller's own tasks; another's is not found. */
export function answerTasks(server: Server, ctx: Ctx) {
  server.setRequestHandler("tasks/get", { params: TASK_PARAMS }, async (params) => taskOf(await found(ctx, params.taskId)));
  server.setRequestHandler("tasks/result", { params: TASK_PARAMS }, (params) => resultOf(ctx, params.taskId));
  server.setRequestHandler("tasks/list", { params: LIST_PARAMS }, async (params) => {
    const { tasks, next } = await listTasks(ctx.db, ownerOf(ctx), params?.cursor);
    return { tasks: tasks.map(taskOf), ...(next ? { nextCursor: next } : {}) };
  });
  server.setRequestHandler("tasks/cancel", { params: TASK_PARAMS }, async (params) => {
    const row = await cancelTask(ctx.db, ownerOf(ctx), params.taskId);
    if (!row) throw notFound();
    if (row === "terminal") throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Task already finished: it cannot be cancelled");
    return taskOf(row);
  });
}

/**
 * The extension's task as `tasks/get` answers it (2026-07-28): the tool's result inline once
 * completed (a refusal of the verb is a completed call whose result is `isError`, as without a
 * task); a task lost with its runner failed with our failure as a JSON-RPC error.
 */
function detailedV2(ctx: Ctx, row: TaskRow) {
  const task = taskV2Of(row);
  if (row.status === "completed" || (row.status === "failed" && row.result)) {
    return { ...task, status: "completed" as const, result: { ...row.result, resultType: "complete" } };
  }
  if (row.status === "failed") {
    const body = JSON.parse((lostResult(ctx).content[0] as { text: string }).text) as { detail: string };
    return { ...task, error: { code: ProtocolErrorCode.InternalError, message: body.detail, data: { status: 500, ...body } } };
  }
  return task;
}

/** The extension's `tasks/get` and `tasks/cancel` (2026-07-28: no tasks/result, no tasks/list; the result comes with the task). */
export function answerTasksV2(server: Server, ctx: Ctx) {
  server.setRequestHandler("tasks/get", { params: TASK_PARAMS }, async (params) => detailedV2(ctx, await found(ctx, params.taskId)));
  server.setRequestHandler("tasks/cancel", { params: TASK_PARAMS }, async (params) => {
    const row = await cancelTask(ctx.db, ownerOf(ctx), params.taskId);
    if (!row) throw notFound();
    if (row === "terminal") throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Task already finished: it cannot be cancelled");
    return {};
  });
}
