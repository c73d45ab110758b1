// zod -> JSON Schema for the OpenAPI document (server/openapi.ts): named shapes (`.meta({ id })`)
// become components and are referenced, never copied; each shape is drawn on the side it is used
// on (a request's input side, an answer's output side).
import { type ZodType, z } from "zod";
import { mapSchemas } from "./json-schema";

const REF = "#/components/schemas/";

export type Json = Record<string, unknown>;
export type Io = "input" | "output";

/** What `z.stringbool()` accepts (any case): documented, so that a client knows "1" or "yes" will do. */
const STRINGBOOL_VALUES = ["true", "false", "1", "0", "yes", "no", "on", "off", "y", "n", "enabled", "disabled"];

/**
 * Options of every conversion. A `z.stringbool()` (a string piped into a boolean) would come out
 * as any string; it is documented with the values it takes.
 */
export const JSON_SCHEMA_OPTIONS = {
  unrepresentable: "any",
  override(c: { zodSchema: unknown; jsonSchema: Record<string, unknown> }) {
    const def = (c.zodSchema as { _zod?: { def?: { type?: string; out?: { _zod?: { def?: { type?: string } } } } } })._zod?.def;
    if (def?.type === "pipe" && def.out?._zod?.def?.type === "boolean" && c.jsonSchema.type === "string") c.jsonSchema.enum = STRINGBOOL_VALUES;
  },
} as const;

/**
 * The input side of a request shape, as a client must read it: a field with a default is
 * optional. openapi-typescript (and other generators) make a property that carries `default`
 * required in a named schema, so the default is said in the description instead.
 */
function defaultsInDescription(schema: Json): Json {
  return mapSchemas(schema, (obj) => {
    const props = obj.properties as Record<string, Json> | undefined;
    if (!props || typeof props !== "object") return obj;
    const properties: Record<string, Json> = {};
    for (const [name, prop] of Object.entries(props)) {
      if (!prop || typeof prop !== "object" || !("default" in prop)) {
        properties[name] = prop;
        continue;
      }
      const { default: value, ...rest } = prop;
      const said = `Default: \`${JSON.stringify(value)}\`.`;
      properties[name] = { ...rest, description: rest.description ? `${rest.description} ${said}` : said };
    }
    return { ...obj, properties };
  }) as Json;
}

const FORMATS = new Set(["date", "date-time", "email", "uuid"]);

/**
 * The output side of an answer: a string with a well-known format loses zod's validation
 * pattern, which says the same thing; sample answers (Swagger UI draws them from the pattern
 * when there is one) then show a plausible date or id, not the year 5732.
 */
function plainFormats(schema: Json): Json {
  return mapSchemas(schema, (obj) => {
    if (typeof obj.format !== "string" || !FORMATS.has(obj.format) || !("pattern" in obj)) return obj;
    const { pattern, ...rest } = obj;
    return rest;
  }) as Json;
}

const side = (io: Io, json: Json): Json => (io === "input" ? defaultsInDescription(json) : plainFormats(json));

/**
 * References point at the components; `additionalProperties: false` (zod's output side) is
 * dropped: answers gain fields over time, and a client that validates them against this
 * description must not break when one appears.
 */
export function cleanup(schema: unknown, refName: (id: string) => string): Json {
  return mapSchemas(schema, (obj) => {
    const { $schema, $id, $defs, ...rest } = obj;
    if (rest.additionalProperties === false) delete rest.additionalProperties;
    if (typeof rest.$ref === "string") rest.$ref = REF + refName(rest.$ref.replace(/^.*\//, ""));
    return rest;
  }) as Json;
}

/** The component names a schema refers to. */
function refsOf(node: unknown, out = new Set<string>()): Set<string> {
  mapSchemas(node, (schema) => {
    if (typeof schema.$ref === "string") out.add(schema.$ref.slice(REF.length));
    return schema;
  });
  return out;
}

/**
 * Named shapes as components. A shape is drawn on the side it is used on: request shapes on
 * their input side (defaults optional), answers on their output side (defaults always there).
 * A shape used on both sides whose two drawings differ (CardBackField: a request may leave out
 * `label`, an answer always has it), or that contains such a shape, gets a second component,
 * `<Name>Input`, for requests.
 */
export function buildSchemas(inputRoots: ZodType[], outputRoots: ZodType[]) {
  const registry = (io: Io): Record<string, Json> => {
    const { schemas } = z.toJSONSchema(z.globalRegistry, { ...JSON_SCHEMA_OPTIONS, io, uri: (id) => REF + id });
    return Object.fromEntries(
      Object.entries(schemas).map(([id, s]) => [
        id,
        side(
          io,
          cleanup(s, (name) => name),
        ),
      ]),
    );
  };
  const root = (schema: ZodType, io: Io): Json => {
    const id = z.globalRegistry.get(schema)?.id;
    return id
      ? { $ref: REF + id }
      : side(
          io,
          cleanup(z.toJSONSchema(schema, { ...JSON_SCHEMA_OPTIONS, io }), (name) => name),
        );
  };
  const inputs = registry("input");
  const outputs = registry("output");
  const reach = (roots: Json[], defs: Record<string, Json>) => {
    const seen = new Set<string>();
    const queue = roots.flatMap((r) => [...refsOf(r)]);
    while (queue.length) {
      const id = queue.pop() as string;
      if (seen.has(id) || !defs[id]) continue;
      seen.add(id);
      queue.push(...refsOf(defs[id]));
    }
    return seen;
  };
  const inputRootJson = inputRoots.map((s) => root(s, "input"));
  const usedIn = reach(inputRootJson, inputs);
  const usedOut = reach(
    outputRoots.map((s) => root(s, "output")),
    outputs,
  );
  const split = new Set([...usedIn].filter((id) => usedOut.has(id) && JSON.stringify(inputs[id]) !== JSON.stringify(outputs[id])));
  // A request shape holding a split one is drawn differently on each side too.
  for (let grew = true; grew; ) {
    grew = false;
    for (const id of usedIn) {
      if (split.has(id) || !usedOut.has(id) || ![...refsOf(inputs[id])].some((r) => split.has(r))) continue;
      split.add(id);
      grew = true;
    }
  }
  const toInput = (json: Json) => cleanup(json, (name) => (split.has(name) ? `${name}Input` : name));
  const components: Record<string, Json> = {};
  for (const id of [...new Set([...usedIn, ...usedOut])].sort()) {
    components[id] = usedIn.has(id) && !split.has(id) ? toInput(inputs[id]) : outputs[id];
    if (split.has(id)) components[`${id}Input`] = toInput(inputs[id]);
  }
  const convert = (schema: ZodType, io: Io): Json => (io === "input" ? toInput(root(schema, "input")) : root(schema, "output"));
  return { components, convert };
}
