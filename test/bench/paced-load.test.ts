// The benchmark's paced load (bench/paced-load.ts): requests go out on schedule whatever the server
// does, and a request's time counts from when it was due, so a server that falls behind shows it.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { dueBy, percentile, runPaced } from "../../bench/paced-load.js";

let server: Server | undefined;
afterEach(async () => {
  const closing = server;
  server = undefined;
  if (closing) await new Promise((resolve) => closing.close(resolve));
});

/** A server answering each request `delayMs` after it arrived (500 on /fail), counting requests and bodies. */
async function slowServer(delayMs: number, seen: { requests: number; bodies: string[] }) {
  server = createServer((req, res) => {
    seen.requests++;
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      if (body) seen.bodies.push(body);
      setTimeout(() => res.writeHead(req.url === "/fail" ? 500 : 200).end("ok"), delayMs);
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server?.address() as AddressInfo).port}`;
}

describe("paced load", () => {
  it("sends rate x duration requests, with the body, and times each answer", async () => {
    const seen = { requests: 0, bodies: [] as string[] };
    const base = await slowServer(15, seen);
    const summary = await runPaced({
      url: `${base}/`,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
      ratePerSecond: 100,
      durationSeconds: 0.5,
      connections: 20,
    });
    expect(summary.sent).toBe(50);
    expect(seen.requests).toBe(50);
    expect(seen.bodies.every((body) => body === '{"a":1}')).toBe(true);
    expect(summary.ok).toBe(50);
    expect(summary.failed).toBe(0);
    expect(summary.latencyMs.p50).toBeGreaterThanOrEqual(15);
  });

  it("counts a request's wait for a free connection: one connection, 20 ms each, 100 due a second", async () => {
    const seen = { requests: 0, bodies: [] as string[] };
    const base = await slowServer(20, seen);
    const summary = await runPaced({
      url: `${base}/`,
      method: "GET",
      headers: {},
      ratePerSecond: 100,
      durationSeconds: 0.4,
      connections: 1,
    });
    // 40 requests due over 400 ms take at least 800 ms one at a time: the last waited ~400 ms past its due time.
    expect(summary.sent).toBe(40);
    expect(summary.latencyMs.max).toBeGreaterThanOrEqual(390);
  });

  it("counts answers outside 2xx as failed", async () => {
    const base = await slowServer(0, { requests: 0, bodies: [] });
    const summary = await runPaced({
      url: `${base}/fail`,
      method: "GET",
      headers: {},
      ratePerSecond: 50,
      durationSeconds: 0.2,
      connections: 5,
    });
    expect(summary).toMatchObject({ sent: 10, ok: 0, failed: 10 });
  });

  it("schedules by rate and picks percentiles by nearest rank", () => {
    expect(dueBy(0, { ratePerSecond: 1000, durationSeconds: 1 })).toBe(1);
    expect(dueBy(9.5, { ratePerSecond: 1000, durationSeconds: 1 })).toBe(10);
    expect(dueBy(5000, { ratePerSecond: 1000, durationSeconds: 1 })).toBe(1000);
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 0.5)).toBe(50);
    expect(percentile(values, 0.99)).toBe(99);
    expect(percentile([], 0.99)).toBe(0);
  });
});
