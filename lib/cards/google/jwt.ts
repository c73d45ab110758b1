// The service account's key (the JSON file Google Cloud hands out, named by
// GOOGLE_WALLET_KEY_FILE) and the "save to Google Wallet" JWT signed with it (RS256).
import { statSync } from "node:fs";
import type { GoogleWalletConfig } from "../../config";
import { lazy } from "../../lazy";

export type ServiceAccount = { clientEmail: string; keyId: string | undefined; privateKey: CryptoKey };

export const SAVE_URL = "https://pay.google.com/gp/v/save/";

/** jose loads with the first Google Wallet link or delivery (also for lib/cards/google/api). */
export const jose = lazy(() => import("jose"));

const cache = new Map<string, { mtimeMs: number; account: Promise<ServiceAccount> }>();

async function readServiceAccount(file: string): Promise<ServiceAccount> {
  const json = (await Bun.file(file).json()) as { client_email?: unknown; private_key?: unknown; private_key_id?: unknown };
  if (typeof json.client_email !== "string" || typeof json.private_key !== "string") {
    throw new Error(`${file}: not a service account key (client_email and private_key are required)`);
  }
  return {
    clientEmail: json.client_email,
    keyId: typeof json.private_key_id === "string" ? json.private_key_id : undefined,
    privateKey: await (await jose()).importPKCS8(json.private_key, "RS256"),
  };
}

/** The service account of `cfg.keyFile`, read again when the file changes (a rotated key). */
export function serviceAccount(cfg: GoogleWalletConfig): Promise<ServiceAccount> {
  const mtimeMs = statSync(cfg.keyFile).mtimeMs;
  const hit = cache.get(cfg.keyFile);
  if (hit && hit.mtimeMs === mtimeMs) return hit.account;
  const account = readServiceAccount(cfg.keyFile);
  cache.set(cfg.keyFile, { mtimeMs, account });
  account.catch(() => cache.delete(cfg.keyFile));
  return account;
}

/**
 * The JWT of a "save to Google Wallet" link: the class and the object themselves, so the card
 * exists on Google's side the moment the member saves it (no API call before the redirect).
 */
export async function saveJwt(
  cfg: GoogleWalletConfig,
  input: { origin: string; loyaltyClass: Record<string, unknown>; loyaltyObject: Record<string, unknown>; now?: Date },
): Promise<string> {
  const account = await serviceAccount(cfg);
  const { SignJWT } = await jose();
  return new SignJWT({
    origins: [input.origin],
    typ: "savetowallet",
    payload: { loyaltyClasses: [input.loyaltyClass], loyaltyObjects: [input.loyaltyObject] },
  })
    .setProtectedHeader({ alg: "RS256", typ: "JWT", ...(account.keyId ? { kid: account.keyId } : {}) })
    .setIssuer(account.clientEmail)
    .setAudience("google")
    .setIssuedAt(Math.floor((input.now ?? new Date()).getTime() / 1000))
    .sign(account.privateKey);
}
