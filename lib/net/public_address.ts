/**
 * Which addresses an outgoing call chosen by an end user (a webhook) may reach: the public
 * internet only. Loopback, private, link-local, carrier-grade NAT, "this network",
 * multicast, reserved and cloud metadata addresses are refused, so a webhook cannot probe
 * the server's own ports or its internal network and read the answers in the delivery log.
 */

/** Why an address is not public, or null when it is. */
export type AddressClass =
  | "loopback"
  | "private"
  | "linkLocal"
  | "sharedNat"
  | "thisNetwork"
  | "multicast"
  | "reserved"
  | "metadata";

/** [first address as a number, prefix length, class] for IPv4. */
const V4_BLOCKS: [string, number, AddressClass][] = [
  ["169.254.169.254", 32, "metadata"],
  ["0.0.0.0", 8, "thisNetwork"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "sharedNat"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "linkLocal"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "reserved"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"],
];

/** [address, prefix length, class] for IPv6. */
const V6_BLOCKS: [string, number, AddressClass][] = [
  ["fd00:ec2::254", 128, "metadata"],
  ["::", 128, "thisNetwork"],
  ["::1", 128, "loopback"],
  ["fc00::", 7, "private"],
  ["fe80::", 10, "linkLocal"],
  ["fec0::", 10, "private"],
  ["ff00::", 8, "multicast"],
  ["100::", 64, "reserved"],
  ["2001:db8::", 32, "reserved"],
];

function v4Number(ip: string): number | null {
  const parts = ip.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) {
    return null;
  }
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

/** The 128 bits of an IPv6 address as a bigint (a dotted IPv4 tail is allowed), or null. */
function v6Number(ip: string): bigint | null {
  let text = ip.toLowerCase().replace(/%.*$/, "");
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const n = v4Number(tail[1]);
    if (n === null) return null;
    text = text.slice(0, -tail[1].length) +
      `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (s: string) => (s ? s.split(":") : []);
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  const fill = halves.length === 2 ? 8 - head.length - rest.length : 0;
  const all = [...head, ...Array(Math.max(fill, 0)).fill("0"), ...rest];
  if (all.length !== 8 || (halves.length === 2 && fill < 1)) return null;
  let n = 0n;
  for (const g of all) {
    if (!/^[0-9a-f]{1,4}$/.test(g)) return null;
    n = (n << 16n) | BigInt(parseInt(g, 16));
  }
  return n;
}

const inV4 = (n: number, base: string, bits: number) =>
  bits === 0 || Math.floor(n / 2 ** (32 - bits)) === Math.floor(v4Number(base)! / 2 ** (32 - bits));

const inV6 = (n: bigint, base: string, bits: number) =>
  (n >> BigInt(128 - bits)) === (v6Number(base)! >> BigInt(128 - bits));

/** Whether a literal IP (v4, or v6 with or without brackets) is an IP at all. */
export function isIpLiteral(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "");
  return v4Number(h) !== null || (h.includes(":") && v6Number(h) !== null);
}

/**
 * The class of a non-public address, or null for a public one. IPv6 forms that carry an
 * IPv4 address (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by it.
 */
export function addressClass(address: string): AddressClass | null {
  const ip = address.replace(/^\[|\]$/g, "");
  const v4 = v4Number(ip);
  if (v4 !== null) return V4_BLOCKS.find(([b, bits]) => inV4(v4, b, bits))?.[2] ?? null;
  const v6 = v6Number(ip);
  if (v6 === null) return "reserved"; // not an address: never "public"
  const embedded = embeddedV4(v6);
  if (embedded !== null) {
    return V4_BLOCKS.find(([b, bits]) => inV4(embedded, b, bits))?.[2] ?? null;
  }
  return V6_BLOCKS.find(([b, bits]) => inV6(v6, b, bits))?.[2] ?? null;
}

function embeddedV4(n: bigint): number | null {
  const low32 = Number(n & 0xffffffffn);
  if (n >> 32n === 0xffffn) return low32; // ::ffff:a.b.c.d
  if (n >> 32n === 0n && n > 1n) return low32; // ::a.b.c.d (deprecated compatible form)
  if (n >> 32n === 0x64ff9b0000000000000000n) return low32; // NAT64 64:ff9b::/96
  if (n >> 112n === 0x2002n) return Number((n >> 80n) & 0xffffffffn); // 6to4
  return null;
}

/** Every address of a host: the literal itself, or its A and AAAA records. */
export async function resolveHost(host: string): Promise<string[]> {
  const h = host.replace(/^\[|\]$/g, "");
  if (isIpLiteral(h)) return [h];
  // "localhost" is answered from the hosts file, never by DNS: it is loopback by definition.
  if (/(^|\.)localhost\.?$/i.test(h)) return ["127.0.0.1", "::1"];
  const lookups = await Promise.allSettled([
    Deno.resolveDns(h, "A"),
    Deno.resolveDns(h, "AAAA"),
  ]);
  return lookups.flatMap((r) => (r.status === "fulfilled" ? r.value : []));
}
