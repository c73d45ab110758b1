// Derived member status (DESIGN.md section 6).
import { describe, expect, it } from "bun:test";
import { derivedStatus } from "../../lib/members/status";

describe("derivedStatus", () => {
  const today = "2026-11-22";
  it("is active when paid and the end is today or later", () => {
    expect(derivedStatus({ payment_status: "paid", membership_end: "2026-11-22" }, today)).toBe("active");
    expect(derivedStatus({ payment_status: "paid", membership_end: "2027-01-01" }, today)).toBe("active");
  });
  it("is expired once the end has passed, unless suspended", () => {
    expect(derivedStatus({ payment_status: "paid", membership_end: "2026-11-21" }, today)).toBe("expired");
    expect(derivedStatus({ payment_status: "pending", membership_end: "2026-11-21" }, today)).toBe("expired");
    expect(derivedStatus({ payment_status: "suspended", membership_end: "2026-11-21" }, today)).toBe("suspended");
  });
  it("is pending while awaiting payment within the period", () => {
    expect(derivedStatus({ payment_status: "pending", membership_end: "2027-01-01" }, today)).toBe("pending");
  });
});
