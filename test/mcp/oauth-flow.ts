// OAuth test helpers: the official SDK client's OAuthClientProvider kept in memory, an admin's
// browser that follows the consent page by form posts (session cookie and CSRF token), and raw
// token requests for the refusals the SDK client would never send.
import { createHash } from "node:crypto";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { browser, type Page } from "../dashboard/helpers";
import type { TestEnv } from "../helpers";

export const REDIRECT = "http://127.0.0.1:33418/callback";

/** An in-memory OAuthClientProvider: what a local MCP client keeps between runs. */
export class MemoryProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  authorizeUrl: URL | null = null;
  constructor(
    readonly name = "Test assistant",
    readonly scope?: string,
  ) {}
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: this.name, redirect_uris: [REDIRECT], grant_types: ["authorization_code", "refresh_token"], token_endpoint_auth_method: "none" };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizeUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  /** What a real client does when told its grant is gone (the SDK then starts the flow again). */
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
    if (scope === "all" || scope === "tokens") this.saved = undefined;
    if (scope === "all" || scope === "client") this.info = undefined;
  }
}

export const fetchVia = (env: TestEnv) => (url: string | URL, init?: RequestInit) => env.app.handle(new Request(url, init));

export function transportFor(env: TestEnv, provider: OAuthClientProvider) {
  return new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), { authProvider: provider, fetch: fetchVia(env) });
}

/** The hidden fields of the consent form, decoded. */
export function hiddenFields(page: Page): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
    out[m[1]] = m[2]
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
  }
  return out;
}

const signedIn = new WeakMap<TestEnv, Map<string, ReturnType<typeof withConsent>>>();

/** A signed-in admin's browser and its answer to a consent page; signed in once per test file and admin (sign-in is rate-limited per address). */
export async function adminBrowser(env: TestEnv, email = "owner@test.org", password?: string) {
  const byEmail = signedIn.get(env) ?? new Map<string, ReturnType<typeof withConsent>>();
  signedIn.set(env, byEmail);
  let admin = byEmail.get(email);
  if (!admin) {
    const b = browser(env as never);
    const res = await b.signIn(email, password);
    if (res.status !== 303) throw new Error(`sign-in refused: ${res.status}`);
    admin = withConsent(b);
    byEmail.set(email, admin);
  }
  return admin;
}

function withConsent(b: ReturnType<typeof browser>) {
  return {
    ...b,
    /** Opens the authorize URL and answers the consent form; returns the redirect's URL (null: no redirect). */
    async consent(url: URL | string, answer: { decision: "allow" | "deny"; scopes?: Record<string, string> }) {
      const u = new URL(url);
      const page = await b.request("GET", u.pathname + u.search);
      if (page.status !== 200) return { page, location: null };
      const form: Record<string, string> = { ...hiddenFields(page), decision: answer.decision };
      for (const [area, level] of Object.entries(answer.scopes ?? {})) form[`scope_${area}`] = level;
      const res = await b.request("POST", "/admin/oauth/authorize", { form });
      const location = res.headers.get("location");
      return { page: res, location: location ? new URL(location) : null };
    },
  };
}

/** The whole flow with the SDK client: discovery, registration, consent, code exchange; a connected client. */
export async function connectWithOAuth(env: TestEnv, scopes: Record<string, string>, provider = new MemoryProvider()) {
  const first = new Client({ name: "oauth-test", version: "1.0" });
  const refused = await first.connect(transportFor(env, provider)).then(
    () => null,
    (err: unknown) => err,
  );
  if (!refused || !provider.authorizeUrl) throw new Error(`expected the SDK client to be sent to the authorize page, got ${String(refused)}`);
  const admin = await adminBrowser(env);
  const { location } = await admin.consent(provider.authorizeUrl, { decision: "allow", scopes });
  const code = location?.searchParams.get("code");
  if (!code) throw new Error(`no code in the redirect: ${location}`);
  const transport = transportFor(env, provider);
  await transport.finishAuth(code);
  const client = new Client({ name: "oauth-test", version: "1.0" });
  await client.connect(transportFor(env, provider));
  return { client, provider, admin };
}

/** PKCE's S256 of a verifier. */
export const challengeOf = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

/** A form POST to an OAuth endpoint; the JSON answer. */
export async function formPost(env: TestEnv, path: string, form: Record<string, string>) {
  const res = await env.app.handle(
    new Request(`http://localhost${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form),
    }),
  );
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}
