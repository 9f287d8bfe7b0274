// A process's database pool: what it can have in flight at once, and no more.
import { describe, expect, it } from "vitest";
import { poolSize } from "../../src/app/connections.js";

describe("the pool size of a process", () => {
  it("gives an administration command two connections", () => {
    expect(poolSize({ serve: false, work: false, deliveriesInFlight: 16 })).toBe(2);
  });

  it("gives a serving process ten, for its requests", () => {
    expect(poolSize({ serve: true, work: false, deliveriesInFlight: 16 })).toBe(10);
  });

  it("gives a worker one each for claims, settlements, renewals, each delivery in flight and housekeeping", () => {
    expect(poolSize({ serve: false, work: true, deliveriesInFlight: 16 })).toBe(3 + 16 + 1);
    expect(poolSize({ serve: false, work: true, deliveriesInFlight: 4 })).toBe(3 + 4 + 1);
  });

  it("adds both when a process serves and works", () => {
    expect(poolSize({ serve: true, work: true, deliveriesInFlight: 16 })).toBe(10 + 3 + 16 + 1);
  });
});
