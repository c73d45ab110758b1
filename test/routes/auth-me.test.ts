// GET /api/auth/me
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

describe("GET /api/auth/me", () => {
  it("returns the admin, the key's scopes and the club with its SPEC defaults", async () => {
    const res = await env.call("GET", "/api/auth/me");
    expect(res.status).toBe(200);
    expect(res.body.club_id).toBe(env.clubId);
    expect(res.body.email).toBe("owner@test.org");
    expect(res.body.role).toBe("owner");
    expect(res.body.read_only).toBe(false);
    expect(res.body.onboarding_step).toBe("created");
    expect(res.body.onboarding).toEqual({});
    expect(res.body.scopes).toEqual(env.allEdit);
    const club = res.body.club;
    expect(club.id).toBe(env.clubId);
    expect(club.locale).toBe("fr");
    expect(club.card_label_color).toBe("#C8C8C8");
    expect(club.card_barcode_format).toBe("qr");
    expect(club.price_display_mode).toBe("period");
    expect(club.fee_model).toBe("all_in");
    expect(club.member_referral_reward_percent).toBe(10);
    expect(club.accounting_account_revenue).toBe("3100");
    expect(club.accounting_account_events_name).toBe("");
    expect(club.custom_fields_schema).toEqual([]);
    expect(club.payment_methods_enabled).toHaveLength(1);
    expect(club.date_format_effective).toBe("iso");
    expect(club.number_format_effective).toBe("space_dot");
    expect("name_order" in club).toBe(false);
  });

  it("shows a limited key's own scopes", async () => {
    const key = await env.makeKey({ members: "view", events: "edit" });
    const res = await env.call("GET", "/api/auth/me", { key });
    expect(res.status).toBe(200);
    expect(res.body.scopes).toEqual({ members: "view", events: "edit" });
  });

  it("caps a read-only admin's key to view and says read_only", async () => {
    const admin = await env.makeAdmin({ readOnly: true });
    const key = await env.makeKey({ members: "view" }, { adminId: admin.id });
    const res = await env.call("GET", "/api/auth/me", { key });
    expect(res.body.read_only).toBe(true);
    expect(res.body.scopes).toEqual({ members: "view" });
  });

  it("answers 401 with no key and with a key of the wrong form", async () => {
    expect((await env.call("GET", "/api/auth/me", { key: null })).status).toBe(401);
    expect((await env.call("GET", "/api/auth/me", { key: "sk_test_123" })).status).toBe(401);
    expect((await env.call("GET", "/api/auth/me", { key: null, headers: { authorization: "Basic abc" } })).status).toBe(401);
  });
});
