// A small local HTTP server that answers each request as a script says (or hangs up, or never answers),
// and records what arrived: for the client's retry, time-out and error-mapping tests.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type ScriptedAnswer =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** Closes the connection after reading the request, without answering. */
  | "hang up"
  /** Never answers (until the server closes). */
  | "stall";

export interface ArrivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly at: number;
}

export interface ScriptedServer {
  readonly url: string;
  readonly requests: readonly ArrivedRequest[];
  close(): Promise<void>;
}

/** Answers requests with `script` in turn; once it runs out, with `{status: 200, body: {}}`. */
export async function startScriptedServer(script: ScriptedAnswer[]): Promise<ScriptedServer> {
  const requests: ArrivedRequest[] = [];
  const stalled: ServerResponse[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      requests.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
        at: Date.now(),
      });
      const answer = script.shift() ?? { status: 200, body: {} };
      if (answer === "hang up") return request.socket.destroy();
      if (answer === "stall") return void stalled.push(response);
      const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body ?? {});
      response.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
      response.end(answer.status === 204 ? undefined : text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The API's error body, as the server would send it. */
export function errorAnswer(
  status: number,
  code: string,
  headers: Record<string, string> = {},
): ScriptedAnswer {
  return {
    status,
    headers,
    body: { error: { code, message: `scripted ${code}`, request_id: "req_scripted" } },
  };
}
