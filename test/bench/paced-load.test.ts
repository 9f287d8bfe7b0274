// The benchmark's paced load (bench/http/paced-load.ts): requests go out on schedule to every target side
// by side, whatever the servers do, and a wait for a free connection counts against the server.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { dueBy, percentile, runPaced } from "../../bench/http/paced-load.js";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A server answering each request `delayMs` after it arrived (500 on /fail), counting requests and bodies. */
async function slowServer(delayMs: number, seen: { requests: number; bodies: string[] }) {
  const server = createServer((req, res) => {
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
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("paced load", () => {
  it("sends each target rate x duration requests, side by side, with its body, and times each answer", async () => {
    const slowSeen = { requests: 0, bodies: [] as string[] };
    const fastSeen = { requests: 0, bodies: [] as string[] };
    const slow = await slowServer(15, slowSeen);
    const fast = await slowServer(0, fastSeen);
    const summary = await runPaced({
      targets: [
        { url: `${slow}/`, method: "POST", headers: { "content-type": "application/json" }, body: '{"a":1}' },
        { url: `${fast}/`, method: "GET", headers: {} },
      ],
      ratePerSecond: 100,
      durationSeconds: 0.5,
      connections: 20,
    });
    expect(slowSeen.requests).toBe(50);
    expect(fastSeen.requests).toBe(50);
    expect(slowSeen.bodies).toEqual(Array.from({ length: 50 }, () => '{"a":1}'));
    expect(fastSeen.bodies).toEqual([]);
    const [slowSummary, fastSummary] = summary.targets;
    expect(slowSummary).toMatchObject({ sent: 50, ok: 50, failed: 0 });
    expect(fastSummary).toMatchObject({ sent: 50, ok: 50, failed: 0 });
    expect(slowSummary?.latencyMs.p50).toBeGreaterThanOrEqual(15);
  });

  it("counts a request's wait for a free connection: one connection, 20 ms each, 100 due a second", async () => {
    const seen = { requests: 0, bodies: [] as string[] };
    const base = await slowServer(20, seen);
    const summary = await runPaced({
      targets: [{ url: `${base}/`, method: "GET", headers: {} }],
      ratePerSecond: 100,
      durationSeconds: 0.4,
      connections: 1,
    });
    // 40 requests sent over 400 ms take at least 800 ms one at a time: the last waited ~400 ms for the connection.
    expect(summary.targets[0]?.sent).toBe(40);
    expect(summary.targets[0]?.latencyMs.max).toBeGreaterThanOrEqual(390);
  });

  it("counts answers outside 2xx as failed", async () => {
    const base = await slowServer(0, { requests: 0, bodies: [] });
    const summary = await runPaced({
      targets: [{ url: `${base}/fail`, method: "GET", headers: {} }],
      ratePerSecond: 50,
      durationSeconds: 0.2,
      connections: 5,
    });
    expect(summary.targets[0]).toMatchObject({ sent: 10, ok: 0, failed: 10 });
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
