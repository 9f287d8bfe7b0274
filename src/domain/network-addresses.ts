// The classes of network addresses vidrows never connects to on a stranger's behalf (webhook receivers,
// video pages and everything they lead to), and the networks an operator opens for development.
import { BlockList, isIP } from "node:net";

// Addresses a public server never has. IPv4-mapped (::ffff:0:0/96) and NAT64 (64:ff9b::/96) IPv6
// addresses are refused whole: they would otherwise smuggle an IPv4 loopback or private address.
// One list per family: a BlockList compares IPv4 addresses with IPv6 rules through their IPv4-mapped
// form, so in a shared list the ::ffff:0:0/96 rule would refuse every IPv4 address, public ones too.
const forbiddenIpv4 = new BlockList();
const forbiddenIpv6 = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network", including the unspecified address
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // shared address space (carrier-grade NAT)
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, including cloud metadata services
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, including broadcast
] as const) {
  forbiddenIpv4.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  // Unspecified (::), loopback (::1) and the deprecated IPv4-compatible form (::127.0.0.1), which some
  // systems still route to the embedded IPv4 address.
  ["::", 96],
  ["::ffff:0:0", 96],
  ["64:ff9b::", 96],
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated, still private where used)
  ["ff00::", 8], // multicast
] as const) {
  forbiddenIpv6.addSubnet(network, prefix, "ipv6");
}

/** True for loopback, private, link-local, shared, multicast, unspecified and reserved addresses. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return forbiddenIpv4.check(address, "ipv4");
  if (family === 6) return forbiddenIpv6.check(address, "ipv6");
  return true;
}

// Addresses of a network of one's own, where a receiver under development runs: loopback, private
// (RFC 1918, unique local), shared (carrier-grade NAT, also used by overlay networks) and link-local.
// Not the unspecified, multicast or reserved ranges, and not IPv4-mapped IPv6: no receiver is there.
const ownNetworkIpv4 = new BlockList();
const ownNetworkIpv6 = new BlockList();
for (const [network, prefix] of [
  ["127.0.0.0", 8],
  ["10.0.0.0", 8],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["100.64.0.0", 10],
  ["169.254.0.0", 16],
] as const) {
  ownNetworkIpv4.addSubnet(network, prefix, "ipv4");
}
ownNetworkIpv6.addAddress("::1", "ipv6");
ownNetworkIpv6.addSubnet("fc00::", 7, "ipv6");
ownNetworkIpv6.addSubnet("fe80::", 10, "ipv6");

/** True for a literal loopback, private, shared or link-local address; false for anything else, names included. */
export function isLoopbackOrPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return ownNetworkIpv4.check(address, "ipv4");
  if (family === 6) return ownNetworkIpv6.check(address, "ipv6");
  return false;
}

/** Addresses and networks opened on purpose (VIDROWS_EGRESS_ALLOW), checked before the refused classes. */
export class AllowedNetworks {
  private readonly ipv4 = new BlockList();
  private readonly ipv6 = new BlockList();
  readonly empty: boolean;

  /** Throws an Error naming the first entry that is neither an address nor `address/prefix`. */
  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [address = "", prefixText, ...rest] = entry.split("/");
      const family = isIP(address);
      const max = family === 4 ? 32 : 128;
      const prefix = prefixText === undefined ? max : Number(prefixText);
      if (family === 0 || rest.length > 0 || !/^\d{1,3}$/.test(prefixText ?? "0") || prefix > max) {
        throw new Error(`"${entry}" is neither an IP address nor a network such as 10.0.0.0/8 or fd00::/8`);
      }
      const list = family === 4 ? this.ipv4 : this.ipv6;
      list.addSubnet(address, prefix, family === 4 ? "ipv4" : "ipv6");
    }
    this.empty = entries.length === 0;
  }

  /** Parses a comma-separated setting; an empty or absent one opens nothing. */
  static parse(setting: string | undefined): AllowedNetworks {
    const entries = (setting ?? "")
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== "");
    return new AllowedNetworks(entries);
  }

  has(address: string): boolean {
    const family = isIP(address);
    if (family === 4) return this.ipv4.check(address, "ipv4");
    if (family === 6) return this.ipv6.check(address, "ipv6");
    return false;
  }
}

/** Whether an address may be connected to: opened on purpose, or of no refused class. */
export function isReachableAddress(address: string, allowed: AllowedNetworks): boolean {
  return allowed.has(address) || !isForbiddenAddress(address);
}
