// The JSON Schema an MCP client is shown for a tool's input, made from the tool's zod object in
// the one form every client reads. zod writes a nullable primitive as `type: ["boolean", "null"]`
// and a free-form record's values as `{}`; the MCP Inspector warns on both and some clients drop
// the parameter or the whole tool. Here a type list becomes `anyOf` branches and an empty
// `additionalProperties` (which means "anything") is left out.
import { type ZodObject, type ZodType, z } from "zod";
import { type JsonSchema as Schema, mapSchemas } from "./json-schema";

/** Keywords that describe the value as a whole; the rest constrain one type and go in its branch. */
const ANNOTATIONS = new Set(["$schema", "$id", "title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly"]);

const isSchema = (v: unknown): v is Schema => !!v && typeof v === "object" && !Array.isArray(v);

/** `{type: [a, b], ...}` as `{anyOf: [{type: a, ...}, {type: b}]}`, annotations kept outside. */
function splitTypes(schema: Schema): Schema {
  const types = schema.type as string[];
  if (types.length === 1) return { ...schema, type: types[0] };
  const outer: Schema = {};
  const inner: Schema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === "type") continue;
    if (ANNOTATIONS.has(k)) outer[k] = v;
    else inner[k] = v;
  }
  const branch = (type: string): Schema => {
    if (type === "null") return { type };
    const own: Schema = { type, ...inner };
    if (Array.isArray(own.enum)) own.enum = own.enum.filter((e) => e !== null);
    return own;
  };
  return { ...outer, anyOf: types.map(branch) };
}

/** A copy of `schema` with every nested schema made portable. */
export function portableSchema(schema: Schema): Schema {
  return mapSchemas(schema, (node) => {
    // Before the split, so that no branch carries it.
    if (isSchema(node.additionalProperties) && Object.keys(node.additionalProperties).length === 0) delete node.additionalProperties;
    return Array.isArray(node.type) ? splitTypes(node) : node;
  }) as Schema;
}

/**
 * A tool's input schema: an unnamed copy of its zod object (a named root would become a `$ref`,
 * and MCP wants `"type": "object"`), as the caller sends it (`io: "input"`), made portable.
 */
export function inputSchema(input: ZodObject): Schema & { type: "object" } {
  return portableSchema(z.toJSONSchema(z.object(input.shape), { target: "draft-7", io: "input" }) as Schema) as Schema & { type: "object" };
}

/** Whether a tool's answer is an object, given as `structuredContent` as is (else wrapped as `{result}`). */
export function answersObject(output: ZodType): boolean {
  return output.def.type === "object";
}

/**
 * A tool's output schema: its answer's zod schema (the HTTP route's response schema) as the
 * client receives it (`io: "output"`), made portable. MCP wants `"type": "object"` at the root,
 * so a named root (zod writes it as a `$ref`) is inlined beside its definitions, and an answer
 * that is not an object is described as `{result}`, the way callTool wraps it.
 */
export function outputSchema(output: ZodType): Schema & { type: "object" } {
  const { $schema, $ref, definitions, ...rest } = z.toJSONSchema(output, { target: "draft-7", io: "output" }) as Schema & {
    $ref?: string;
    definitions?: Record<string, Schema>;
  };
  const root = typeof $ref === "string" && definitions ? (definitions[$ref.replace("#/definitions/", "")] ?? rest) : rest;
  const shaped = answersObject(output) ? root : { type: "object", properties: { result: root }, required: ["result"], additionalProperties: false };
  return portableSchema({ $schema, ...shaped, ...(definitions ? { definitions } : {}) }) as Schema & { type: "object" };
}
