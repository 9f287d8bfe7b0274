// Where one connection of the egress guard may go: the name resolved once, every address it resolves to
// checked, and the connection made to those checked addresses, never to a second lookup's answer.
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import { type AllowedNetworks, isReachableAddress } from "../../domain/network-addresses.js";

/** The addresses a name resolves to; tests point it at a resolver of their own. */
export type ResolveName = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

export const systemResolver: ResolveName = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** The target is an address vidrows does not reach. */
export class RefusedTarget extends Error {}

/** What the guard decided for one host. */
export type TargetDecision =
  /** Connect to these addresses (in turn), each checked. */
  | { readonly kind: "addresses"; readonly addresses: readonly string[] }
  /** Hand the name to the operator's proxy: the guard cannot resolve it, the proxy may. */
  | { readonly kind: "name-for-proxy" }
  /** An address of a refused class, or a name resolving to one. */
  | { readonly kind: "refused"; readonly address: string }
  /** The name resolves to nothing and there is no proxy to ask. */
  | { readonly kind: "unresolved" };

const lookupTimeoutMs = 10_000;

function withinTime<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("the name lookup took too long")), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** A host as it appears in a request line or a URL: brackets of IPv6 literals and a final dot removed. */
export function bareHost(host: string): string {
  return host.replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");
}

function reachable(address: string, allowed: AllowedNetworks): boolean {
  try {
    return isReachableAddress(address, allowed);
  } catch {
    // An address the classifier cannot read (a zone index, say) is not connected to.
    return false;
  }
}

/**
 * Decides where a connection to `host` may go. A name that resolves to several addresses is refused when
 * any of them is refused: a later lookup could otherwise land on the refused one.
 */
export async function decideTarget(
  host: string,
  options: { resolve: ResolveName; allowed: AllowedNetworks; throughProxy: boolean },
): Promise<TargetDecision> {
  const bare = bareHost(host);
  if (isIP(bare) !== 0) {
    return reachable(bare, options.allowed)
      ? { kind: "addresses", addresses: [bare] }
      : { kind: "refused", address: bare };
  }
  let found: readonly { address: string }[];
  try {
    found = await withinTime(options.resolve(bare), lookupTimeoutMs);
  } catch {
    found = [];
  }
  if (found.length === 0) return { kind: options.throughProxy ? "name-for-proxy" : "unresolved" };
  const refused = found.find(({ address }) => !reachable(address, options.allowed));
  if (refused !== undefined) return { kind: "refused", address: refused.address };
  return { kind: "addresses", addresses: found.map(({ address }) => address) };
}
