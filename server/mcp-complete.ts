// `completion/complete` for /mcp: the values a prompt's argument or a resource template's variable
// may take, when its zod schema lists them (an enum such as a member's status, a literal), those
// beginning with what the user has typed. Free text (a search, a month, a number) has no
// suggestions: an empty list. Nothing is read from the database, so no scope is needed beyond
// the key that reached /mcp, as for `prompts/list`.
import { ProtocolError, ProtocolErrorCode, type CompleteRequestParams, type CompleteResult } from "@modelcontextprotocol/server";
import { type ZodType, z } from "zod";
import { PROMPTS, RESOURCES, resourceUri } from "../lib/mcp";

/** The protocol's limit on the values of one answer. */
const MAX_VALUES = 100;

const NONE: CompleteResult = { completion: { values: [], total: 0, hasMore: false } };

const choicesCache = new WeakMap<ZodType, string[]>();

/** The values a schema accepts when it lists them (`enum`, `const`, in any branch), else none. */
function choicesOf(schema: ZodType): string[] {
  let found = choicesCache.get(schema);
  if (found) return found;
  const values = new Set<string>();
  const walk = (node: unknown) => {
    if (!node || typeof node !== "object") return;
    const s = node as Record<string, unknown>;
    if (Array.isArray(s.enum)) for (const v of s.enum) if (v !== null) values.add(String(v));
    if (s.const !== undefined && s.const !== null) values.add(String(s.const));
    for (const key of ["anyOf", "oneOf", "allOf"]) if (Array.isArray(s[key])) (s[key] as unknown[]).forEach(walk);
  };
  walk(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }));
  found = [...values];
  choicesCache.set(schema, found);
  return found;
}

/** A field of a zod object's shape; an inherited name (`constructor`, `__proto__`) is none. */
const fieldOf = (shape: Record<string, unknown> | undefined, name: string) => (shape && Object.hasOwn(shape, name) ? (shape[name] as ZodType) : undefined);

/** The schema `ref` names the argument or variable of; a prompt or template that does not exist is invalid params. */
function argumentSchema(clubId: string, params: CompleteRequestParams): ZodType | undefined {
  const { ref, argument } = params;
  if (ref.type === "ref/prompt") {
    const prompt = PROMPTS.find((def) => def.name === ref.name);
    if (!prompt) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${ref.name}`);
    return fieldOf(prompt.args.shape, argument.name);
  }
  const def = RESOURCES.find((def) => resourceUri(clubId, def) === ref.uri);
  if (!def) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown resource template: ${ref.uri}`);
  return fieldOf(def.query?.shape, argument.name);
}

/** Suggestions for one argument: its listed values beginning with the typed text (case ignored), at most 100. */
export function complete(clubId: string, params: CompleteRequestParams): CompleteResult {
  const schema = argumentSchema(clubId, params);
  if (!schema) return NONE;
  const typed = params.argument.value.toLowerCase();
  const matches = choicesOf(schema).filter((v) => v.toLowerCase().startsWith(typed));
  return { completion: { values: matches.slice(0, MAX_VALUES), total: matches.length, hasMore: matches.length > MAX_VALUES } };
}
