// The HTTP section's yardstick (bench/http/bare-server.ts, recorded-answer.ts): the bare server answers an
// endpoint's own bytes, recorded from one real answer, so that the ratio is not about answer sizes.
import { fork } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { recordAnswer } from "../../bench/http/recorded-answer.js";

const bareServer = fileURLToPath(new URL("../../bench/http/bare-server.ts", import.meta.url));
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** The bare server in a child of its own (through tsx), on a port of its choosing; answers its URL. */
async function startBare(): Promise<string> {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  const child = fork(bareServer, [String(port)], { execArgv: ["--import", "tsx"], stdio: "ignore" });
  cleanups.push(() => child.kill());
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 200; attempt++) {
    if (
      await fetch(url).then(
        () => true,
        () => false,
      )
    )
      return url;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the bare server did not answer");
}

/** A stand-in for vidrows: one fixed answer, and what it was asked. */
async function startReal(): Promise<{ url: string; asked: { method?: string; authorization?: string }[] }> {
  const asked: { method?: string; authorization?: string }[] = [];
  const server = createServer((request, response) => {
    asked.push({ method: request.method, authorization: request.headers.authorization });
    response.writeHead(202, { "content-type": "application/json; charset=utf-8", "x-request-id": "req_1" });
    response.end('{"id":"job_1","videos":["a","b"]}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
}

describe("the bare server's recorded answer", () => {
  it("sends back the real answer's status, headers and body, to GET and to POST", async () => {
    const [bare, real] = await Promise.all([startBare(), startReal()]);
    const headers = { authorization: "Bearer vr_test_x", "content-type": "application/json" };
    await recordAnswer({ url: `${real.url}/v1`, method: "POST", headers, body: '{"videos":[]}' }, bare);
    expect(real.asked).toEqual([{ method: "POST", authorization: "Bearer vr_test_x" }]);

    for (const method of ["GET", "POST"]) {
      const answer = await fetch(`${bare}/recorded`, {
        method,
        headers,
        body: method === "POST" ? '{"videos":[]}' : undefined,
      });
      expect(answer.status).toBe(202);
      expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(answer.headers.get("x-request-id")).toBe("req_1");
      expect(await answer.text()).toBe('{"id":"job_1","videos":["a","b"]}');
    }
  });
});
