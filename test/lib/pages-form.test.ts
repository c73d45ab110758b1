// The runner behind both public pages' forms (lib/pages/form): an answer carrying a
// `checkout_url` (the card payment page of issue 13) is a redirect to it, or inside a frame a
// page with a link out of the frame; a refusal is the form again with its status; the club's
// time zone from its country.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { z } from "zod";
import { clubTimeZone } from "../../lib/clubs/time-zone";
import type { PublicCtx } from "../../lib/context";
import { Conflict, Forbidden } from "../../lib/errors";
import { NO_ERRORS, notFoundPage, pageReply, runPageForm, type Shown } from "../../lib/pages/form";
import { checkoutLink } from "../../lib/html/layout";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
let ctx: PublicCtx;
beforeAll(async () => {
  env = await setup();
  ctx = { db: env.db, baseUrl: "http://localhost", wallets: env.config.wallets, ip: null, locale: "fr", formProofBits: 0 };
});
afterAll(() => env.close());

const shown: Shown = { locale: "en", lang: undefined, values: { name: "Ana", challenge: "c1.old" }, errors: NO_ERRORS, challenge: "", bits: 0 };
const form = (run: () => Promise<{ checkout_url?: string | null }>, framed = false) =>
  runPageForm(ctx, shown, {
    schema: z.object({ name: z.string().min(1) }),
    request: { name: "Ana" },
    fieldOf: { PAYMENT_METHOD_UNAVAILABLE: "payment_method" },
    run,
    again: (again, status) => pageReply(status, JSON.stringify(again)),
    answer: () => pageReply(201, "answered"),
    gone: () => null,
    checkout: (url) => pageReply(201, checkoutLink("Pay", url, "Continue to payment")),
    framed,
  });

describe("runPageForm", () => {
  it("redirects to the answer's checkout_url; inside a frame, links out of it", async () => {
    const url = "https://checkout.example/pay/cs_test_1";
    expect(await form(async () => ({ checkout_url: url }))).toEqual({ redirect: url, status: 303 });
    const framed = (await form(async () => ({ checkout_url: url }), true)) as { status: number; body: string };
    expect(framed.status).toBe(201);
    expect(framed.body).toContain(`href="${url}" target="_top"`);
    expect(((await form(async () => ({ checkout_url: null }))) as { body: string }).body).toBe("answered");
  });

  it("shows a refusal beside its field with its status, keeping the unspent challenge", async () => {
    const refused = (await form(async () => {
      throw new Conflict("PAYMENT_METHOD_UNAVAILABLE");
    })) as { status: number; body: string };
    expect(refused.status).toBe(409);
    const again = JSON.parse(refused.body) as Shown;
    expect(again.errors.fields.payment_method).toBeString();
    expect(again.challenge).toBe("c1.old");
  });

  it("offers a new challenge where the refusal spent or refused the one sent (ALREADY_MEMBER, CHALLENGE_USED), the same one where it came too fast", async () => {
    const challengeAfter = async (err: Error) => {
      const again = (await form(async () => {
        throw err;
      })) as { body: string };
      return (JSON.parse(again.body) as Shown).challenge;
    };
    for (const err of [new Conflict("ALREADY_MEMBER"), new Forbidden("CHALLENGE_USED")]) {
      const next = await challengeAfter(err);
      expect([err.code, next]).not.toEqual([err.code, "c1.old"]);
      expect(next).toBeString();
    }
    expect(await challengeAfter(new Forbidden("FORM_SENT_TOO_FAST"))).toBe("c1.old");
  });

  it("draws the 404 page in the language asked", () => {
    expect(String(notFoundPage("de").body)).toContain("Seite nicht gefunden");
  });
});

describe("clubTimeZone", () => {
  it("is the zone of the club's country, else Europe/Zurich", () => {
    expect(clubTimeZone("DE")).toBe("Europe/Berlin");
    expect(clubTimeZone("fr")).toBe("Europe/Paris");
    expect(clubTimeZone("US")).toBe("Europe/Zurich");
    expect(clubTimeZone(null)).toBe("Europe/Zurich");
  });
});
