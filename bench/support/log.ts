// Progress lines on stderr (the results go to files), and timing a step.

const startedAt = Date.now();

export function log(message: string): void {
  const seconds = ((Date.now() - startedAt) / 1000).toFixed(1).padStart(6);
  process.stderr.write(`[bench ${seconds}s] ${message}\n`);
}

export async function timed<T>(work: () => Promise<T>): Promise<{ seconds: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { seconds: (performance.now() - start) / 1000, value };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
