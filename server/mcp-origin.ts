// Who may reach /mcp from a browser. The MCP transport spec (Streamable HTTP, "Security
// Warning") asks a server to check the Origin header of every request, against DNS rebinding: a
// page of another site whose name is made to resolve to this server (127.0.0.1 on the club
// secretary's laptop) would otherwise talk to it as if it were the same site. Refused here, before
// the key is even looked at: an Origin that is neither the server's own (BASE_URL) nor one listed
// in CORS_ORIGINS, and, when the server listens on loopback (where rebinding is the attack), a Host
// that names neither this machine nor BASE_URL's host. Clients that are no browser send no Origin.
import type { Config } from "../lib/config";
import { Forbidden } from "../lib/errors";
import type { Locale } from "../lib/i18n";
import { errorAnswer, json, withRequestId } from "../http/errors";
import { originListed } from "./cors";

/** JSON-RPC's "invalid request", what the project answers for a refusal outside a tool (server/mcp.ts). */
const INVALID_REQUEST = -32600;

/** A /mcp request refused for its Origin or Host: 403 with a JSON-RPC error body, what an MCP client reads. */
export class ForeignMcpRequest extends Forbidden {
  answer(locale: Locale, requestId: string): Response {
    const { status, body } = errorAnswer(this, locale);
    const data = withRequestId(body, requestId);
    return json(status, { jsonrpc: "2.0", id: null, error: { code: INVALID_REQUEST, message: body.detail, data: { status, ...data } } });
  }
}

const isLoopbackName = (host: string) => host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);

/** The host name of a Host header (`example.org:3000` -> `example.org`, `[::1]:3000` -> `[::1]`). */
function hostName(header: string): string {
  const value = header.trim().toLowerCase();
  return value.startsWith("[") ? value.slice(0, value.indexOf("]") + 1) : value.replace(/:\d+$/, "");
}

function ownOrigin(baseUrl: string): URL | null {
  try {
    return new URL(baseUrl);
  } catch {
    return null;
  }
}

/** The refusal of a /mcp request from another site (its Origin, or its Host on loopback), or null. */
export function foreignMcpRequest(request: Request, config: Pick<Config, "baseUrl" | "corsOrigins" | "host">): ForeignMcpRequest | null {
  const own = ownOrigin(config.baseUrl);
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== own?.origin && !originListed(origin, config.corsOrigins)) {
    return new ForeignMcpRequest("MCP_ORIGIN_NOT_ALLOWED", { origin: origin.slice(0, 200) });
  }
  const host = request.headers.get("host");
  if (host !== null && isLoopbackName(config.host.toLowerCase())) {
    const name = hostName(host);
    if (!isLoopbackName(name) && host.trim().toLowerCase() !== own?.host) return new ForeignMcpRequest("MCP_HOST_NOT_ALLOWED", { host: host.slice(0, 200) });
  }
  return null;
}
