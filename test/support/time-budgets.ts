// How long the suites whose work the machine's load slows down (workers, child processes) wait for it.
import { vi } from "vitest";

/**
 * How long a test waits for one thing a worker or a child process does (be ready, finish a command,
 * settle a job, deliver, exit) before it calls the wait lost. Every such wait is for an event, never a
 * sleep, so a wide budget costs a passing test nothing; it is wide because on a busy two-core machine a
 * process start alone has taken over 20 s, and a budget the machine's load can use up fails tests that
 * are right.
 */
export const workWaitMs = 60_000;

/** How long a test or a hook of such a suite may take: a few of those waits one after another. */
export const workTestTimeoutMs = 4 * workWaitMs;

/**
 * Gives the calling test file these budgets for its tests and hooks. Call it at the top of every file
 * that starts child processes or waits for a worker's work; a test that needs more says so itself.
 */
export function useWorkBudgets(): void {
  vi.setConfig({ testTimeout: workTestTimeoutMs, hookTimeout: workTestTimeoutMs });
}
