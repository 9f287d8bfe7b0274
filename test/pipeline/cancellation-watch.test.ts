// The cancellation watch: no statement while nothing is held, one a second for all the held jobs, and
// the work of a cancelled job aborted (on simulated time, so the counts are exact).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CancellationWatch, JobCancelled } from "../../src/pipeline/cancellation-watch.js";

/** A watch over a fake database whose cancelled jobs the test sets; every look is recorded. */
function watchOver(cancelled: Set<string>) {
  const looks: string[][] = [];
  const watch = new CancellationWatch({
    intervalMs: 1000,
    cancelledAmong: async (jobIds) => {
      looks.push([...jobIds].sort());
      return new Set(jobIds.filter((jobId) => cancelled.has(jobId)));
    },
    onError: (error) => {
      throw error;
    },
  });
  return { watch, looks };
}

describe("cancellation watch", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("looks at nothing while nothing is watched, before and after work", async () => {
    const { watch, looks } = watchOver(new Set());
    await vi.advanceTimersByTimeAsync(60_000);
    expect(looks).toEqual([]);

    const work = watch.watch("job_a");
    await vi.advanceTimersByTimeAsync(3_000);
    expect(looks).toHaveLength(3);
    work.end();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(looks).toHaveLength(3);
    await watch.stop();
  });

  it("asks once a second about every held job at once, however many videos each has", async () => {
    const { watch, looks } = watchOver(new Set());
    const works = ["job_a", "job_a", "job_a", "job_b", "job_c", "job_c"].map((jobId) => watch.watch(jobId));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(looks).toHaveLength(10);
    expect(new Set(looks.map(String))).toEqual(new Set(["job_a,job_b,job_c"]));
    for (const work of works) expect(work.signal.aborted).toBe(false);
    for (const work of works) work.end();
    await watch.stop();
  });

  it("aborts every piece of a cancelled job at the next look, and no other job's", async () => {
    const cancelled = new Set<string>();
    const { watch, looks } = watchOver(cancelled);
    const [a1, a2, b] = [watch.watch("job_a"), watch.watch("job_a"), watch.watch("job_b")];
    await vi.advanceTimersByTimeAsync(1_000);
    cancelled.add("job_a");
    expect(a1?.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(a1?.signal.aborted).toBe(true);
    expect(a2?.signal.aborted).toBe(true);
    expect(a1?.signal.reason).toBeInstanceOf(JobCancelled);
    expect(b?.signal.aborted).toBe(false);

    // A video of the job taken up after the look (claimed just before the cancellation) aborts at once,
    // and a job seen cancelled is not asked about again.
    const late = watch.watch("job_a");
    expect(late.signal.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(looks.at(-1)).toEqual(["job_b"]);
    for (const work of [a1, a2, b, late]) work?.end();
    await watch.stop();
  });

  it("aborts at once, without a look, when this process cancelled the job", async () => {
    const { watch, looks } = watchOver(new Set());
    const work = watch.watch("job_a");
    watch.jobCancelled("job_a");
    expect(work.signal.aborted).toBe(true);
    expect(looks).toEqual([]);
    work.end();
    await watch.stop();
  });

  it("keeps looking after a failed look", async () => {
    const cancelled = new Set(["job_a"]);
    const errors: unknown[] = [];
    let failNext = true;
    const watch = new CancellationWatch({
      intervalMs: 1000,
      cancelledAmong: async (jobIds) => {
        if (failNext) {
          failNext = false;
          throw new Error("database away");
        }
        return new Set(jobIds.filter((jobId) => cancelled.has(jobId)));
      },
      onError: (error) => errors.push(error),
    });
    const work = watch.watch("job_a");
    await vi.advanceTimersByTimeAsync(1_000);
    expect(errors).toHaveLength(1);
    expect(work.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(work.signal.aborted).toBe(true);
    work.end();
    await watch.stop();
  });
});
