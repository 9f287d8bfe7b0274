// The benchmark's side of memory-preload.ts: asks a child for its JavaScript heap over its IPC channel.
import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The preload, as built (the benchmark runs from dist/bench/). */
export const memoryPreloadPath = fileURLToPath(new URL("./memory-preload.js", import.meta.url));

export interface HeapReading {
  readonly heapUsed: number;
  readonly heapTotal: number;
  readonly external: number;
}

/** The child's heap in bytes; undefined if it has no channel or did not answer within `timeoutMs`. */
export function readHeap(child: ChildProcess, timeoutMs = 3000): Promise<HeapReading | undefined> {
  if (!child.connected || child.exitCode !== null) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const finish = (value: HeapReading | undefined) => {
      clearTimeout(timer);
      child.off("message", onMessage);
      resolve(value);
    };
    const onMessage = (message: unknown) => {
      if (typeof message === "object" && message !== null && "memoryAnswer" in message)
        finish((message as { memoryAnswer: HeapReading }).memoryAnswer);
    };
    // A busy machine can hold the child a while; past this the sample has no heap figure.
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    child.on("message", onMessage);
    child.send({ memory: "read" });
  });
}
