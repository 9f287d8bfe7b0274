// Holding a semaphore permit for a piece of work, without a stopping caller having to wait its turn first.
import type { Semaphore } from "../concurrency/semaphore.js";

/** Resolves holding a permit, or rejects with the signal's reason as soon as it aborts, whichever is first. */
function acquirePermit(semaphore: Semaphore, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  const acquired = semaphore.acquire();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      // The permit still arrives in its turn; it goes straight back, so no permit is ever lost.
      void acquired.then(() => semaphore.release());
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    void acquired.then(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    });
  });
}

/** Runs `work` holding one permit of `semaphore`; an abort while waiting for the permit ends the wait. */
export async function withPermit<T>(
  semaphore: Semaphore,
  signal: AbortSignal,
  work: () => Promise<T>,
): Promise<T> {
  await acquirePermit(semaphore, signal);
  try {
    return await work();
  } finally {
    semaphore.release();
  }
}
