// Talking to Google: an OAuth access token from the service account (JWT bearer grant, RFC 7523),
// kept in memory until shortly before it expires, and the Wallet REST calls that write a class or
// an object (update, else insert). Each answer becomes a job outcome: 2xx done, 400/401/403 a
// permanent failure (the request itself is wrong), 409, 429, 5xx and network errors temporary ones.
// Each request carries the delivery's job id in `X-Delivery-Id`: a delivery resent after a crash
// (docs/decisions.md, "wallet pass updates") carries the same id, so it can be told from a new one.
import type { GoogleWalletConfig } from "../../config";
import { PermanentFailure, TemporaryFailure } from "../../jobs";
import { jose, serviceAccount } from "./jwt";

export const WALLET_SCOPE = "https://www.googleapis.com/auth/wallet_object.issuer";
const TIMEOUT_MS = 10_000;
/** A token is used until this long before Google says it expires. */
const EXPIRY_MARGIN_MS = 60_000;

export type WalletResource = "loyaltyClass" | "loyaltyObject";

const tokens = new Map<string, { token: string; expiresAt: number }>();
const tokenKey = (cfg: GoogleWalletConfig) => `${cfg.tokenUrl} ${cfg.keyFile}`;

/** Forgets the cached token (Google refused it), so the next call asks for a new one. */
export function dropAccessToken(cfg: GoogleWalletConfig): void {
  tokens.delete(tokenKey(cfg));
}

/** A short description of a far end's answer, for the job's outcome. */
async function answer(res: Response): Promise<string> {
  const text = (await res.text().catch(() => "")).replace(/\s+/g, " ").trim();
  return `HTTP ${res.status}${text ? ` ${text.slice(0, 300)}` : ""}`;
}

async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    throw new TemporaryFailure(`network: ${err instanceof Error ? err.message : String(err)}`.slice(0, 300));
  }
}

/** An access token for the Wallet API (from the cache when still good for a minute). */
export async function accessToken(cfg: GoogleWalletConfig, now = Date.now()): Promise<string> {
  const cached = tokens.get(tokenKey(cfg));
  if (cached && cached.expiresAt - EXPIRY_MARGIN_MS > now) return cached.token;
  let account: Awaited<ReturnType<typeof serviceAccount>>;
  try {
    account = await serviceAccount(cfg);
  } catch (err) {
    // The operator can fix the file: worth retrying with back-off.
    throw new TemporaryFailure(`service account key: ${err instanceof Error ? err.message : String(err)}`.slice(0, 300));
  }
  const iat = Math.floor(now / 1000);
  const { SignJWT } = await jose();
  const assertion = await new SignJWT({ scope: WALLET_SCOPE })
    .setProtectedHeader({ alg: "RS256", typ: "JWT", ...(account.keyId ? { kid: account.keyId } : {}) })
    .setIssuer(account.clientEmail)
    .setAudience(cfg.tokenUrl)
    .setIssuedAt(iat)
    .setExpirationTime(iat + 3600)
    .sign(account.privateKey);
  const res = await send(cfg.tokenUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }),
  });
  if (!res.ok) {
    const outcome = `token ${await answer(res)}`;
    throw res.status === 429 || res.status >= 500 ? new TemporaryFailure(outcome) : new PermanentFailure(outcome);
  }
  const body = (await res.json().catch(() => ({}))) as { access_token?: unknown; expires_in?: unknown };
  if (typeof body.access_token !== "string") throw new TemporaryFailure("token: answer without access_token");
  const expiresIn = typeof body.expires_in === "number" ? body.expires_in : 3600;
  tokens.set(tokenKey(cfg), { token: body.access_token, expiresAt: now + expiresIn * 1000 });
  return body.access_token;
}

async function call(cfg: GoogleWalletConfig, method: string, path: string, body: unknown, deliveryId?: string): Promise<Response> {
  return send(`${cfg.apiUrl}/${path}`, {
    method,
    headers: {
      authorization: `Bearer ${await accessToken(cfg)}`,
      "content-type": "application/json",
      ...(deliveryId ? { "x-delivery-id": deliveryId } : {}),
    },
    body: JSON.stringify(body),
  });
}

/** Updates the class or object (PUT), inserting it (POST) when Google does not have it yet. */
async function upsertOnce(cfg: GoogleWalletConfig, resource: WalletResource, body: { id: string }, deliveryId?: string): Promise<Response> {
  const res = await call(cfg, "PUT", `${resource}/${encodeURIComponent(body.id)}`, body, deliveryId);
  if (res.status !== 404) return res;
  await res.body?.cancel();
  return call(cfg, "POST", resource, body, deliveryId);
}

/**
 * Writes `body` (a loyalty class or object) to Google; returns the outcome ("HTTP 200") or
 * throws PermanentFailure / TemporaryFailure. A 401 gets one retry with a fresh token.
 * `deliveryId` (the job's id) is sent as `X-Delivery-Id`.
 */
export async function upsertWalletResource(cfg: GoogleWalletConfig, resource: WalletResource, body: { id: string }, deliveryId?: string): Promise<string> {
  let res = await upsertOnce(cfg, resource, body, deliveryId);
  if (res.status === 401) {
    await res.body?.cancel();
    dropAccessToken(cfg);
    res = await upsertOnce(cfg, resource, body, deliveryId);
  }
  if (res.ok) {
    await res.body?.cancel();
    return `HTTP ${res.status}`;
  }
  const outcome = await answer(res);
  // 409: another worker inserted it between our PUT and POST; the next attempt updates it.
  if (res.status === 409 || res.status === 429 || res.status >= 500) throw new TemporaryFailure(outcome);
  throw new PermanentFailure(outcome);
}
