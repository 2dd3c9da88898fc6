import { BlockList, isIP } from "node:net";

/** What Elysia hands a route as `server` (null under app.handle, as in tests). */
export interface PeerSource {
  requestIP(request: Request): { address: string } | null;
}

/** The peer of a request that came through no socket (app.handle in tests, an in-process call): one address for all of them. */
export const NO_SOCKET_ADDRESS = "local";

/** "::ffff:10.0.0.1" is the IPv4 address 10.0.0.1 as a dual-stack socket reports it. */
const plain = (address: string) => address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1");

/**
 * TRUSTED_PROXIES (comma-separated addresses and CIDRs) → the test of whether a peer is one of
 * them. An entry that is neither is a configuration error at startup, never silently ignored.
 */
function trustedProxies(setting: string): (address: string) => boolean {
  const list = new BlockList();
  const entries = setting
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address = "", prefix] = entry.split("/");
    const family = isIP(address);
    const bits = prefix === undefined ? undefined : Number(prefix);
    if (!family || (bits !== undefined && !(Number.isInteger(bits) && bits >= 0 && bits <= (family === 4 ? 32 : 128))))
      throw new Error(`Invalid configuration: TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR block (e.g. 10.0.0.0/8)`);
    const type = family === 4 ? "ipv4" : "ipv6";
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, bits, type);
  }
  if (!entries.length) return () => false;
  return (candidate) => {
    const address = plain(candidate);
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 4 ? "ipv4" : "ipv6");
  };
}

/**
 * Who sent a request, for throttling refusals: the socket's peer, or, when that peer is a trusted
 * proxy, the right-most address of X-Forwarded-For that is not itself a trusted proxy (what a
 * client writes to the left of it is not believed). Without TRUSTED_PROXIES the header is ignored:
 * anyone can send it.
 */
export function clientAddressOf(trustedProxiesSetting: string) {
  const isTrusted = trustedProxies(trustedProxiesSetting);
  return (request: Request, server: PeerSource | null | undefined): string => {
    const peer = plain(server?.requestIP(request)?.address ?? NO_SOCKET_ADDRESS);
    if (!isTrusted(peer)) return peer;
    const forwarded = (request.headers.get("x-forwarded-for") ?? "")
      .split(",")
      .map((hop) => plain(hop.trim()))
      .filter((hop) => isIP(hop) !== 0);
    for (let i = forwarded.length - 1; i >= 0; i--) if (!isTrusted(forwarded[i]!)) return forwarded[i]!;
    // Every hop is a proxy of ours: the request started inside.
    return forwarded[0] ?? peer;
  };
}
