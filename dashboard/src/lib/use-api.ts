// Loading data and running actions through the client: loading, error and result states, and a 401 from
// any call ending the session (the key was revoked or is wrong).
import { isVidrowsError, type Vidrows } from "@vidrows/client";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { type Session, useSession } from "../session/session.js";

/** Ends the session when the server refused the key; answers whether it did. */
export function endSessionOnUnauthorized(session: Session, error: unknown): boolean {
  if (!isVidrowsError(error) || error.code !== "unauthorized") return false;
  session.signOut(`The server refused the API key: ${error.message} Sign in again with a valid key.`);
  return true;
}

export interface Loaded<T> {
  readonly data: T | undefined;
  readonly error: unknown;
  readonly loading: boolean;
  /** Loads again; the previous data stays on the page meanwhile. */
  reload(): void;
  /** Replaces the data with an answer the page already has (from an action). */
  replace(data: T): void;
}

/** Runs `load` on mount and whenever `deps` change; a newer load wins over an older one. */
export function useApi<T>(
  load: (client: Vidrows, signal: AbortSignal) => Promise<T>,
  deps: unknown[],
): Loaded<T> {
  const session = useSession();
  const [state, setState] = useState<{ data?: T; error: unknown; loading: boolean }>({
    error: null,
    loading: true,
  });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    setState((previous) => ({ ...previous, loading: true }));
    load(session.client, controller.signal).then(
      (data) => !controller.signal.aborted && setState({ data, error: null, loading: false }),
      (error: unknown) => {
        if (controller.signal.aborted || endSessionOnUnauthorized(session, error)) return;
        setState((previous) => ({ ...previous, error, loading: false }));
      },
    );
    return () => controller.abort();
    // The caller names what `load` depends on in `deps`.
  }, [...deps, generation]);
  return {
    data: state.data,
    error: state.error,
    loading: state.loading,
    reload: useCallback(() => setGeneration((n) => n + 1), []),
    replace: useCallback((data: T) => setState({ data, error: null, loading: false }), []),
  };
}

export interface Action<A extends unknown[], T> {
  readonly busy: boolean;
  readonly error: unknown;
  /** Runs the action; answers its result, or undefined when it failed (the error is in `error`). */
  run(...args: A): Promise<T | undefined>;
  clearError(): void;
}

/** A user's action (save, create, revoke): one at a time, its error kept for the page to show. */
export function useAction<A extends unknown[], T>(
  action: (client: Vidrows, ...args: A) => Promise<T>,
): Action<A, T> {
  const session = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const latest = useRef(action);
  latest.current = action;
  const run = useCallback(
    async (...args: A) => {
      setBusy(true);
      setError(null);
      try {
        return await latest.current(session.client, ...args);
      } catch (caught) {
        if (!endSessionOnUnauthorized(session, caught)) setError(caught);
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [session],
  );
  return { busy, error, run, clearError: useCallback(() => setError(null), []) };
}
