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

describe("TRUST_PROXY", () => {
  it("takes the proxies' IP addresses, spaces and case as written, in the form the server sees a connection's address", () => {
    expect(loadConfig({ TRUST_PROXY: " 127.0.0.1 , ::1 " }).trustProxy).toEqual(["127.0.0.1", "::1"]);
    expect(loadConfig({ TRUST_PROXY: "0:0:0:0:0:0:0:1,FD00::A,::ffff:10.0.0.2" }).trustProxy).toEqual(["::1", "fd00::a", "10.0.0.2"]);
    expect(loadConfig({ TRUST_PROXY: " " }).trustProxy).toEqual([]);
  });

  it.each(["true", "True", " 1 ", "yes", "localhost", "10.0.0.0/8", "127.0.0.1;::1", "256.1.1.1"])(
    "refuses %p in one line naming the setting and what it takes",
    (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(
        /^TRUST_PROXY must list the reverse proxy's IP addresses, separated by commas \(such as 127\.0\.0\.1,::1\): got "/,
      );
    },
  );
});

describe("WEBHOOK_ALLOW_PRIVATE", () => {
  it("reads true or false as CHECK_RESPONSES does, and refuses anything else", () => {
    expect(loadConfig({}).webhooks.allowPrivate).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: " True " }).webhooks.allowPrivate).toBe(true);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: "1" }).webhooks.allowPrivate).toBe(true);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: "0" }).webhooks.allowPrivate).toBe(false);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: "yes" })).toThrow(/^WEBHOOK_ALLOW_PRIVATE must be true or false/);
  });
});
