// What each delivery attempt's answer means: delivered, retried on the schedule, or given up (disabling the endpoint).
import { describe, expect, it } from "vitest";
import { judgeAttempt } from "../../src/webhooks/delivery-queue.js";

const schedule = [5, 300, 1800, 7200, 18000, 36000, 36000];
const answered = (statusCode: number) => ({ statusCode, error: null, durationMs: 12 });
const noAnswer = { statusCode: null, error: "ECONNREFUSED: connect refused", durationMs: 3 };

describe("judgeAttempt", () => {
  it("calls any 2xx delivered, on any attempt", () => {
    for (const status of [200, 201, 202, 204, 299]) {
      for (const attempt of [1, 4, 8]) {
        expect(judgeAttempt(answered(status), attempt, schedule), `${status} #${attempt}`).toEqual({
          kind: "delivered",
        });
      }
    }
  });

  it("retries anything else after the schedule's wait for that attempt", () => {
    for (const status of [100, 199, 300, 301, 302, 304, 307, 308, 400, 401, 404, 409, 429, 500, 502, 503]) {
      expect(judgeAttempt(answered(status), 1, schedule), String(status)).toEqual({
        kind: "retry",
        afterMs: 5000,
      });
    }
    expect(judgeAttempt(noAnswer, 1, schedule)).toEqual({ kind: "retry", afterMs: 5000 });
    const waits = schedule.map((_, i) => judgeAttempt(answered(500), i + 1, schedule));
    expect(waits).toEqual(schedule.map((seconds) => ({ kind: "retry", afterMs: seconds * 1000 })));
  });

  it("takes decimal seconds, for tests' short schedules", () => {
    expect(judgeAttempt(noAnswer, 1, [0.2, 0.25])).toEqual({ kind: "retry", afterMs: 200 });
    expect(judgeAttempt(noAnswer, 2, [0.2, 0.25])).toEqual({ kind: "retry", afterMs: 250 });
  });

  it("gives up after the last attempt the schedule allows: one more than its length", () => {
    const last = judgeAttempt(answered(500), schedule.length + 1, schedule);
    expect(last.kind).toBe("give_up");
    expect(last.kind === "give_up" && last.reason).toMatch(/all 8 attempts/);
    expect(judgeAttempt(noAnswer, schedule.length + 1, schedule).kind).toBe("give_up");
    expect(judgeAttempt(answered(500), 1, []).kind).toBe("give_up");
    expect(judgeAttempt(answered(200), 1, []).kind).toBe("delivered");
  });

  it("gives up at once on 410 Gone, whatever attempts are left", () => {
    for (const attempt of [1, 3, 8]) {
      const verdict = judgeAttempt(answered(410), attempt, schedule);
      expect(verdict.kind).toBe("give_up");
      expect(verdict.kind === "give_up" && verdict.reason).toMatch(/410/);
    }
  });
});
