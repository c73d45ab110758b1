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

/** Base62 characters of the millisecond clock: 62^8 ms reach the year 8900. */
const CLOCK_CHARS = 8;

/**
 * A base62 secret whose first 8 characters are the millisecond it was made (base62 in ASCII
 * order, so a later key sorts after an earlier one) and the rest random: a unique index of such
 * keys grows at its end, where a random key lands on any page of the index. An import of 100,000
 * members into as many rewrote most of the random index's pages at every commit (issue 31,
 * import18). What stays secret is the random part: `length - 8` characters (16 of a pass serial's
 * 24: 95 bits, a guess knowing the very millisecond finds nothing); the key tells when it was made.
 */
export function timeOrderedBase62(length: number, now = Date.now()): string {
  let clock = "";
  for (let t = Math.floor(now), i = 0; i < CLOCK_CHARS; i++, t = Math.floor(t / 62)) clock = BASE62[t % 62] + clock;
  return clock + randomBase62(length - CLOCK_CHARS);
}
export const readableCode = (length: number): string => randomFrom(READABLE, length);

/**
 * A readable code whose first character is the hour it was made, counted round the alphabet's 25
 * characters, and the rest random: the codes of one import share the first character, so the
 * unique index of (club, code) takes them in a 25th of its pages instead of on any page (issue 31,
 * import18). A guess gains little by it: over the 25 hours of a round the codes fall evenly on the
 * first characters, so the codes that share a guess's first character are a 25th of the club's
 * and the guess a 25th of the space, as without it (a large import can crowd one character:
 * 100,000 codes among 25^7 = 6 billion); what makes a code unguessable is the other characters,
 * random as before.
 */
export function hourLedReadableCode(length: number, now = Date.now()): string {
  return READABLE[Math.floor(now / 3_600_000) % READABLE.length] + randomFrom(READABLE, length - 1);
}

export function sha256Hex(text: string): string {
  return new Bun.CryptoHasher("sha256").update(text).digest("hex");
}

export const nowIso = (): string => new Date().toISOString();
