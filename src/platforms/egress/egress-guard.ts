// The egress guard of a process: every connection made because of a submitted URL (yt-dlp, ffmpeg and
// vidrows' own requests) goes through a session of it, which resolves each name once, refuses the address
// classes vidrows never reaches (unless VIDROWS_EGRESS_ALLOW opens them) and connects to what it checked.
import { AllowedNetworks } from "../../domain/network-addresses.js";
import { ConnectionBudget } from "./connection-budget.js";
import { EgressSession } from "./egress-session.js";
import { type ResolveName, systemResolver } from "./egress-target.js";

export interface EgressGuardOptions {
  /** VIDROWS_EGRESS_ALLOW: addresses and networks a development setup opens. */
  readonly allowed?: AllowedNetworks;
  /** How names are resolved; the system's resolver unless a test gives its own. */
  readonly resolve?: ResolveName;
  /** Connections open at once through all of the process's sessions (256 unless set). */
  readonly maxConnections?: number;
  /** The most bytes of a request's or answer's headers (32 KiB unless set). */
  readonly maxHeaderBytes?: number;
  /** A connection silent this long is closed (60 s unless set). */
  readonly idleTimeoutMs?: number;
}

/** The message of a video whose page led to a refused address; it names no address or network error. */
export const refusedAddressMessage = "the page leads to an address vidrows does not reach";

export class EgressGuard {
  private readonly budget: ConnectionBudget;

  constructor(private readonly options: EgressGuardOptions = {}) {
    this.budget = new ConnectionBudget(options.maxConnections ?? 256);
  }

  /** A new session, leaving through the operator's proxy `upstream` when one is given. */
  open(upstream?: string): Promise<EgressSession> {
    return EgressSession.open(
      {
        resolve: this.options.resolve ?? systemResolver,
        allowed: this.options.allowed ?? new AllowedNetworks([]),
        budget: this.budget,
        maxHeaderBytes: this.options.maxHeaderBytes ?? 32 * 1024,
        idleTimeoutMs: this.options.idleTimeoutMs ?? 60_000,
      },
      upstream,
    );
  }

  /** Runs `work` with a session of its own, closed when the work ends however it ends. */
  async within<T>(upstream: string | undefined, work: (session: EgressSession) => Promise<T>): Promise<T> {
    const session = await this.open(upstream);
    try {
      return await work(session);
    } finally {
      await session.close();
    }
  }

  /** Connections open now through the process's sessions. */
  get connectionsInUse(): number {
    return this.budget.inUse;
  }
}
