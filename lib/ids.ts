// Identifiers and secrets: UUIDs for rows, base62 secrets for keys and tokens, and short
// upper-case codes without look-alike characters for what people read aloud or type.
import { randomBytes } from "node:crypto";

export const newId = (): string => Bun.randomUUIDv7();

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** No 0/O, 1/I/L, 5/S, 2/Z, 8/B: a code read from paper is typed right. */
const READABLE = "3467ACDEFGHJKMNPQRTUVWXY9";

function randomFrom(alphabet: string, length: number): string {
  // Rejection sampling keeps every character equally likely.
  const limit = 256 - (256 % alphabet.length);
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit) out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

export const randomBase62 = (length: number): string => randomFrom(BASE62, length);
export const readableCode = (length: number): string => randomFrom(READABLE, length);

export function sha256Hex(text: string): string {
  return new Bun.CryptoHasher("sha256").update(text).digest("hex");
}

export const nowIso = (): string => new Date().toISOString();
