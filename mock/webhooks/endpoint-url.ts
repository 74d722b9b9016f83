// Which endpoint URLs may be registered (service-api.md §6.2: "must start with https://, reachable
// from the internet; private or internal addresses are not sent to"). Pure rules, no DNS.
// - strict mode (`--strict-urls`) is the real service: https only, no private or internal host (the
//   ranges below, `localhost`, single-label names, `.internal`, `.local`). Names are not resolved: a
//   public name of a private address is not caught (the real service would check at send time).
// - development mode (the default) also accepts plain http to a loopback host, so a receiver on the
//   developer's machine can be used. Another private or internal address literal needs the user's
//   opt-in (--allow-private-urls): otherwise a web page or a careless script could have the mock
//   send signed POSTs into the developer's network.
import { isIPv4, isIPv6 } from "node:net";

export type UrlCheck = { ok: true; url: URL } | { ok: false; message: string };

/** The rules a URL meets beyond AddEndpointRequest's schema (text of bounded length, checked where it came in). */
export function checkEndpointUrl(text: string, { strict, allowPrivate = false }: { strict: boolean; allowPrivate?: boolean }): UrlCheck {
  if (text.trim() === "") return refuse("url is required: the endpoint's https:// address");
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse(`url ${shown(text)} is not an absolute URL`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return refuse(`url must start with https://, got ${shown(url.protocol)}`);
  if (url.username !== "" || url.password !== "") return refuse("url must not carry a user name or password");
  if (url.hash !== "") return refuse("url must not have a #fragment");
  if (url.port === "0") return refuse("url port 0 is not a port a receiver can listen on");
  const host = hostOf(url);
  if (url.protocol === "http:") {
    if (strict) return refuse(`url must start with https:// (got http://${shown(url.host)}); the service sends to https addresses only`);
    if (!isLoopbackHost(host)) {
      return refuse(`url must start with https://; plain http:// is accepted only for a loopback host (127.0.0.1, ::1, localhost) in development mode, got ${shown(url.host)}`);
    }
    return { ok: true, url };
  }
  if (strict) {
    const why = internalReason(host);
    if (why) return refuse(`url host ${shown(url.host)} is ${why}; the service does not send to private or internal addresses`);
  } else if (!allowPrivate && !isLoopbackHost(host) && (isIPv4(host) || isIPv6(host))) {
    const why = internalReason(host);
    if (why) return refuse(`url host ${shown(url.host)} is ${why}; the mock sends there only with --allow-private-urls (loopback needs nothing)`);
  }
  return { ok: true, url };
}

/** Lower-case host without IPv6 brackets or a trailing dot. */
function hostOf(url: URL): string {
  const host = url.hostname.toLowerCase();
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  return bare.endsWith(".") ? bare.slice(0, -1) : bare;
}

export function isLoopbackHost(host: string): boolean {
  if (host === "localhost") return true;
  if (isIPv4(host)) return host.startsWith("127.");
  if (isIPv6(host)) {
    const mapped = mappedIPv4(host);
    return mapped !== undefined ? mapped.startsWith("127.") : expandIPv6(host) === "0000:0000:0000:0000:0000:0000:0000:0001";
  }
  return false;
}

/** Why a host counts as private or internal, or undefined for a public one. */
export function internalReason(host: string): string | undefined {
  if (isIPv4(host)) return ipv4Reason(host);
  if (isIPv6(host)) return ipv6Reason(host);
  if (host === "localhost" || host.endsWith(".localhost")) return "a loopback name";
  if (host.endsWith(".internal")) return "an internal name (.internal)";
  if (host.endsWith(".local")) return "a link-local name (.local)";
  if (!host.includes(".")) return "a single-label (intranet) name";
  return undefined;
}

// IANA's special-purpose registries: what is not globally reachable, or reaches an address that
// is not (an IPv4 address embedded in an IPv6 one is judged as that IPv4 address).
const IPV4_RANGES: ReadonlyArray<readonly [string, number, string]> = [
  ["0.0.0.0", 8, "an unspecified address (0.0.0.0/8)"],
  ["10.0.0.0", 8, "a private address (10.0.0.0/8)"],
  ["100.64.0.0", 10, "a shared carrier-grade NAT address (100.64.0.0/10)"],
  ["127.0.0.0", 8, "a loopback address (127.0.0.0/8)"],
  ["169.254.0.0", 16, "a link-local address (169.254.0.0/16)"],
  ["172.16.0.0", 12, "a private address (172.16.0.0/12)"],
  ["192.0.0.0", 24, "a reserved address (192.0.0.0/24)"],
  ["192.0.2.0", 24, "a documentation address (192.0.2.0/24)"],
  ["192.88.99.0", 24, "a 6to4 relay anycast address (192.88.99.0/24)"],
  ["192.168.0.0", 16, "a private address (192.168.0.0/16)"],
  ["198.18.0.0", 15, "a benchmarking address (198.18.0.0/15)"],
  ["198.51.100.0", 24, "a documentation address (198.51.100.0/24)"],
  ["203.0.113.0", 24, "a documentation address (203.0.113.0/24)"],
  ["224.0.0.0", 4, "a multicast address (224.0.0.0/4)"],
  ["240.0.0.0", 4, "a reserved or broadcast address (240.0.0.0/4)"],
];

/** [prefix, bits, why, bit offset of an embedded IPv4 address (judged instead) or undefined]. */
const IPV6_RANGES: ReadonlyArray<readonly [string, number, string, number | undefined]> = [
  ["::", 128, "an unspecified address (::)", undefined],
  ["::1", 128, "a loopback address (::1)", undefined],
  ["::ffff:0:0", 96, "an IPv4-mapped address", 0],
  ["::ffff:0:0:0", 96, "an IPv4-translated address", 0],
  ["64:ff9b::", 96, "a NAT64 address", 0],
  ["64:ff9b:1::", 48, "a local-use NAT64 address (64:ff9b:1::/48)", undefined],
  ["::", 96, "a deprecated IPv4-compatible address (::/96)", undefined],
  ["100::", 64, "a discard-only address (100::/64)", undefined],
  ["2001::", 32, "a Teredo address (2001::/32)", undefined],
  ["2001:db8::", 32, "a documentation address (2001:db8::/32)", undefined],
  ["2001::", 23, "an IETF protocol assignment (2001::/23)", undefined],
  ["2002::", 16, "a 6to4 address", 80],
  ["3fff::", 20, "a documentation address (3fff::/20)", undefined],
  ["fc00::", 7, "a unique local address (fc00::/7)", undefined],
  ["fe80::", 10, "a link-local address (fe80::/10)", undefined],
  ["ff00::", 8, "a multicast address (ff00::/8)", undefined],
];

function ipv4ToNumber(address: string): number {
  return address.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

function ipv4Reason(address: string): string | undefined {
  const n = ipv4ToNumber(address);
  for (const [base, bits, why] of IPV4_RANGES) {
    const size = 2 ** (32 - bits);
    const start = ipv4ToNumber(base);
    if (n >= start && n < start + size) return why;
  }
  return undefined;
}

function ipv6Reason(address: string): string | undefined {
  const n = ipv6ToBigInt(address);
  for (const [base, bits, why, embeddedAt] of IPV6_RANGES) {
    const shift = BigInt(128 - bits);
    if (n >> shift !== ipv6ToBigInt(base) >> shift) continue;
    if (embeddedAt === undefined) return why;
    const v4 = Number((n >> BigInt(embeddedAt)) & 0xffffffffn);
    const inner = ipv4Reason([v4 >>> 24, (v4 >>> 16) & 255, (v4 >>> 8) & 255, v4 & 255].join("."));
    // A public IPv4 address behind NAT64 or 6to4 is public; a mapped one is that address.
    return inner === undefined ? undefined : `${why} of ${inner}`;
  }
  return undefined;
}

function ipv6ToBigInt(address: string): bigint {
  return expandIPv6(address)
    .split(":")
    .reduce((n, group) => (n << 16n) | BigInt(parseInt(group, 16)), 0n);
}

/** The IPv4 address inside `::ffff:a.b.c.d` (or its hex form), else undefined. */
function mappedIPv4(address: string): string | undefined {
  const full = expandIPv6(address);
  if (!full.startsWith("0000:0000:0000:0000:0000:ffff:")) return undefined;
  const [hi, lo] = full.slice(30).split(":").map((h) => parseInt(h, 16));
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");
}

/** Eight four-digit groups, so prefixes can be compared as text. */
function expandIPv6(address: string): string {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = ipv4ToNumber(dotted[1]);
    text = `${text.slice(0, dotted.index)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const headGroups = head === "" ? [] : head.split(":");
  const tailGroups = tail === undefined || tail === "" ? [] : tail.split(":");
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(missing).fill("0"), ...tailGroups];
  return groups.map((g) => g.padStart(4, "0")).join(":");
}

function refuse(message: string): UrlCheck {
  return { ok: false, message };
}

function shown(text: string): string {
  const clean = text.replace(/[^\x20-\x7e]/g, "?");
  return JSON.stringify(clean.length > 80 ? `${clean.slice(0, 77)}...` : clean);
}
