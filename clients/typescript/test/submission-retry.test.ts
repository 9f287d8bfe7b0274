// A submission whose answer is lost on the way back is retried with its Idempotency-Key and makes exactly
// one job, on the real server behind a proxy that drops the first answer (SQLite and PostgreSQL).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../../../test/support/databases.js";
import { schema, useJobsApi } from "../../../test/support/jobs-api.js";
import { clientFor } from "./client-support.js";

/** Forwards every request to `upstream`; the answer to the first `POST /v1` is read, then the client's connection is cut. */
async function startDroppingProxy(upstream: string) {
  const forwarded: { method: string; url: string; idempotencyKey: string | undefined; status: number }[] = [];
  let dropped = false;
  const proxy = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(
          ([name]) => !["host", "connection", "content-length"].includes(name),
        ),
      ) as Record<string, string>;
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const answer = await fetch(upstream + (request.url ?? ""), { method: request.method, headers, body });
      const text = await answer.text();
      forwarded.push({
        method: request.method ?? "",
        url: request.url ?? "",
        idempotencyKey: headers["idempotency-key"],
        status: answer.status,
      });
      if (!dropped && request.method === "POST" && request.url === "/v1") {
        dropped = true;
        return request.socket.destroy();
      }
      response.writeHead(answer.status, {
        "content-type": answer.headers.get("content-type") ?? "application/json",
      });
      response.end(text);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    forwarded,
    close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
  };
}

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`a lost submission answer on ${dialectTitle(dialect)}`, () => {
    const { server, videoWithCaptions } = useJobsApi(dialect.name);
    let proxy: Awaited<ReturnType<typeof startDroppingProxy>>;
    beforeAll(async () => {
      proxy = await startDroppingProxy(server().url);
    });
    afterAll(() => proxy?.close());

    it("is retried with the same Idempotency-Key and makes exactly one job", async () => {
      const { key } = await server().workspace();
      const created = await clientFor(proxy.url, key).jobs.submit({ videos: [videoWithCaptions()], schema });
      const submissions = proxy.forwarded.filter((f) => f.method === "POST");
      expect(submissions).toHaveLength(2);
      expect(submissions.map((s) => s.status)).toEqual([202, 202]);
      expect(submissions[1]?.idempotencyKey).toBe(submissions[0]?.idempotencyKey);
      const direct = clientFor(server().url, key);
      const page = await direct.jobs.list();
      expect(page.data.map((job) => job.job_id)).toEqual([created.job_id]);
    });
  });
}
