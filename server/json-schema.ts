// The one walk over a JSON Schema, for both places that reshape what zod writes: the OpenAPI
// document's shapes (server/openapi-schemas.ts) and the MCP tools' schemas (server/mcp-schema.ts).
export type JsonSchema = Record<string, unknown>;

/** Values, not schemas: left as they are. */
const LITERAL_KEYS = new Set(["examples", "example", "default", "const", "enum"]);
/** Maps from a name to a schema: the map itself is no schema. */
const MAP_KEYS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/** Applies `fn` to every schema of a JSON Schema, innermost first (values such as `examples` are left alone). */
export function mapSchemas(node: unknown, fn: (schema: JsonSchema) => JsonSchema): unknown {
  if (Array.isArray(node)) return node.map((n) => mapSchemas(n, fn));
  if (!node || typeof node !== "object") return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) {
    if (LITERAL_KEYS.has(k)) out[k] = v;
    else if (MAP_KEYS.has(k) && v && typeof v === "object") out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, mapSchemas(s, fn)]));
    else out[k] = mapSchemas(v, fn);
  }
  return fn(out);
}
