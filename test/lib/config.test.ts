// Settings: numbers are whole numbers within their range or the start is refused with a message
// naming the setting; before, `MAX_BODY_BYTES=1MB` became NaN and turned the body cap off.
import { describe, expect, it } from "bun:test";
import { loadConfig } from "../../lib/config";

describe("number settings", () => {
  it("have their defaults when unset or empty", () => {
    const config = loadConfig({ PORT: "", MAX_BODY_BYTES: "" });
    expect(config.port).toBe(3000);
    expect(config.maxBodyBytes).toBe(1024 * 1024);
    expect(config.rateLimitPerMinute).toBe(300);
  });

  it("take whole numbers within range", () => {
    const config = loadConfig({ PORT: "8080", MAX_BODY_BYTES: "2048", RATE_LIMIT_PER_MINUTE: "1000000000" });
    expect([config.port, config.maxBodyBytes, config.rateLimitPerMinute]).toEqual([8080, 2048, 1_000_000_000]);
  });

  it.each([
    ["PORT", "0"],
    ["PORT", "70000"],
    ["PORT", "http"],
    ["MAX_BODY_BYTES", "1MB"],
    ["MAX_BODY_BYTES", "10"],
    ["RATE_LIMIT_PER_MINUTE", "300/min"],
    ["RATE_LIMIT_PER_MINUTE", "0"],
  ])("refuse %s=%p, naming the setting", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name} must be a whole number from`));
  });
});

describe("Stripe's settings", () => {
  it("are on only when both keys are set, at Stripe's API unless STRIPE_API_URL says", () => {
    expect(loadConfig({}).stripe).toBeNull();
    expect(loadConfig({ STRIPE_SECRET_KEY: "sk_test_1" }).stripe).toBeNull();
    expect(loadConfig({ STRIPE_WEBHOOK_SECRET: "whsec_1" }).stripe).toBeNull();
    expect(loadConfig({ STRIPE_SECRET_KEY: "sk_test_1", STRIPE_WEBHOOK_SECRET: "whsec_1" }).stripe).toEqual({
      secretKey: "sk_test_1",
      webhookSecret: "whsec_1",
      apiUrl: "https://api.stripe.com",
    });
    expect(loadConfig({ STRIPE_SECRET_KEY: "sk_test_1", STRIPE_WEBHOOK_SECRET: "whsec_1", STRIPE_API_URL: "http://127.0.0.1:12111/" }).stripe?.apiUrl).toBe(
      "http://127.0.0.1:12111",
    );
  });

  it("refuse an STRIPE_API_URL that is not an origin", () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: "sk", STRIPE_WEBHOOK_SECRET: "wh", STRIPE_API_URL: "ftp://x/y" })).toThrow(
      /^STRIPE_API_URL must be an origin/,
    );
  });
});
