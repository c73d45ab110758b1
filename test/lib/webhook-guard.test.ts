// The SSRF guard of webhook URLs (lib/webhooks/guard.ts): each address class, the odd notations
// an attacker writes to slip past a naive check, and names judged by every address they resolve to.
import { describe, expect, it } from "bun:test";
import { checkWebhookUrl, classifyAddress } from "../../lib/webhooks/guard";

const strict = { allowPrivate: false };
const lan = { allowPrivate: true };
const resolvingTo = (addresses: string[]) => async () => addresses;

describe("webhook URL guard", () => {
  it("classifies addresses: public, private (loopback, private, CGNAT, unique local), forbidden (link-local, metadata, multicast)", () => {
    const cases: Record<string, string> = {
      "93.184.215.14": "public",
      "2606:2800:21f:cb07:6820:80da:af6b:8b2c": "public",
      "127.0.0.1": "private",
      "127.255.255.254": "private",
      "10.1.2.3": "private",
      "172.31.255.255": "private",
      "172.32.0.1": "public",
      "192.168.0.1": "private",
      "100.64.0.1": "private",
      "0.0.0.0": "private",
      "::1": "private",
      "::": "private",
      "fd12:3456::1": "private",
      "169.254.169.254": "forbidden",
      "169.254.0.1": "forbidden",
      "fe80::1": "forbidden",
      "febf::1": "forbidden",
      "fd00:ec2::254": "forbidden",
      "224.0.0.1": "forbidden",
      "ff02::1": "forbidden",
      "::ffff:127.0.0.1": "private",
      "::ffff:7f00:1": "private",
      "::ffff:169.254.169.254": "forbidden",
      "::ffff:a9fe:a9fe": "forbidden",
      "64:ff9b::a9fe:a9fe": "forbidden",
      "::ffff:93.184.215.14": "public",
      "not an address": "forbidden",
    };
    for (const [address, cls] of Object.entries(cases)) expect({ address, cls: classifyAddress(address) as string }).toEqual({ address, cls });
  });

  it("reads decimal, hexadecimal, octal and short IPv4 notations as the address they are", async () => {
    for (const url of ["http://2130706433/", "http://0x7f000001/", "http://0x7f.1/", "http://0177.0.0.1/", "http://127.1/", "http://[::ffff:127.0.0.1]/"]) {
      expect({ url, ok: (await checkWebhookUrl(url, strict)).ok }).toEqual({ url, ok: false });
    }
    expect((await checkWebhookUrl("http://0xa9fea9fe/", lan)).ok).toBe(false);
  });

  it("judges a name by every address it resolves to; one private address refuses it", async () => {
    expect((await checkWebhookUrl("https://hooks.example/x", strict, resolvingTo(["93.184.215.14"]))).ok).toBe(true);
    const mixed = await checkWebhookUrl("https://hooks.example/x", strict, resolvingTo(["93.184.215.14", "10.0.0.7"]));
    expect(mixed).toMatchObject({ ok: false, reason: "hooks.example resolves to 10.0.0.7, which is a private address" });
    expect((await checkWebhookUrl("https://hooks.example/x", lan, resolvingTo(["10.0.0.7"]))).ok).toBe(true);
    expect((await checkWebhookUrl("https://hooks.example/x", lan, resolvingTo(["169.254.169.254"]))).ok).toBe(false);
    const missing = await checkWebhookUrl("https://hooks.example/x", strict, async () => {
      throw new Error("ENOTFOUND");
    });
    expect(missing).toMatchObject({ ok: false, unresolved: true });
  });

  it("refuses anything but http and https", async () => {
    for (const url of ["ftp://example.org/", "file:///etc/passwd", "gopher://example.org/", "javascript:alert(1)", "ws://example.org/"]) {
      expect({ url, ok: (await checkWebhookUrl(url, lan)).ok }).toEqual({ url, ok: false });
    }
  });
});
