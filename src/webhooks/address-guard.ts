// Refusing webhook targets inside private networks: the guard runs on the address actually connected to.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isForbiddenAddress } from "../domain/network-addresses.js";

export class ForbiddenAddressError extends Error {
  readonly code = "ERR_WEBHOOK_ADDRESS_FORBIDDEN";
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for sockets that resolves as usual, then refuses the connection if any address the name
 * resolves to is forbidden (so a name that resolves to a public and a private address cannot be
 * turned against the private one on a later lookup).
 */
export function guardedLookup(hostname: string, options: { all?: boolean }, callback: LookupCallback): void {
  dnsLookup(hostname, { all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((a) => isForbiddenAddress(a.address));
    if (refused) {
      return callback(
        new ForbiddenAddressError(
          `${hostname} resolves to ${refused.address}, a private or reserved address.`,
        ),
        [],
      );
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(new ForbiddenAddressError(`${hostname} resolves to no address.`), []);
    callback(null, first.address, first.family);
  });
}
