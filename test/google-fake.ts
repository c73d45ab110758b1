// A local stand-in for Google: the OAuth token endpoint (checks the service account's signed
// assertion with its public key) and the Wallet REST API (checks the bearer token, keeps the
// classes and objects, answers 404 to an update of something it does not have). Also makes the
// service account: an RSA key pair and its JSON key file.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportPKCS8, generateKeyPair, jwtVerify } from "jose";

export const ISSUER_ID = "3388000000012345678";
export const CLIENT_EMAIL = "wallet@club-test.iam.gserviceaccount.com";
export const KEY_ID = "test-key-1";
const SCOPE = "https://www.googleapis.com/auth/wallet_object.issuer";

/** A JSON body as the tests read it: a class or an object of the Wallet API. */
// biome-ignore lint/suspicious/noExplicitAny: the tests read Google's JSON shapes field by field
export type Json = any;

/** One Wallet API request: `deliveryId` is its `X-Delivery-Id` header, `at` when it arrived (ms). */
export type Recorded = { method: string; path: string; status: number; body: Json; deliveryId: string | null; at: number };

export async function fakeGoogle() {
  const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
  const dir = mkdtempSync(join(tmpdir(), "google-fake-"));
  const keyFile = join(dir, "service-account.json");
  writeFileSync(
    keyFile,
    JSON.stringify({ type: "service_account", client_email: CLIENT_EMAIL, private_key_id: KEY_ID, private_key: await exportPKCS8(privateKey) }),
  );

  const validTokens = new Set<string>();
  const stored = new Map<string, Json>();
  const requests: Recorded[] = [];
  const tokenRequests: { kid?: string; claims: Record<string, unknown> }[] = [];
  /** Statuses to answer to the next Wallet API calls, before anything else is checked. */
  const failures: number[] = [];
  let tokenCount = 0;
  let tokenUrl = "";

  async function token(req: Request): Promise<Response> {
    const form = new URLSearchParams(await req.text());
    if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") return Response.json({ error: "unsupported_grant_type" }, { status: 400 });
    try {
      const { payload, protectedHeader } = await jwtVerify(form.get("assertion") ?? "", publicKey, { issuer: CLIENT_EMAIL, audience: tokenUrl });
      if (payload.scope !== SCOPE || typeof payload.exp !== "number" || typeof payload.iat !== "number") throw new Error("bad claims");
      tokenRequests.push({ kid: protectedHeader.kid, claims: payload });
    } catch {
      return Response.json({ error: "invalid_grant" }, { status: 400 });
    }
    const access = `ya29.fake-${++tokenCount}`;
    validTokens.add(access);
    return Response.json({ access_token: access, expires_in: 3599, token_type: "Bearer" });
  }

  async function wallet(req: Request, path: string): Promise<Response> {
    const body = req.method === "GET" ? null : await req.json().catch(() => null);
    const record = (status: number, answer: unknown) => {
      requests.push({ method: req.method, path, status, body, deliveryId: req.headers.get("x-delivery-id"), at: Date.now() });
      return Response.json(answer, { status });
    };
    const failure = failures.shift();
    if (failure) return record(failure, { error: { code: failure, message: `fake failure ${failure}` } });
    const auth = req.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
    if (!validTokens.has(auth)) return record(401, { error: { code: 401, message: "Request had invalid authentication credentials." } });
    const [resource, id] = path.split("/");
    if (!["loyaltyClass", "loyaltyObject"].includes(resource)) return record(404, { error: { code: 404 } });
    if (req.method === "PUT" && id) {
      const key = `${resource}/${decodeURIComponent(id)}`;
      if (!stored.has(key)) return record(404, { error: { code: 404, message: "Resource not found" } });
      stored.set(key, body);
      return record(200, body);
    }
    if (req.method === "POST" && !id) {
      const key = `${resource}/${body?.id}`;
      if (stored.has(key)) return record(409, { error: { code: 409, message: "already exists" } });
      stored.set(key, body);
      return record(200, body);
    }
    return record(405, { error: { code: 405 } });
  }

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      if (url.pathname === "/token" && req.method === "POST") return token(req);
      if (url.pathname.startsWith("/wallet/v1/")) return wallet(req, url.pathname.slice("/wallet/v1/".length));
      return new Response("not found", { status: 404 });
    },
  });
  const origin = `http://127.0.0.1:${server.port}`;
  tokenUrl = `${origin}/token`;

  return {
    publicKey,
    keyFile,
    dir,
    requests,
    tokenRequests,
    failures,
    stored,
    validTokens,
    env: {
      GOOGLE_WALLET_ISSUER_ID: ISSUER_ID,
      GOOGLE_WALLET_KEY_FILE: keyFile,
      GOOGLE_WALLET_API_URL: `${origin}/wallet/v1`,
      GOOGLE_OAUTH_TOKEN_URL: tokenUrl,
    },
    /** What the fake Wallet API holds for an object or class id. */
    object: (id: string) => stored.get(`loyaltyObject/${id}`),
    klass: (id: string) => stored.get(`loyaltyClass/${id}`),
    stop: () => server.stop(true),
  };
}

export type FakeGoogle = Awaited<ReturnType<typeof fakeGoogle>>;
