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

/** Where the parameters come from: the query (URLSearchParams) or the consent form (FormData). */
export type ParamSource = { getAll(name: string): unknown[] };

/**
 * The request's parameters (an empty one is absent), and those given more than once: RFC 6749
 * section 3.1 says each is sent at most once, and reading only the first of two lets a page that
 * appends its own (`redirect_uri`, `scope`) pass what the client did not mean.
 */
export function authorizeParamsOf(source: ParamSource): { params: AuthorizeParams; repeated: string[] } {
  const params: AuthorizeParams = {};
  const repeated: string[] = [];
  for (const name of AUTHORIZE_PARAMS) {
    const values = source.getAll(name);
    if (values.length > 1) repeated.push(name);
    const value = values[0];
    if (typeof value === "string" && value !== "") params[name] = value;
  }
  return { params, repeated };
}

export type AuthorizeRequest = {
  client: OAuthClient;
  redirectUri: string;
  /** The request named it (it may be left out when the client has only one): the token request must name it too. */
  redirectUriGiven: boolean;
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
 * Reads and checks an authorization request. Throws NotRedirectable (unknown client, foreign
 * redirect URI, either given twice) or returns a Redirect carrying OAuth's error
 * (`invalid_request` for a parameter given twice or a missing or `plain` PKCE challenge,
 * `unsupported_response_type`, `invalid_target` for a resource other than BASE_URL/mcp). A
 * missing `resource` means BASE_URL/mcp, the only resource there is.
 */
export async function readAuthorizeRequest(ctx: Ctx, source: ParamSource, via: DocumentFetch = {}): Promise<AuthorizeRequest | Redirect> {
  const { params, repeated } = authorizeParamsOf(source);
  // Which client, and where to send a refusal, must be beyond doubt before anything is sent there.
  if (repeated.includes("client_id")) throw new NotRedirectable("client", "client_id is given more than once");
  if (repeated.includes("redirect_uri")) throw new NotRedirectable("redirect_uri", "redirect_uri (given more than once)");
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
  if (repeated.length) return fail("invalid_request", `${repeated.join(", ")} given more than once`);
  if (params.response_type !== "code") return fail("unsupported_response_type", "response_type must be code");
  if (!params.code_challenge) return fail("invalid_request", "code_challenge is required (PKCE)");
  if (params.code_challenge_method !== "S256") return fail("invalid_request", "code_challenge_method must be S256");
  if (!CHALLENGE.test(params.code_challenge)) return fail("invalid_request", "code_challenge is not an S256 challenge");
  const resource = params.resource ?? mcpResource(ctx.baseUrl);
  if (resource !== mcpResource(ctx.baseUrl)) return fail("invalid_target", `resource must be ${mcpResource(ctx.baseUrl)}`);
  return {
    client,
    redirectUri,
    redirectUriGiven: params.redirect_uri !== undefined,
    state: params.state,
    asked: parseScopeParam(params.scope),
    codeChallenge: params.code_challenge,
    resource,
    params,
  };
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
    redirectUriGiven: request.redirectUriGiven,
    scopes: decision.scopes,
    resource: request.resource,
    codeChallenge: request.codeChallenge,
  });
  return redirectWith(request.redirectUri, { code, ...back });
}
