// The signed-in session as the pages see it: the API client for the user's key, and signing out.
import { Vidrows } from "@vidrows/client";
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import { fetchWatchingRateLimit } from "./rate-limit-watch.js";

export interface Session {
  readonly client: Vidrows;
  /** A client for the same key that sends through `fetchFunction` (an upload's, which reports progress). */
  clientOver(fetchFunction: typeof fetch): Vidrows;
  /** Forgets the key and shows the sign-in page, with `reason` when it was not the user's choice. */
  signOut(reason?: string): void;
}

/** A client for `apiKey` on the page's own origin (the API serves the dashboard). */
export function clientFor(apiKey: string, fetchFunction: typeof fetch = fetchWatchingRateLimit): Vidrows {
  return new Vidrows({ apiKey, baseUrl: window.location.origin, fetch: fetchFunction });
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (session === null) throw new Error("useSession outside a signed-in page");
  return session;
}
