// What a test learns of the egress guard's sessions: the operator's proxy each run left through (the guard
// chains it behind itself; yt-dlp is handed only the guard's own loopback proxy).
import type { PlatformAccess } from "../../src/platforms/platform-access.js";

/** Records the operator's proxy of every session `access` opens, in order (undefined: none). */
export function recordExits(access: PlatformAccess): (string | undefined)[] {
  const exits: (string | undefined)[] = [];
  const open = access.egress.open.bind(access.egress);
  access.egress.open = (upstream) => {
    exits.push(upstream);
    return open(upstream);
  };
  return exits;
}

/** The egress guard's session as yt-dlp is handed it. */
export const guardProxy = /^http:\/\/127\.0\.0\.1:\d+$/;
