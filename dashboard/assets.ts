// The dashboard's static files, served from this process: htmx from the installed package (no
// CDN: the dashboard works offline) and our stylesheet and script. Each URL carries a hash of
// the file's bytes, so the answer may be cached for a year and a new version is a new URL.
import { readFileSync } from "node:fs";
import { join } from "node:path";

type Asset = { body: Uint8Array<ArrayBuffer>; type: string; hash: string };

const FILES: Record<string, { path: string; type: string }> = {
  "htmx.min.js": { path: require.resolve("htmx.org/dist/htmx.min.js"), type: "text/javascript; charset=utf-8" },
  "dashboard.css": { path: join(import.meta.dir, "assets", "dashboard.css"), type: "text/css; charset=utf-8" },
  "dashboard.js": { path: join(import.meta.dir, "assets", "dashboard.js"), type: "text/javascript; charset=utf-8" },
  // The door's scanner, and the QR decoder it loads where the browser has no BarcodeDetector.
  "door.js": { path: join(import.meta.dir, "assets", "door.js"), type: "text/javascript; charset=utf-8" },
  // The tab's icon, linked by every page: without it the browser asks for /favicon.ico (a 404 in its console).
  "favicon.svg": { path: join(import.meta.dir, "assets", "favicon.svg"), type: "image/svg+xml" },
  "jsQR.js": { path: require.resolve("jsqr/dist/jsQR.js"), type: "text/javascript; charset=utf-8" },
};

let loaded: Map<string, Asset> | undefined;

function assets(): Map<string, Asset> {
  if (loaded) return loaded;
  loaded = new Map();
  for (const [name, { path, type }] of Object.entries(FILES)) {
    const body = new Uint8Array(readFileSync(path));
    loaded.set(name, { body, type, hash: new Bun.CryptoHasher("sha256").update(body).digest("hex").slice(0, 12) });
  }
  return loaded;
}

/** The URL a page links the asset with (its hash in the query). */
export function assetUrl(name: keyof typeof FILES & string): string {
  const asset = assets().get(name);
  return `/admin/assets/${name}?v=${asset?.hash ?? "0"}`;
}

/** The asset's answer, cached for a year (the URL changes with the bytes); null when unknown. */
export function assetResponse(name: string): Response | null {
  const asset = assets().get(name);
  if (!asset) return null;
  return new Response(asset.body, {
    headers: { "content-type": asset.type, "cache-control": "public, max-age=31536000, immutable", "x-content-type-options": "nosniff" },
  });
}
