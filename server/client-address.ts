// The client's address, which public routes rate-limit by and the audit log keeps. Behind a
// reverse proxy (Caddy, nginx) every connection comes from the proxy: with the proxy's address in
// TRUST_PROXY, the client is the last X-Forwarded-For entry that is not a trusted proxy. Without
// it the header is ignored, since any client could write one.

export function clientAddress(peer: string | null, forwardedFor: string | null, trusted: readonly string[]): string | null {
  if (!peer) return null;
  // The IPv4 form of a dual-stack socket's `::ffff:a.b.c.d`: counted per address like any IPv4
  // client, not inside one IPv6 /64 shared by every IPv4 client (the sign-in's counts).
  if (!trusted.includes(normalise(peer)) || !forwardedFor) return normalise(peer);
  const hops = forwardedFor
    .split(",")
    .map((h) => normalise(h.trim()))
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) if (!trusted.includes(hops[i])) return hops[i];
  return hops[0] ?? normalise(peer);
}

/** `::ffff:127.0.0.1` (an IPv4 peer on a dual-stack socket) is 127.0.0.1. */
function normalise(address: string): string {
  return address.startsWith("::ffff:") && address.includes(".") ? address.slice(7) : address;
}
