// The authorization request (OAuth 2.1 section 4.1.1, as the MCP authorization spec profiles it)
// behind the consent page: read, checked in the order that decides where a refusal goes (an
// unknown client or a redirect URI it did not register is shown to the admin, never redirected
// to; anything after goes back to the client as `error=`), then allowed or denied.
import { AREAS, type Area, type Caller, type Level, type Scopes } from "../access";
import type { Ctx } from "../context";
import { OAuthRefused, Unauthorized } from "../errors";
import { findClient, type DocumentFetch, type OAuthClient, redirectUriMatches } from "./clients";
import { CHALLENGE, issueCode, parseScopeParam } from "./grants";
import { mcpResource } from "./metadata";

/** The parameters of an authorization request, as the query (GET) or the consent form (POST) carries them. */
export const AUTHORIZE_PARAMS = [
  "response_type",
  "client_id",
  "redirect_uri",
  "state",
  "scope",
  "code_challenge",
  "code_challenge_method",
  "resource",
] as const;
export type AuthorizeParams = Partial<Record<(typeof AUTHORIZE_PARAMS)[number], string>>;

export type AuthorizeRequest = {
  client: OAuthClient;
  redirectUri: string;
  state: string | undefined;
  /** What the client asked for, unknown scopes left out. */
  asked: Scopes;
  codeChallenge: string;
  resource: string;
  /** The parameters as received, for the consent form to carry. */
  params: AuthorizeParams;
};

/** Shown to the admin, not sent to the client: the client is unknown or the redirect URI is not its own. */
export class NotRedirectable extends Error {
  constructor(
    readonly reason: "client" | "redirect_uri",
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** A refusal sent back to the client at its redirect URI. */
export type Redirect = { location: string };

function redirectWith(redirectUri: string, values: Record<string, string | undefined>): Redirect {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(values)) if (v !== undefined) url.searchParams.set(k, v);
  return { location: url.toString() };
}

/**
 * Checks an authorization request. Throws NotRedirectable (unknown client, foreign redirect URI)
 * or returns a Redirect carrying OAuth's error (`unsupported_response_type`, `invalid_request`
 * for a missing or `plain` PKCE challenge, `invalid_target` for a resource other than
 * BASE_URL/mcp). A missing `resource` means BASE_URL/mcp, the only resource there is.
 */
export async function readAuthorizeRequest(ctx: Ctx, params: AuthorizeParams, via: DocumentFetch = {}): Promise<AuthorizeRequest | Redirect> {
  if (!params.client_id) throw new NotRedirectable("client", "client_id is missing");
  let client: OAuthClient;
  try {
    client = await findClient(ctx.db, params.client_id, ctx.webhooks, via);
  } catch (err) {
    if (err instanceof OAuthRefused) throw new NotRedirectable("client", err.description);
    throw err;
  }
  // OAuth 2.1 lets a client with one redirect URI leave it out.
  const redirectUri = params.redirect_uri ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0] : undefined);
  if (!redirectUri || !redirectUriMatches(redirectUri, client.redirect_uris))
    throw new NotRedirectable("redirect_uri", redirectUri ?? "redirect_uri is missing");
  const fail = (error: string, description: string) =>
    redirectWith(redirectUri, { error, error_description: description, state: params.state, iss: ctx.baseUrl });
  if (params.response_type !== "code") return fail("unsupported_response_type", "response_type must be code");
  if (!params.code_challenge) return fail("invalid_request", "code_challenge is required (PKCE)");
  if (params.code_challenge_method !== "S256") return fail("invalid_request", "code_challenge_method must be S256");
  if (!CHALLENGE.test(params.code_challenge)) return fail("invalid_request", "code_challenge is not an S256 challenge");
  const resource = params.resource ?? mcpResource(ctx.baseUrl);
  if (resource !== mcpResource(ctx.baseUrl)) return fail("invalid_target", `resource must be ${mcpResource(ctx.baseUrl)}`);
  return { client, redirectUri, state: params.state, asked: parseScopeParam(params.scope), codeChallenge: params.code_challenge, resource, params };
}

/** What the admin may grant: their own rights (a read-only admin: view only). */
export function grantable(actor: Caller): Scopes {
  return actor.scopes;
}

/** What the admin may grant of what the client asked (edit asked of a view-only admin: view); nothing asked: view everywhere the admin may. */
export function preselected(asked: Scopes, may: Scopes): Scopes {
  const wanted = Object.keys(asked).length ? asked : (Object.fromEntries(AREAS.map((a) => [a, "view"])) as Scopes);
  const out: Scopes = {};
  for (const [area, level] of Object.entries(wanted) as [Area, Level][]) {
    const held = may[area];
    if (held) out[area] = level === "edit" && held === "edit" ? "edit" : "view";
  }
  return out;
}

/** The consent's answer: a code for the chosen scopes (within the admin's), or `access_denied`. */
export async function answerAuthorizeRequest(
  ctx: Ctx,
  request: AuthorizeRequest,
  decision: { allow: false } | { allow: true; scopes: Scopes },
): Promise<Redirect> {
  const back = { state: request.state, iss: ctx.baseUrl };
  if (!decision.allow) return redirectWith(request.redirectUri, { error: "access_denied", error_description: "the admin denied access", ...back });
  // Only an admin signed in on the consent page grants anything; the system caller never reaches it.
  if (ctx.actor.kind === "system") throw new Unauthorized();
  const code = await issueCode(ctx.db, ctx.actor, {
    client: request.client,
    redirectUri: request.redirectUri,
    scopes: decision.scopes,
    resource: request.resource,
    codeChallenge: request.codeChallenge,
  });
  return redirectWith(request.redirectUri, { code, ...back });
}
