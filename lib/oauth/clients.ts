// OAuth clients of the MCP endpoint (DESIGN.md section 17): registered through RFC 7591 dynamic
// client registration, or named by the https URL of a client ID metadata document, which is
// fetched through the webhooks' SSRF guard, validated and cached here. Every client is public
// (PKCE, no secret); a redirect URI is https, or http on a loopback address with any port.
// Registration is open to anyone, so what it may store is bounded: small fields, a count per
// address and for the whole server per hour, and an hourly sweep of the clients no admin ever
// allowed (a day after they came).
import { and, eq, lt, notExists, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db";
import { oauthClients, oauthCodes, oauthGrants } from "../../db/schema";
import type { WebhookSettings } from "../config";
import { OAuthRefused } from "../errors";
import { newId, nowIso } from "../ids";
import { recurringJob } from "../jobs";
import { limitAddress, limitOverall } from "../ratelimit";
import { isOneLine } from "../schema-types";
import { checkWebhookUrl, type Resolver, resolveHost } from "../webhooks/guard";

/** A metadata document is fetched again once this old. */
export const METADATA_DOCUMENT_TTL_MS = 3600_000;
/** Bigger documents are refused: a client's metadata is a few hundred bytes. */
const METADATA_DOCUMENT_MAX_BYTES = 10_000;
const METADATA_DOCUMENT_TIMEOUT_MS = 5000;

const LOOPBACK = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** https, or http on a loopback host (RFC 8252 section 7.3: any port); never a fragment. */
export function redirectUriAllowed(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.hash || raw.includes("#") || url.username || url.password) return false;
  return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname));
}

/**
 * Whether `given` is one of the client's redirect URIs: exactly, or for a loopback http URI
 * with any port (a local client picks a free port at each start, RFC 8252 section 7.3).
 */
export function redirectUriMatches(given: string, registered: readonly string[]): boolean {
  // What registration refuses is refused here too: `http://evil.example@127.0.0.1:5555/cb` has a loopback host, but shows another site first.
  if (!redirectUriAllowed(given)) return false;
  if (registered.includes(given)) return true;
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" || !LOOPBACK.has(url.hostname)) return false;
  const portless = (u: URL) => `${u.protocol}//${u.hostname}${u.pathname}${u.search}`;
  return registered.some((r) => {
    try {
      const candidate = new URL(r);
      return candidate.protocol === "http:" && LOOPBACK.has(candidate.hostname) && portless(candidate) === portless(url);
    } catch {
      return false;
    }
  });
}

/**
 * What one client may store: a name the consent page shows on a line, a few redirect URIs (a
 * desktop client registers one or two loopback ones), each of the length a real callback has.
 */
export const CLIENT_LIMITS = { name: 100, uri: 500, redirectUris: 10, listItems: 10, scope: 1000 } as const;

const name = z.string().min(1).max(CLIENT_LIMITS.name).refine(isOneLine);
const shortList = z.array(z.string().max(100)).max(CLIENT_LIMITS.listItems);

/**
 * Client metadata (RFC 7591 section 2), as far as this server uses it: one schema for a
 * registration request and a metadata document. Other fields are kept out, not refused.
 */
export const ClientMetadata = z.looseObject({
  redirect_uris: z.array(z.string().max(CLIENT_LIMITS.uri)).min(1).max(CLIENT_LIMITS.redirectUris),
  client_name: name.optional(),
  client_uri: z.url().max(CLIENT_LIMITS.uri).optional(),
  token_endpoint_auth_method: z.string().max(100).optional(),
  grant_types: shortList.optional(),
  response_types: shortList.optional(),
  scope: z.string().max(CLIENT_LIMITS.scope).optional(),
});
export type ClientMetadata = z.infer<typeof ClientMetadata>;

export type OAuthClient = {
  client_id: string;
  kind: "registered" | "metadata_document";
  client_name: string;
  client_uri: string | null;
  redirect_uris: string[];
};

/** The refusals a client's metadata earns (RFC 7591 section 3.2.2 codes), shared by registration and documents. */
function checkMetadata(meta: ClientMetadata): void {
  const bad = meta.redirect_uris.find((u) => !redirectUriAllowed(u));
  if (bad) throw new OAuthRefused("invalid_redirect_uri", `redirect URI ${bad} is neither https nor http on a loopback address`);
  // Public clients only: a secret kept by an assistant's client is no secret.
  if (meta.token_endpoint_auth_method !== undefined && meta.token_endpoint_auth_method !== "none")
    throw new OAuthRefused("invalid_client_metadata", "token_endpoint_auth_method must be none: this server takes public clients with PKCE");
  const grants = meta.grant_types ?? ["authorization_code"];
  if (grants.some((g) => g !== "authorization_code" && g !== "refresh_token"))
    throw new OAuthRefused("invalid_client_metadata", "grant_types may hold only authorization_code and refresh_token");
  if ((meta.response_types ?? ["code"]).some((r) => r !== "code")) throw new OAuthRefused("invalid_client_metadata", "response_types may hold only code");
}

function parseMetadata(value: unknown): ClientMetadata {
  const parsed = ClientMetadata.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new OAuthRefused("invalid_client_metadata", `${issue.path.join(".") || "body"}: ${issue.message}`);
  }
  checkMetadata(parsed.data);
  return parsed.data;
}

export type RegisteredClient = {
  client_id: string;
  client_id_issued_at: number;
  client_name: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: "none";
  client_uri?: string;
};

/** Registrations an hour from one client address (the route also allows 10 a minute): a client registers once, then keeps its client_id. */
export const REGISTRATIONS_PER_ADDRESS_PER_HOUR = 20;
/** Registrations an hour from every address together: with the sweep, the clients never used stay under about 5,000. */
export const REGISTRATIONS_PER_HOUR = 200;

/**
 * RFC 7591 dynamic client registration from client address `ip`: a public client (no secret)
 * with its redirect URIs. Refusals: `invalid_redirect_uri`, `invalid_client_metadata` (a field
 * too long or too many: RFC 7591 section 3.2.2); 429 RATE_LIMITED (the house answer, with
 * Retry-After) beyond REGISTRATIONS_PER_ADDRESS_PER_HOUR or REGISTRATIONS_PER_HOUR. Only a
 * registration that is valid counts.
 */
export async function registerClient(db: Db, body: unknown, ip: string | null = null): Promise<RegisteredClient> {
  const meta = parseMetadata(body);
  // The address first: a caller over its own count does not use up everyone's.
  await limitAddress(db, "oauth-register-hour", REGISTRATIONS_PER_ADDRESS_PER_HOUR, ip, Date.now(), 3_600_000);
  await limitOverall(db, "oauth-register-all", REGISTRATIONS_PER_HOUR, 3_600_000);
  const row = {
    client_id: newId(),
    kind: "registered",
    client_name: meta.client_name ?? "Unnamed client",
    client_uri: meta.client_uri ?? null,
    redirect_uris: meta.redirect_uris,
    fetched_at: null,
    created_at: nowIso(),
  };
  await db.tx((t) => t.insert(oauthClients).values(row));
  return {
    client_id: row.client_id,
    client_id_issued_at: Math.floor(Date.parse(row.created_at) / 1000),
    client_name: row.client_name,
    redirect_uris: row.redirect_uris,
    grant_types: meta.grant_types ?? ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    ...(meta.client_uri ? { client_uri: meta.client_uri } : {}),
  };
}

/** A client_id that names a metadata document: an https URL with a path (draft-ietf-oauth-client-id-metadata-document section 3). */
export function isMetadataDocumentId(clientId: string): boolean {
  if (!clientId.startsWith("https://")) return false;
  try {
    const url = new URL(clientId);
    return url.pathname !== "/" && !url.hash && !url.username && !url.password && !/\/\.\.?(\/|$)/.test(url.pathname);
  } catch {
    return false;
  }
}

/** How a metadata document is fetched: the guard's resolver and fetch, replaced in tests only. */
export type DocumentFetch = { resolve?: Resolver; fetch?: typeof fetch };

/**
 * Fetches and validates the metadata document at `url`: through the SSRF guard (no private or
 * metadata address), no redirect followed, 5 s, 10 kB at most, JSON whose `client_id` is the URL
 * itself, with a name and redirect URIs. Refusals are `invalid_client`.
 */
async function fetchDocument(url: string, settings: WebhookSettings, via: DocumentFetch): Promise<ClientMetadata & { client_name: string }> {
  const verdict = await checkWebhookUrl(url, settings, via.resolve ?? resolveHost);
  if (!verdict.ok) throw new OAuthRefused("invalid_client", `client metadata document not fetched: ${verdict.reason}`, 401);
  let text: string;
  try {
    const res = await (via.fetch ?? fetch)(url, {
      headers: { accept: "application/json" },
      redirect: "manual",
      signal: AbortSignal.timeout(METADATA_DOCUMENT_TIMEOUT_MS),
    });
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    text = await res.text();
  } catch (err) {
    throw new OAuthRefused("invalid_client", `client metadata document not fetched: ${err instanceof Error ? err.message : String(err)}`, 401);
  }
  if (text.length > METADATA_DOCUMENT_MAX_BYTES) throw new OAuthRefused("invalid_client", "client metadata document too large", 401);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new OAuthRefused("invalid_client", "client metadata document is not JSON", 401);
  }
  let meta: ClientMetadata;
  try {
    meta = parseMetadata(json);
  } catch (err) {
    throw new OAuthRefused("invalid_client", `client metadata document refused: ${err instanceof Error ? err.message : String(err)}`, 401);
  }
  if ((json as { client_id?: unknown }).client_id !== url)
    throw new OAuthRefused("invalid_client", "client metadata document's client_id is not its own URL", 401);
  if ("client_secret" in (json as object)) throw new OAuthRefused("invalid_client", "client metadata document holds a client_secret", 401);
  if (!meta.client_name) throw new OAuthRefused("invalid_client", "client metadata document has no client_name", 401);
  return meta as ClientMetadata & { client_name: string };
}

const toClient = (row: typeof oauthClients.$inferSelect): OAuthClient => ({
  client_id: row.client_id,
  kind: row.kind as OAuthClient["kind"],
  client_name: row.client_name,
  client_uri: row.client_uri,
  redirect_uris: row.redirect_uris,
});

/**
 * The client behind `clientId`: a registered one, or a metadata document's, fetched when not
 * cached or older than an hour. Unknown or refused: OAuthRefused `invalid_client`.
 */
export async function findClient(db: Db, clientId: string, settings: WebhookSettings, via: DocumentFetch = {}, now = new Date()): Promise<OAuthClient> {
  const [row] = await db.read.select().from(oauthClients).where(eq(oauthClients.client_id, clientId)).limit(1);
  if (row && (row.kind === "registered" || (row.fetched_at && now.getTime() - Date.parse(row.fetched_at) < METADATA_DOCUMENT_TTL_MS))) return toClient(row);
  if (!isMetadataDocumentId(clientId)) throw new OAuthRefused("invalid_client", "unknown client_id", 401);
  const meta = await fetchDocument(clientId, settings, via);
  const fresh = {
    client_id: clientId,
    kind: "metadata_document",
    client_name: meta.client_name,
    client_uri: meta.client_uri ?? null,
    redirect_uris: meta.redirect_uris,
    fetched_at: now.toISOString(),
    created_at: row?.created_at ?? now.toISOString(),
  };
  await db.tx((t) =>
    t
      .insert(oauthClients)
      .values(fresh)
      .onConflictDoUpdate({ target: oauthClients.client_id, set: { ...fresh, created_at: undefined } }),
  );
  return toClient(fresh);
}

/** A client no admin has allowed (no grant, no code) is deleted this long after it came. */
export const UNUSED_CLIENT_KEEP_MS = 86_400_000;

/**
 * Deletes the clients that came more than UNUSED_CLIENT_KEEP_MS before `now` and that no admin
 * ever allowed: no grant and no code names them (a registration abandoned, or made only to fill
 * the table). A metadata document's copy goes too: it is fetched again if its client comes back.
 * Answers how many went.
 */
export async function purgeUnusedClients(db: Db, now: Date): Promise<number> {
  const before = new Date(now.getTime() - UNUSED_CLIENT_KEEP_MS).toISOString();
  const gone = await db.tx((t) => {
    const unnamedIn = (table: typeof oauthGrants | typeof oauthCodes) =>
      notExists(t.select({ one: sql`1` }).from(table).where(eq(table.client_id, oauthClients.client_id)));
    return t
      .delete(oauthClients)
      .where(and(lt(oauthClients.created_at, before), unnamedIn(oauthGrants), unnamedIn(oauthCodes)))
      .returning({ id: oauthClients.client_id });
  });
  return gone.length;
}

export const OAUTH_CLIENTS_PURGE = "oauth_clients.purge";
/** Hourly: clients registered and never allowed do not pile up. */
export const oauthClientsPurge = recurringJob(
  OAUTH_CLIENTS_PURGE,
  3_600_000,
  async (db, env) => `${await purgeUnusedClients(db, env.now)} OAuth clients never used purged`,
);
