// Identifiers and secrets: UUIDs for rows, base62 secrets for keys and tokens, and short
// upper-case codes without look-alike characters for what people read aloud or type.
import { randomFillSync } from "node:crypto";

export const newId = (): string => Bun.randomUUIDv7();

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** No 0/O, 1/I/L, 5/S, 2/Z, 8/B: a code read from paper is typed right. */
const READABLE = "3467ACDEFGHJKMNPQRTUVWXY9";

/**
 * Random bytes from the system's CSPRNG, drawn 4 KiB at a time and each used once: a draw per
 * code cost more than the rest of a new member's row (an import makes three codes a member).
 */
const pool = new Uint8Array(4096);
let used = pool.length;
function randomByte(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++];
}

function randomFrom(alphabet: string, length: number): string {
  // Rejection sampling keeps every character equally likely.
  const limit = 256 - (256 % alphabet.length);
  let out = "";
  while (out.length < length) {
    const byte = randomByte();
    if (byte < limit) out += alphabet[byte % alphabet.length];
  }
  return out;
}

export const randomBase62 = (length: number): string => randomFrom(BASE62, length);
export const readableCode = (length: number): string => randomFrom(READABLE, length);

export function sha256Hex(text: string): string {
  return new Bun.CryptoHasher("sha256").update(text).digest("hex");
}

export const nowIso = (): string => new Date().toISOString();
