// Behind a reverse proxy the client's address comes from X-Forwarded-For, but only when the
// connection comes from a proxy listed in TRUST_PROXY: anyone else could write the header.
import { describe, expect, it } from "bun:test";
import { clientAddress } from "../../server/client-address";

describe("clientAddress", () => {
  it("ignores X-Forwarded-For when TRUST_PROXY is empty (a client could forge it)", () => {
    expect(clientAddress("203.0.113.9", "198.51.100.1", [])).toBe("203.0.113.9");
  });
  it("takes the last untrusted hop when the peer is a trusted proxy", () => {
    expect(clientAddress("127.0.0.1", "198.51.100.1, 203.0.113.7", ["127.0.0.1"])).toBe("203.0.113.7");
    expect(clientAddress("::ffff:127.0.0.1", "10.0.0.5, 198.51.100.1, 127.0.0.1", ["127.0.0.1"])).toBe("198.51.100.1");
  });
  it("ignores the header from a peer that is not a trusted proxy", () => {
    expect(clientAddress("198.51.100.50", "1.2.3.4", ["127.0.0.1"])).toBe("198.51.100.50");
  });
  it("keeps the peer when a trusted proxy sends no header", () => {
    expect(clientAddress("127.0.0.1", null, ["127.0.0.1"])).toBe("127.0.0.1");
  });
});

describe("clientAddress on a dual-stack socket (HOST=::)", () => {
  it("gives an IPv4 peer's own address, not its ::ffff: form", () => {
    expect(clientAddress("::ffff:198.51.100.7", null, [])).toBe("198.51.100.7");
    expect(clientAddress("::ffff:198.51.100.7", "203.0.113.9", [])).toBe("198.51.100.7");
  });
});
