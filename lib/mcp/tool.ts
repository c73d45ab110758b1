// How an MCP tool is declared: a name (SPEC "MCP server"), words an assistant can act on, the
// zod input schema (the same one the HTTP route validates with, where there is one), hints, and
// the schema of its answer (the HTTP route's response schema, so both transports promise one
// shape), and a run function that calls one lib/ verb. No MCP SDK here: server/mcp.ts registers these.
import type { z, ZodObject, ZodType } from "zod";
import type { Needs } from "../access";
import type { Ctx } from "../context";

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
  run(ctx: Ctx, input: z.output<S>): Promise<unknown>;
};

export function tool<S extends ZodObject>(def: ToolDef<S>): ToolDef<S> {
  return def;
}

export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
