/**
 * The SSRF guard of outbound webhook URLs: a webhook makes this service send requests wherever a
 * partner says, so a URL must not reach the service's own machine or network (cloud metadata at
 * 169.254.169.254, databases on 10.x, admin pages on localhost). Checked at registration and again
 * right before every request, and the request then goes to the very address that was checked, so
 * a DNS answer that changes in between (rebinding) cannot slip through.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import { CommandError } from "../../core/errors";

const MAX_URL_LENGTH = 2048;

/** The addresses a host name resolves to (every one of them, IPv4 and IPv6). */
type Lookup = (hostname: string) => Promise<string[]>;

const systemLookup: Lookup = async (hostname) => (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

export interface UrlRules {
  /** WEBHOOK_ALLOW_PRIVATE: local development and tests only. */
  allowPrivate: boolean;
  /** DNS resolution; tests may substitute one. */
  lookup?: Lookup;
}

/** Where a request may go: the URL as given and the vetted address to connect to. */
export interface Destination {
  url: URL;
  address: string;
}

/** Why a URL may not be called. `permanent`: the URL itself is refused; otherwise (DNS trouble) a later try may work. */
export interface Refusal {
  message: string;
  permanent: boolean;
}

/** The URL rules that need no network: http(s), at most 2048 characters, no credentials. Returns the parsed URL or a refusal. */
export function checkUrlSyntax(raw: string, field: string): URL | Refusal {
  if (raw.length > MAX_URL_LENGTH) return { message: `${field} must be at most ${MAX_URL_LENGTH} characters`, permanent: true };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { message: `${field} must be an http(s) URL`, permanent: true };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { message: `${field} must be an http(s) URL, not ${url.protocol}`, permanent: true };
  if (url.username || url.password) return { message: `${field} must not contain a user name or password`, permanent: true };
  if (!url.hostname) return { message: `${field} must name a host`, permanent: true };
  return url;
}

// --- Address classification -------------------------------------------------------------------

function ipv4ToNumber(address: string): number | null {
  const parts = address.split(".");
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null;
    value = value * 256 + Number(part);
  }
  return value;
}

function ipv6ToBigInt(address: string): bigint | null {
  let text = address.split("%")[0]!.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = ipv4ToNumber(dotted[1]!);
    if (v4 === null) return null;
    text = `${text.slice(0, -dotted[1]!.length)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const gap = 8 - head.length - tail.length;
  if (halves.length === 1 ? gap !== 0 : gap < 1) return null;
  let value = 0n;
  for (const group of [...head, ...Array<string>(halves.length === 2 ? gap : 0).fill("0"), ...tail]) {
    if (!/^[0-9a-f]{1,4}$/.test(group)) return null;
    value = (value << 16n) | BigInt(parseInt(group, 16));
  }
  return value;
}

const v4Ranges: [cidr: string, kind: string][] = [
  ["0.0.0.0/8", "this-network"],
  ["10.0.0.0/8", "private"],
  ["100.64.0.0/10", "shared (CGNAT)"],
  ["127.0.0.0/8", "loopback"],
  ["169.254.0.0/16", "link-local"],
  ["172.16.0.0/12", "private"],
  ["192.0.0.0/24", "reserved"],
  ["192.0.2.0/24", "documentation"],
  ["192.168.0.0/16", "private"],
  ["198.18.0.0/15", "benchmarking"],
  ["198.51.100.0/24", "documentation"],
  ["203.0.113.0/24", "documentation"],
  ["224.0.0.0/4", "multicast"],
  ["255.255.255.255/32", "broadcast"],
  ["240.0.0.0/4", "reserved"],
];

// Ranges whose addresses carry an IPv4 address in their low bits: judged by that address.
const v6Embedding: [cidr: string, name: string, shift: bigint][] = [
  ["::ffff:0:0/96", "IPv4-mapped", 0n],
  ["64:ff9b::/96", "NAT64", 0n],
  ["2002::/16", "6to4", 80n],
];

const v6Ranges: [cidr: string, kind: string][] = [
  ["::/128", "unspecified"],
  ["::1/128", "loopback"],
  ["::/96", "reserved"], // IPv4-compatible (deprecated)
  ["64:ff9b:1::/48", "private"],
  ["100::/64", "reserved"],
  ["2001:db8::/32", "documentation"],
  ["fc00::/7", "private (unique local)"],
  ["fe80::/10", "link-local"],
  ["fec0::/10", "private (site-local)"],
  ["ff00::/8", "multicast"],
];

function v4Matcher([cidr, kind]: [string, string]) {
  const [base, bits] = cidr.split("/") as [string, string];
  const size = 2 ** (32 - Number(bits));
  const start = ipv4ToNumber(base)!;
  return { cidr, kind, contains: (n: number) => n >= start && n < start + size };
}

function v6Prefix(cidr: string) {
  const [base, bits] = cidr.split("/") as [string, string];
  const shift = 128n - BigInt(bits);
  const start = ipv6ToBigInt(base)! >> shift;
  return (n: bigint) => n >> shift === start;
}

const v4Checks = v4Ranges.map(v4Matcher);
const v6Embeddings = v6Embedding.map(([cidr, name, shift]) => ({ name, shift, contains: v6Prefix(cidr) }));
const v6Checks = v6Ranges.map(([cidr, kind]) => ({ cidr, kind, contains: v6Prefix(cidr) }));

/** Why this IP address may not be called ("private, 10.0.0.0/8"), or null for a public address. */
export function addressRefusal(address: string): string | null {
  const version = isIP(address.split("%")[0]!);
  if (version === 4) {
    const n = ipv4ToNumber(address)!;
    const range = v4Checks.find((r) => r.contains(n));
    return range ? `${range.kind}, ${range.cidr}` : null;
  }
  if (version === 6) {
    const n = ipv6ToBigInt(address);
    if (n === null) return "not an IP address";
    const embedding = v6Embeddings.find((r) => r.contains(n));
    if (embedding) {
      const v4 = Number((n >> embedding.shift) & 0xffffffffn);
      const inner = [v4 >>> 24, (v4 >>> 16) & 255, (v4 >>> 8) & 255, v4 & 255].join(".");
      const refusal = addressRefusal(inner);
      return refusal ? `${embedding.name} ${inner}, ${refusal}` : null;
    }
    const range = v6Checks.find((r) => r.contains(n));
    return range ? `${range.kind}, ${range.cidr}` : null;
  }
  return "not an IP address";
}

// Names that mean "this machine or its network" whatever DNS says.
const LOCAL_NAME = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/;

function bareHost(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
}

const withTimeout = <T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> =>
  signal
    ? Promise.race([
        promise,
        new Promise<never>((_, reject) => {
          if (signal.aborted) reject(signal.reason);
          signal.addEventListener("abort", () => reject(signal.reason), { once: true });
        }),
      ])
    : promise;

/**
 * Resolve `url`'s host and vet every address it resolves to (one private answer refuses it: a
 * resolver may rotate them). Returns the address to connect to (IPv4 first), or a refusal.
 */
export async function vetDestination(url: URL, field: string, rules: UrlRules, signal?: AbortSignal): Promise<Destination | Refusal> {
  const host = bareHost(url);
  const refuse = (detail: string): Refusal => ({ message: `${field} must not point to a private or loopback address (${detail})`, permanent: true });
  if (isIP(host)) {
    const refusal = rules.allowPrivate ? null : addressRefusal(host);
    return refusal ? refuse(`${host}: ${refusal}`) : { url, address: host };
  }
  if (!rules.allowPrivate && LOCAL_NAME.test(host)) return refuse(`${host}: a local name`);
  let addresses: string[];
  try {
    addresses = await withTimeout((rules.lookup ?? systemLookup)(host), signal);
  } catch (error) {
    if (signal?.aborted) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    return { message: `${field} host ${host} does not resolve${code ? ` (${code})` : ""}`, permanent: false };
  }
  if (!addresses.length) return { message: `${field} host ${host} does not resolve`, permanent: false };
  if (!rules.allowPrivate)
    for (const address of addresses) {
      const refusal = addressRefusal(address);
      if (refusal) return refuse(`${host} resolves to ${address}: ${refusal}`);
    }
  const ordered = [...addresses].sort((a, b) => isIP(a) - isIP(b));
  return { url, address: ordered[0]! };
}

export const isRefusal = (value: unknown): value is Refusal => typeof value === "object" && value !== null && "permanent" in value;

/**
 * Registration and update: the syntax rules and the address rules, as a 400 naming `field`. A
 * host that does not resolve yet (a receiver still being set up) is accepted: only an answer that
 * is private refuses it. Every delivery resolves and vets the host again, and connects only to the
 * address it vetted, so accepting a name now opens nothing later.
 */
export async function requirePublicUrl(raw: string, field: string, rules: UrlRules): Promise<URL> {
  const url = checkUrlSyntax(raw, field);
  if (isRefusal(url)) throw new CommandError(400, url.message, field);
  const destination = await vetDestination(url, field, rules, AbortSignal.timeout(10_000)).catch(() => ({ message: "", permanent: false }));
  if (isRefusal(destination) && destination.permanent) throw new CommandError(400, destination.message, field);
  return url;
}

/**
 * The request target that connects to the vetted address, not to whatever the name resolves to
 * next: the address in the URL, the name in the Host header and (https) in SNI and the certificate
 * check.
 */
export function pinnedRequest(destination: Destination): { target: string; host: string; serverName?: string } {
  const { url, address } = destination;
  const pinned = new URL(url);
  pinned.hostname = isIP(address) === 6 ? `[${address}]` : address;
  const name = bareHost(url);
  return { target: pinned.href, host: url.host, ...(url.protocol === "https:" && !isIP(name) ? { serverName: name } : {}) };
}
