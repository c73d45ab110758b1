// The OpenAPI 3.1 description and the interactive docs, both generated from the same zod
// schemas that validate requests. Named shapes (`.meta({ id })`) become components and are
// referenced, never copied. The docs page loads Swagger UI from the installed package, so it
// works with no internet.
import { join } from "node:path";
import { openapi } from "@elysiajs/openapi";
import { z, type ZodType } from "zod";

export const DOCS_PATH = "/api/public/docs";
export const SPEC_PATH = "/api/public/openapi.json";
const ASSETS = join(import.meta.dir, "..", "node_modules", "swagger-ui-dist");

/** Shapes read from clients are drawn with their defaults optional ("input" side). */
const isInputShape = (id: string) => /(Create|Update|Request|Payload)$/.test(id);

function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "$schema" || k === "$defs" || k === "$id") continue;
    out[k] = k === "$ref" && typeof v === "string" ? v.replace("#/$defs/", "#/components/schemas/") : rewriteRefs(v);
  }
  return out;
}

/** What `z.stringbool()` accepts (any case): documented, so that a client knows "1" or "yes" will do. */
const STRINGBOOL_VALUES = ["true", "false", "1", "0", "yes", "no", "on", "off", "y", "n", "enabled", "disabled"];

/**
 * Options of every conversion. A `z.stringbool()` (a string piped into a boolean) would come out
 * as any string; it is documented with the values it takes.
 */
const JSON_SCHEMA_OPTIONS = {
  unrepresentable: "any",
  override(c: { zodSchema: unknown; jsonSchema: Record<string, unknown> }) {
    const def = (c.zodSchema as { _zod?: { def?: { type?: string; out?: { _zod?: { def?: { type?: string } } } } } })._zod?.def;
    if (def?.type === "pipe" && def.out?._zod?.def?.type === "boolean" && c.jsonSchema.type === "string") c.jsonSchema.enum = STRINGBOOL_VALUES;
  },
} as const;

export function toOpenApiSchema(schema: ZodType, io?: "input" | "output"): Record<string, unknown> {
  const id = z.globalRegistry.get(schema)?.id;
  if (id) return { $ref: `#/components/schemas/${id}` };
  const json = z.toJSONSchema(schema, { ...JSON_SCHEMA_OPTIONS, io: io ?? "input" });
  return rewriteRefs(json) as Record<string, unknown>;
}

export function componentSchemas(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [schema, meta] of z.globalRegistry._idmap) {
    const json = z.toJSONSchema(meta, { ...JSON_SCHEMA_OPTIONS, io: isInputShape(schema) ? "input" : "output" }) as Record<string, unknown>;
    // The root of a named shape comes back as a $ref to its own $defs entry: unwrap it.
    const root = (json.$defs as Record<string, unknown> | undefined)?.[schema] ?? json;
    out[schema] = rewriteRefs(root);
  }
  return out;
}

export function docsPlugin() {
  return openapi({
    path: DOCS_PATH,
    specPath: SPEC_PATH,
    provider: "swagger-ui",
    exclude: { paths: [DOCS_PATH, SPEC_PATH, `${DOCS_PATH}/assets/*`] },
    mapJsonSchema: { zod: (schema: ZodType) => toOpenApiSchema(schema) },
    swagger: {
      // Absolute: the plugin's default is relative to the page and resolves to a wrong address.
      url: SPEC_PATH,
      theme: `${DOCS_PATH}/assets/swagger-ui.css`,
      cdn: `${DOCS_PATH}/assets/swagger-ui-bundle.js`,
      autoDarkMode: true,
      persistAuthorization: true,
    } as never,
    documentation: {
      openapi: "3.1.0",
      info: {
        title: "Membership club API",
        version: "1.0",
        description:
          "The API a club's spreadsheet, website, automation or AI assistant uses to run one club. Call `GET /api/auth/me` first: its `club_id` goes in every club route. Amounts are integer cents, dates ISO 8601 UTC, ids UUIDs. Errors are JSON `{detail, code}`; validation errors (422) list `{loc, msg, type}` items. The same operations are MCP tools at `/mcp`.",
      },
      components: {
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer", description: "An API key (`mk_live_...`), or a dashboard session token for the account routes." },
        },
        schemas: componentSchemas() as never,
      },
      tags: [
        { name: "auth", description: "Who is calling" },
        { name: "clubs", description: "The club's settings" },
        { name: "audit", description: "The audit log" },
        { name: "cards", description: "Membership cards: verifying a scanned card" },
        { name: "attendance", description: "Card scans over days and periods" },
        { name: "account", description: "Dashboard-session routes (keys get 403)" },
        { name: "events", description: "Events, tickets, registrations and check-in" },
        { name: "promo-codes", description: "Promo codes" },
        { name: "stats", description: "Member counts and revenue" },
        { name: "public", description: "Public event pages and registration (no credentials; outside the stable subset)" },
      ],
    },
  });
}

/** Serves Swagger UI's files from node_modules (no CDN). */
export async function docsAsset(name: string): Promise<Response> {
  if (!/^[\w.-]+$/.test(name)) return new Response("not found", { status: 404 });
  const file = Bun.file(join(ASSETS, name));
  if (!(await file.exists())) return new Response("not found", { status: 404 });
  return new Response(file);
}
