// The public card routes (/c/<serial>, /c/<serial>/pass.pkpass, /c/<serial>/google,
// /c/logo/<club_id>) share one rate per client address: CARD_RATE_PER_MINUTE requests a minute
// over all of them, then 429 RATE_LIMITED with Retry-After; another address is not affected.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { CARD_RATE_PER_MINUTE } from "../../lib/cards/public-limit";
import { addMember } from "../card-fixtures";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const get = (path: string, ip: string) => env.app.handle(new Request(`http://localhost${path}`, { headers: { "accept-language": "en" } }), ip);

describe("the public card routes' rate per address", () => {
  it("lets CARD_RATE_PER_MINUTE requests of one address through, then answers 429 with Retry-After on every /c/* route", async () => {
    expect(CARD_RATE_PER_MINUTE).toBe(300);
    const m = await addMember(env);
    const serial = m.pass_serial_number;
    const ip = "198.51.100.7";
    // The card page, then the logo: both count against the one rate of the address.
    for (let i = 0; i < CARD_RATE_PER_MINUTE - 1; i++) expect((await get(`/c/${serial}`, ip)).status).toBe(200);
    expect((await get(`/c/logo/${env.clubId}`, ip)).status).toBe(200);

    for (const path of [`/c/${serial}`, `/c/${serial}/pass.pkpass`, `/c/${serial}/google`, `/c/logo/${env.clubId}`, "/c/NoSuchSerial"]) {
      const refused = await get(path, ip);
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      // The card page answers a person: a page in their language; the files, the API's JSON.
      if (path === `/c/${serial}` || path === "/c/NoSuchSerial") expect(await refused.text()).toContain("Too many requests");
      else expect(((await refused.json()) as { code: string }).code).toBe("RATE_LIMITED");
    }
    // A refused request is not counted, and another address is not affected.
    const other = "198.51.100.8";
    expect((await get(`/c/${serial}`, other)).status).toBe(200);
    expect((await get(`/c/${serial}/pass.pkpass`, other)).status).toBe(404); // Apple Wallet not configured here
    expect((await get(`/c/${serial}/google`, other)).status).toBe(404);
  });
});
