// The lease heartbeat: one renewal for everything in hand; an item found lost has its work aborted.
import { describe, expect, it } from "vitest";
import { ClaimLoop, Stopped } from "../../src/concurrency/claim-loop.js";
import { LeaseHeartbeat } from "../../src/concurrency/lease-heartbeat.js";
import { sleep } from "../../src/concurrency/sleep.js";

const waitFor = async (condition: () => boolean, what: string) => {
  for (let i = 0; i < 500 && !condition(); i++) await sleep(10);
  if (!condition()) throw new Error(`gave up waiting for ${what}`);
};

describe("lease heartbeat", () => {
  it("renews every item in hand at once and aborts only the work whose lease was lost", async () => {
    const queue = ["a", "b", "c"];
    const aborted = new Map<string, unknown>();
    const releases: (() => void)[] = [];
    const loop = new ClaimLoop<string>({
      capacity: 3,
      pollIntervalMs: 10_000,
      claim: async (room) => queue.splice(0, room),
      keyOf: (item) => item,
      handle: (item, signal) =>
        new Promise<void>((resolve, reject) => {
          signal.addEventListener("abort", () => {
            aborted.set(item, signal.reason);
            reject(signal.reason);
          });
          releases.push(resolve);
        }),
      release: async () => {},
      onError: () => {},
    });
    const renewals: string[][] = [];
    const heartbeat = new LeaseHeartbeat({
      intervalMs: 5,
      holdings: () => loop.holdings,
      // "b" was taken over by another worker.
      renew: async (keys) => {
        renewals.push([...keys].sort());
        return new Set(keys.filter((key) => key !== "b"));
      },
      onLost: (key, claim) => loop.abandon(key, claim, new Stopped("lease lost")),
      onError: (error) => {
        throw error;
      },
    });
    loop.start();
    await waitFor(() => loop.inHand === 3, "three items in hand");
    heartbeat.start();
    await waitFor(() => aborted.has("b") && renewals.length >= 2, "the lost lease to stop its work");
    await heartbeat.stop();

    expect(renewals[0]).toEqual(["a", "b", "c"]);
    expect([...aborted.keys()]).toEqual(["b"]);
    expect(aborted.get("b")).toBeInstanceOf(Stopped);
    expect([...loop.holdings.keys()].sort()).toEqual(["a", "c"]);
    for (const release of releases) release();
    await loop.stop(1000);
  });

  it("leaves alone a claim the loop no longer holds", () => {
    const controller = new AbortController();
    const loop = new ClaimLoop<string>({
      capacity: 1,
      pollIntervalMs: 10_000,
      claim: async () => [],
      keyOf: (item) => item,
      handle: async () => {},
      release: async () => {},
      onError: () => {},
    });
    // An earlier claim of an item, since finished: a late renewal result must not abort anything.
    loop.abandon("a", controller, new Stopped("lease lost"));
    expect(controller.signal.aborted).toBe(false);
  });
});
