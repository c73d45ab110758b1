// The club's payout IBAN is checked when saved (issue 27 "Bad input"): a typo in it would print a
// QR code no bank accepts on every invoice, so a wrong check sum is refused, in the club's language.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { clubs } from "../../db/schema";
import { isQrIban, isValidIban } from "../../lib/iban";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const stored = async () => (await env.db.read.select({ iban: clubs.payout_iban }).from(clubs).where(eq(clubs.id, env.clubId)))[0].iban;
const put = (body: unknown) => env.call("PUT", `/api/clubs/${env.clubId}`, { body });

describe("payout_iban", () => {
  it("is stored as typed when its check digits are right, spaces and all", async () => {
    const res = await put({ payout_iban: "CH93 0076 2011 6238 5295 7" });
    expect(res.status).toBe(200);
    expect(res.body.payout_iban).toBe("CH93 0076 2011 6238 5295 7");
    expect(await stored()).toBe("CH93 0076 2011 6238 5295 7");
  });

  it("with a wrong check sum is a 422 naming the field, and the stored IBAN stays", async () => {
    for (const wrong of ["CH9400762011623852957", "CH93 0076 2011 6238 5295 8", "DE89370400440532013001", "IBAN", "CH93"]) {
      const res = await put({ payout_iban: wrong });
      expect([wrong, res.status]).toEqual([wrong, 422]);
      expect(res.body.detail).toEqual([
        { loc: ["body", "payout_iban"], msg: "IBAN invalide : vérifiez le pays, la longueur et les chiffres de contrôle.", type: "invalid_iban" },
      ]);
    }
    expect(await stored()).toBe("CH93 0076 2011 6238 5295 7");
  });

  it("null clears it", async () => {
    expect((await put({ payout_iban: null })).status).toBe(200);
    expect(await stored()).toBeNull();
  });
});

describe("IBAN checks", () => {
  it("know a QR-IBAN by its institution id 30000..31999", () => {
    expect(isValidIban("CH44 3199 9123 0008 8901 2")).toBe(true);
    expect(isQrIban("CH44 3199 9123 0008 8901 2")).toBe(true);
    expect(isQrIban("CH9300762011623852957")).toBe(false);
    expect(isValidIban("DE89 3704 0044 0532 0130 00")).toBe(true);
    expect(isQrIban("DE89370400440532013000")).toBe(false);
  });
});
