// The interactive docs: Swagger UI, loaded from the installed package so that it works with no
// internet, reading the OpenAPI document (server/openapi.ts) the server answers at SPEC_PATH.
import { join } from "node:path";

export const DOCS_PATH = "/api/public/docs";
export const SPEC_PATH = "/api/public/openapi.json";
const ASSETS = join(import.meta.dir, "..", "node_modules", "swagger-ui-dist");

/** The API's name: the docs page's title and the document's (server/openapi.ts). */
export const TITLE = "Membership club API";

/** The docs page: Swagger UI, from this server's own copy, reading the OpenAPI document. */
export function docsPage(): Response {
  const options = JSON.stringify({ dom_id: "#swagger-ui", url: SPEC_PATH, persistAuthorization: true });
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>${TITLE}</title>
  <link rel="stylesheet" href="${DOCS_PATH}/assets/swagger-ui.css" />
  <style>
    @media (prefers-color-scheme: dark) {
      body { background-color: #222; }
      .swagger-ui { filter: invert(92%) hue-rotate(180deg); }
      .swagger-ui .microlight { filter: invert(100%) hue-rotate(180deg); }
    }
  </style>
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${DOCS_PATH}/assets/swagger-ui-bundle.js"></script>
  <script>window.onload = () => { window.ui = SwaggerUIBundle(${options}); };</script>
</body>
</html>`;
  return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
}

/** Serves Swagger UI's files from node_modules (no CDN). */
export async function docsAsset(name: string): Promise<Response> {
  if (!/^[\w.-]+$/.test(name)) return new Response("not found", { status: 404 });
  const file = Bun.file(join(ASSETS, name));
  if (!(await file.exists())) return new Response("not found", { status: 404 });
  return new Response(file);
}
