// The fair slots' rule on its own: a freed slot goes to the waiting tenant holding the fewest, in turn
// among equals; each tenant's queue is bounded; a waiter that gives up leaves its place.
import { describe, expect, it } from "vitest";
import { FairSlots, QueueFull } from "../../src/concurrency/fair-slots.js";

/** Work that runs until its `finish` is called, recording when it started. */
function gatedRuns(slots: FairSlots) {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const start = (tenant: string, name: string, signal?: AbortSignal) =>
    slots.run(
      tenant,
      () =>
        new Promise<string>((resolve) => {
          started.push(name);
          finishers.set(name, () => resolve(name));
        }),
      { signal },
    );
  const finish = async (name: string) => {
    const done = finishers.get(name);
    if (done === undefined) throw new Error(`${name} has not started`);
    done();
    // Lets the release and the next grant's continuation run.
    for (let turn = 0; turn < 5; turn++) await Promise.resolve();
  };
  return { started, start, finish };
}

const settle = async () => {
  for (let turn = 0; turn < 5; turn++) await Promise.resolve();
};

describe("FairSlots", () => {
  it("lets a tenant alone use every slot, and queues the rest in arrival order", async () => {
    const slots = new FairSlots(2, 5);
    const { started, start, finish } = gatedRuns(slots);
    const runs = ["a1", "a2", "a3", "a4"].map((name) => start("a", name));
    await settle();
    expect(started).toEqual(["a1", "a2"]);
    expect(slots.waiting("a")).toBe(2);
    await finish("a1");
    await finish("a2");
    await finish("a3");
    await finish("a4");
    expect(started).toEqual(["a1", "a2", "a3", "a4"]);
    expect(await Promise.all(runs)).toEqual(["a1", "a2", "a3", "a4"]);
  });

  it("hands a freed slot to the tenant holding fewer, ahead of the one that filled them", async () => {
    const slots = new FairSlots(2, 5);
    const { started, start, finish } = gatedRuns(slots);
    for (const name of ["a1", "a2", "a3", "a4"]) void start("a", name);
    await settle();
    void start("b", "b1");
    void start("b", "b2");
    await settle();
    await finish("a1");
    expect(started).toEqual(["a1", "a2", "b1"]);
    // a holds 1 and b holds 1: in turn, a (served longest ago) before b's second.
    await finish("a2");
    expect(started).toEqual(["a1", "a2", "b1", "a3"]);
    // a's a3 ends: a then holds none, b one, so a's next goes first; b's ends: b's next.
    await finish("a3");
    expect(started.at(-1)).toBe("a4");
    await finish("b1");
    expect(started.at(-1)).toBe("b2");
  });

  it("takes turns among three tenants holding equal shares", async () => {
    const slots = new FairSlots(1, 5);
    const { started, start, finish } = gatedRuns(slots);
    for (const name of ["a1", "a2", "a3"]) void start("a", name);
    for (const name of ["b1", "b2"]) void start("b", name);
    void start("c", "c1");
    await settle();
    for (const name of ["a1", "b1", "c1", "a2", "b2"]) await finish(name);
    expect(started).toEqual(["a1", "b1", "c1", "a2", "b2", "a3"]);
  });

  it("refuses a tenant's request past its queue bound, not another tenant's", async () => {
    const slots = new FairSlots(1, 2);
    const { start } = gatedRuns(slots);
    void start("a", "a1");
    void start("a", "a2");
    void start("a", "a3");
    await settle();
    await expect(start("a", "a4")).rejects.toBeInstanceOf(QueueFull);
    expect(slots.waiting("a")).toBe(2);
    void start("b", "b1");
    await settle();
    expect(slots.waiting("b")).toBe(1);
  });

  it("with a bound of 0 refuses whoever finds no slot free", async () => {
    const slots = new FairSlots(1, 0);
    const { start } = gatedRuns(slots);
    void start("a", "a1");
    await expect(start("b", "b1")).rejects.toBeInstanceOf(QueueFull);
  });

  it("lets a waiter that gives up leave: its place frees, the slot goes to the next", async () => {
    const slots = new FairSlots(1, 2);
    const { started, start, finish } = gatedRuns(slots);
    void start("a", "a1");
    const leaving = new AbortController();
    const gaveUp = start("a", "a2", leaving.signal);
    void start("a", "a3");
    await settle();
    expect(slots.waiting("a")).toBe(2);
    leaving.abort(new Error("the client went away"));
    await expect(gaveUp).rejects.toThrow("the client went away");
    expect(slots.waiting("a")).toBe(1);
    void start("a", "a4");
    await settle();
    expect(slots.waiting("a")).toBe(2);
    await finish("a1");
    expect(started).toEqual(["a1", "a3"]);
    expect(slots.holding("a")).toBe(1);
  });

  it("frees the slot of work that fails, for the next waiter", async () => {
    const slots = new FairSlots(1, 2);
    const failing = slots.run("a", async () => {
      throw new Error("listing failed");
    });
    const next = slots.run("b", async () => "b ran");
    await expect(failing).rejects.toThrow("listing failed");
    expect(await next).toBe("b ran");
    expect(slots.holding("a") + slots.holding("b")).toBe(0);
  });
});
