// An egress guard opened to this machine's loopback, for tests whose fake platform listens there (as
// VIDROWS_EGRESS_ALLOW=127.0.0.0/8,::1 opens it for a development setup).
import { AllowedNetworks } from "../../src/domain/network-addresses.js";
import { EgressGuard } from "../../src/platforms/egress/egress-guard.js";

export function loopbackGuard(): EgressGuard {
  return new EgressGuard({ allowed: new AllowedNetworks(["127.0.0.0/8", "::1"]) });
}
