// How an MCP tool is declared: a name (SPEC "MCP server"), words an assistant can act on, the
// zod input schema (the same one the HTTP route validates with, where there is one), hints, and
// the schema of its answer (the HTTP route's response schema, so both transports promise one
// shape), and a run function that calls one lib/ verb. No MCP SDK here: server/mcp.ts registers these.
import type { z, ZodObject, ZodType } from "zod";
import type { Needs } from "../access";
import type { Ctx, Progress } from "../context";

/** A resource an answer points to (MCP's `resource_link` content). */
export type ResourceLink = { uri: string; name: string; title?: string; mimeType?: string; description?: string };

export type ToolAnnotations = { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };

export type ToolDef<S extends ZodObject = ZodObject> = {
  name: string;
  title: string;
  description: string;
  input: S;
  annotations: ToolAnnotations;
  /** What `run` answers: an object schema is the tool's `structuredContent` as is; any other is wrapped as `{result}`. */
  output: ZodType;
  /**
   * The scope(s) of the verb `run` calls (its `.scope`; null: any admin of the club): `tools/list`
   * shows the tool only to a caller holding them, and a call without them is refused before its
   * arguments are read, as the HTTP route refuses before the body.
   */
  scope: Needs | null;
  /** A destructive or mass tool (DESIGN.md section 23): runs only once the user has confirmed. */
  confirm?: Confirmation<S>;
  /**
   * A long tool (an import, a dues run, a mailing): a client that supports tasks may run it as one
   * (`execution.taskSupport: "optional"`), answered at once and polled (server/mcp-tasks.ts).
   */
  task?: boolean;
  /** Resources the answer names (an invoice's PDF): shown after it as resource links. */
  links?(ctx: Ctx, result: unknown): ResourceLink[];
  /** `progress`: set when the call asked for progress (a token); a long verb reports through it. */
  run(ctx: Ctx, input: z.output<S>, progress?: Progress): Promise<unknown>;
};

/**
 * How a tool asks before it acts. Unconfirmed, the call changes nothing: the client is asked
 * through the protocol where it can answer (the input request of 2026-07-28), else the call is
 * refused with `CONFIRMATION_REQUIRED`, the question and what it would do (`would`), and
 * `confirm: true` runs it.
 */
export type Confirmation<S extends ZodObject = ZodObject> = {
  /** What the call would do, changing nothing: counts, names, a sample. */
  preview(ctx: Ctx, input: z.output<S>): Promise<Record<string, unknown>>;
  /** The question put to the user, in the caller's language, from the preview. */
  question(ctx: Ctx, input: z.output<S>, preview: Record<string, unknown>): string;
  /** A call that changes nothing anyway (a dry run) runs without asking. */
  needless?(input: z.output<S>): boolean;
};

export function tool<S extends ZodObject>(def: ToolDef<S>): ToolDef<S> {
  return def;
}

export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
