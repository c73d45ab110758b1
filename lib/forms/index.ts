// Proof that a public form was sent by a browser that did some work (issue 18): a signed,
// expiring challenge (GET /api/public/challenge), a nonce the client finds so that
// SHA-256(challenge + nonce) starts with `bits` zero bits, each challenge accepted once; and a
// honeypot field a person never sees and a form-filling bot fills. No third party: the browser
// solves it with WebCrypto (README, "Public forms and bots"). Any public form calls
// `checkFormProof` before its transaction (refusing a bot costs no write) and `spendFormProof`
// inside it (a refused registration stores nothing, and its challenge may be sent again).
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { eq, lt } from "drizzle-orm";
import { z } from "zod";
import type { Db, Queryable } from "../../db";
import { formChallengesUsed, serverSecrets } from "../../db/schema";
import type { PublicCtx } from "../context";
import { Forbidden } from "../errors";
import { randomBase62 } from "../ids";
import type { AddressRate } from "../ratelimit";

/** How long a challenge may be answered: a form fetches one when it is sent, so minutes are plenty. */
export const CHALLENGE_TTL_MS = 10 * 60 * 1000;
/**
 * Who issued a challenge, first in its signed text: the API (`GET /api/public/challenge`) or a
 * club's HTML page, which embeds it in its form. Only a page's may come back without the work
 * (`NO_SCRIPT_MIN_MS`): an API challenge always needs its nonce, else a bot fetched one, waited
 * three seconds and sent a form with no work done.
 */
const KINDS = { api: "c1", page: "p1" } as const;
export type ChallengeKind = keyof typeof KINDS;
const SECRET_NAME = "form_challenge_hmac";

/** What a form with the check carries besides its own fields (the same three on every form). */
export const FORM_PROOF_FIELDS = {
  challenge: z
    .string()
    .max(200)
    .optional()
    .meta({ description: "A challenge from `GET /api/public/challenge` (needed unless the server runs with `PUBLIC_FORM_POW_BITS=0`)." }),
  nonce: z.string().max(64).optional().meta({ description: "What the client found: SHA-256 of `challenge + nonce` (UTF-8) starts with `bits` zero bits." }),
  website: z
    .string()
    .max(500)
    .optional()
    .meta({ description: "Honeypot: a hidden input that must be left empty (a form-filling bot fills it). Leave it out." }),
};

export type FormProofInput = { challenge?: string; nonce?: string; website?: string };

export const FormChallenge = z
  .object({
    challenge: z.string(),
    bits: z.int().meta({ description: "Leading zero bits SHA-256(challenge + nonce) must have; 0: no work asked (the check is off)." }),
    algorithm: z.literal("sha256"),
    expires_at: z.string().meta({ format: "date-time" }),
  })
  .meta({ id: "FormChallenge" });
export type FormChallenge = z.output<typeof FormChallenge>;

/** A proof that passed `checkFormProof`, to be spent in the form's transaction; null: nothing to spend (check off). */
export type CheckedProof = { id: string; expiresAt: string } | null;

const secrets = new WeakMap<Db, Promise<Buffer>>();

/**
 * The installation's HMAC key for challenges: 32 random bytes made on first use and kept in the
 * database, so challenges survive a restart and every process on one database agrees.
 */
export function formSecret(db: Db): Promise<Buffer> {
  let secret = secrets.get(db);
  if (!secret) {
    secret = (async () => {
      const read = async (q: Queryable) => (await q.select().from(serverSecrets).where(eq(serverSecrets.name, SECRET_NAME)).limit(1))[0];
      const row =
        (await read(db.read)) ??
        (await db.tx(async (t) => {
          const value = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64");
          await t.insert(serverSecrets).values({ name: SECRET_NAME, value, created_at: new Date().toISOString() }).onConflictDoNothing();
          return read(t);
        }));
      return Buffer.from(row.value, "base64");
    })();
    secret.catch(() => secrets.delete(db));
    secrets.set(db, secret);
  }
  return secret;
}

const sign = (secret: Buffer, payload: string) => createHmac("sha256", secret).update(payload).digest("base64url");

/** Leading zero bits of a digest. */
export function leadingZeroBits(digest: Uint8Array): number {
  let n = 0;
  for (const byte of digest) {
    if (byte === 0) {
      n += 8;
      continue;
    }
    return n + Math.clz32(byte) - 24;
  }
  return n;
}

/** A new challenge asking for `bits` of work, signed, valid CHALLENGE_TTL_MS from `now`; `kind`: who hands it out (KINDS). */
export async function issueChallenge(db: Db, bits: number, now = new Date(), kind: ChallengeKind = "api"): Promise<FormChallenge> {
  const expires = now.getTime() + CHALLENGE_TTL_MS;
  const payload = `${KINDS[kind]}.${expires.toString(36)}.${bits}.${randomBase62(16)}`;
  return { challenge: `${payload}.${sign(await formSecret(db), payload)}`, bits, algorithm: "sha256", expires_at: new Date(expires).toISOString() };
}

/** Challenges a client address may ask for a minute (as many as public registrations it may send). */
export const FORM_CHALLENGE_RATE: AddressRate = { scope: "form-challenge", perMinute: 60 };

/** A challenge for the next form this client sends, at the server's difficulty (`bits` 0: none needed). */
export const formChallenge = (ctx: PublicCtx): Promise<FormChallenge> => issueChallenge(ctx.db, ctx.formProofBits);

/** The challenge a club's HTML page embeds in its form: the one kind the no-script rule takes without its nonce. */
export const pageChallenge = (ctx: PublicCtx): Promise<FormChallenge> => issueChallenge(ctx.db, ctx.formProofBits, new Date(), "page");

/**
 * How long a club's own page (lib/pages) must have shown its form before the form may come back
 * without the work done: a browser without script cannot do it, and a person takes longer than
 * this to fill in a name and an address, where a script posts at once.
 */
export const NO_SCRIPT_MIN_MS = 3_000;

/**
 * Checks a form's proof without writing anything: the honeypot is empty (403 HONEYPOT_FILLED);
 * then, unless `bits` is 0, a challenge and nonce are there (403 CHALLENGE_REQUIRED), the
 * challenge is ours, unaltered and asks at least `bits` (CHALLENGE_INVALID), has not expired
 * (CHALLENGE_EXPIRED), and the nonce does the work (CHALLENGE_INVALID). Whether it was used
 * before is for `spendFormProof`, in the form's transaction. `noScriptMinMs` (the HTML pages
 * only): a challenge a page issued (`pageChallenge`) passes without a nonce when it was issued at
 * least that long ago (403 FORM_SENT_TOO_FAST), and is spent all the same; any other needs its
 * nonce (403 CHALLENGE_REQUIRED).
 */
export async function checkFormProof(db: Db, bits: number, input: FormProofInput, now = new Date(), noScriptMinMs?: number): Promise<CheckedProof> {
  if (input.website) throw new Forbidden("HONEYPOT_FILLED");
  if (bits <= 0) return null;
  if (!input.challenge || (!input.nonce && noScriptMinMs === undefined)) throw new Forbidden("CHALLENGE_REQUIRED");
  const parts = input.challenge.split(".");
  if (parts.length !== 5 || (parts[0] !== KINDS.api && parts[0] !== KINDS.page)) throw new Forbidden("CHALLENGE_INVALID");
  const payload = parts.slice(0, 4).join(".");
  const expected = Buffer.from(sign(await formSecret(db), payload));
  const given = Buffer.from(parts[4]);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new Forbidden("CHALLENGE_INVALID");
  const expires = Number.parseInt(parts[1], 36);
  if (Number(parts[2]) < bits) throw new Forbidden("CHALLENGE_INVALID");
  if (!(expires > now.getTime())) throw new Forbidden("CHALLENGE_EXPIRED");
  if (!input.nonce) {
    // Signed with the rest: an API challenge cannot pass for a page's.
    if (parts[0] !== KINDS.page) throw new Forbidden("CHALLENGE_REQUIRED");
    if (now.getTime() - (expires - CHALLENGE_TTL_MS) < (noScriptMinMs ?? 0)) throw new Forbidden("FORM_SENT_TOO_FAST");
    return { id: parts[3], expiresAt: new Date(expires).toISOString() };
  }
  const digest = createHash("sha256")
    .update(input.challenge + input.nonce)
    .digest();
  if (leadingZeroBits(digest) < Number(parts[2])) throw new Forbidden("CHALLENGE_INVALID");
  return { id: parts[3], expiresAt: new Date(expires).toISOString() };
}

/**
 * Marks a checked challenge used, inside the form's transaction `t`: a second answer to it is a
 * 403 CHALLENGE_USED. Challenges past their expiry are forgotten on the way (they are refused as
 * expired anyway), so the table holds about ten minutes of forms.
 */
export async function spendFormProof(t: Queryable, proof: CheckedProof, now = new Date()): Promise<void> {
  if (!proof) return;
  await t.delete(formChallengesUsed).where(lt(formChallengesUsed.expires_at, now.toISOString()));
  const [row] = await t.insert(formChallengesUsed).values({ id: proof.id, expires_at: proof.expiresAt }).onConflictDoNothing().returning();
  if (!row) throw new Forbidden("CHALLENGE_USED");
}

/** Finds a nonce for `challenge` (what a browser does; for tests, the CLI and the README's example). */
export function solveChallenge(challenge: string, bits: number): string {
  for (let n = 0; ; n++) {
    const nonce = n.toString(36);
    if (
      leadingZeroBits(
        createHash("sha256")
          .update(challenge + nonce)
          .digest(),
      ) >= bits
    )
      return nonce;
  }
}
