// The SSRF guard of webhook URLs (DESIGN.md section 15): the server must not be turned against
// its own network. A URL passes when it is http(s) and every address its host resolves to is
// public; WEBHOOK_ALLOW_PRIVATE lets loopback and private ranges through (tests, LAN set-ups),
// never link-local or cloud metadata addresses. Checked at creation and again before each
// delivery, since a name may resolve elsewhere later. Odd IPv4 notations (2130706433, 0x7f.1,
// 0177.0.0.1) are already normalised by the WHATWG URL parser; IPv4-mapped and NAT64 IPv6
// addresses are judged by the IPv4 address they carry.
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import type { WebhookSettings } from "../config";

/** `public`: always allowed; `private`: loopback, private, shared (CGNAT), unspecified; `forbidden`: link-local, metadata, multicast, reserved. */
export type AddressClass = "public" | "private" | "forbidden";

/**
 * `unresolved`: the host name did not resolve (no address to judge). `private`: every address
 * refused is loopback or private, which WEBHOOK_ALLOW_PRIVATE would let through (the refusal
 * then names the setting).
 */
export type UrlVerdict = { ok: true; url: URL; addresses: string[] } | { ok: false; reason: string; unresolved?: true; private?: true };

/** Resolves a host name to its addresses; replaced in tests only through the parameter. */
export type Resolver = (host: string) => Promise<string[]>;

const RESOLVE_TIMEOUT_MS = 5000;

export const resolveHost: Resolver = async (host) => {
  const found = lookup(host, { all: true, verbatim: true }).then((list) => list.map((a) => a.address));
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`DNS lookup of ${host} timed out`)), RESOLVE_TIMEOUT_MS).unref());
  return Promise.race([found, timeout]);
};

const v4 = (a: number, b: number, c: number, d: number) => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

/** IPv4 ranges as [first address, prefix length, class]. */
const V4_RANGES: [number, number, AddressClass][] = [
  [v4(169, 254, 0, 0), 16, "forbidden"], // link-local, cloud metadata (169.254.169.254)
  [v4(100, 100, 100, 200), 32, "forbidden"], // Alibaba Cloud metadata
  [v4(224, 0, 0, 0), 4, "forbidden"], // multicast
  [v4(240, 0, 0, 0), 4, "forbidden"], // reserved, broadcast
  [v4(0, 0, 0, 0), 8, "private"], // "this network": 0.0.0.0 reaches the local host
  [v4(127, 0, 0, 0), 8, "private"], // loopback
  [v4(10, 0, 0, 0), 8, "private"],
  [v4(172, 16, 0, 0), 12, "private"],
  [v4(192, 168, 0, 0), 16, "private"],
  [v4(100, 64, 0, 0), 10, "private"], // shared address space (CGNAT)
  [v4(192, 0, 0, 0), 24, "private"], // IETF protocol assignments
  [v4(198, 18, 0, 0), 15, "private"], // benchmarking
];

function classifyV4(text: string): AddressClass {
  const parts = text.split(".").map(Number);
  const n = v4(parts[0], parts[1], parts[2], parts[3]);
  for (const [first, bits, cls] of V4_RANGES) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    if ((n & mask) >>> 0 === first) return cls;
  }
  return "public";
}

/** The 8 groups of an IPv6 address (a trailing dotted IPv4 part included). */
function groupsV6(text: string): number[] {
  let s = text.toLowerCase().split("%")[0];
  const dotted = s.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split(".").map(Number);
    s = `${s.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = s.split("::");
  const h = head ? head.split(":") : [];
  const t = tail !== undefined && tail !== "" ? tail.split(":") : [];
  const fill = tail === undefined ? [] : Array(8 - h.length - t.length).fill("0");
  return [...h, ...fill, ...t].map((g) => Number.parseInt(g, 16));
}

function classifyV6(text: string): AddressClass {
  const g = groupsV6(text);
  const embedded = () => `${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`;
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(8)) return "private"; // ::
  if (zeros(7) && g[7] === 1) return "private"; // ::1
  if (zeros(5) && g[5] === 0xffff) return classifyV4(embedded()); // ::ffff:a.b.c.d
  if (zeros(6)) return classifyV4(embedded()); // ::a.b.c.d (deprecated IPv4-compatible)
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return classifyV4(embedded()); // NAT64
  if (g[0] === 0xfd00 && g[1] === 0x0ec2 && g.slice(2, 7).every((x) => x === 0) && g[7] === 0x254) return "forbidden"; // AWS metadata
  if ((g[0] & 0xffc0) === 0xfe80) return "forbidden"; // link-local fe80::/10
  if ((g[0] & 0xff00) === 0xff00) return "forbidden"; // multicast
  if ((g[0] & 0xfe00) === 0xfc00) return "private"; // unique local fc00::/7
  return "public";
}

/** The class of one IP address (text); anything that is not an IP address is `forbidden`. */
export function classifyAddress(address: string): AddressClass {
  const family = isIP(address);
  if (family === 4) return classifyV4(address);
  if (family === 6) return classifyV6(address);
  return "forbidden";
}

const allowed = (cls: AddressClass, settings: WebhookSettings) => cls === "public" || (cls === "private" && settings.allowPrivate);

/**
 * Whether `raw` may receive webhooks: http(s), and every address of its host allowed. A name
 * that does not resolve fails (`reason` says why); the caller decides what that means (refused
 * at creation, a failed attempt at delivery).
 */
export async function checkWebhookUrl(raw: string, settings: WebhookSettings, resolve: Resolver = resolveHost): Promise<UrlVerdict> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "not a URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, reason: `scheme ${url.protocol} is not http(s)` };
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch (err) {
      return { ok: false, reason: `${host} does not resolve (${err instanceof Error ? err.message : String(err)})`, unresolved: true };
    }
    if (!addresses.length) return { ok: false, reason: `${host} does not resolve`, unresolved: true };
  }
  const refusedAll = addresses.filter((a) => !allowed(classifyAddress(a), settings));
  const refused = refusedAll[0];
  if (refused) {
    const reason = `${host === refused ? host : `${host} resolves to ${refused}, which`} is a ${classifyAddress(refused)} address`;
    return refusedAll.every((a) => classifyAddress(a) === "private") ? { ok: false, reason, private: true } : { ok: false, reason };
  }
  return { ok: true, url, addresses };
}
