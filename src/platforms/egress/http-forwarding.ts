// A plain-HTTP request through the egress guard (`GET http://host/path` in absolute form): its target
// checked and connected to like a tunnel's, the request sent on in origin form without the hop-by-hop
// and proxy headers, and the answer passed back as it comes, headers bounded.
import { type IncomingMessage, request as httpRequest, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { RefusedTarget } from "./egress-target.js";

export interface Forwarding {
  readonly open: (host: string, port: number) => Promise<Duplex>;
  readonly maxHeaderBytes: number;
  readonly idleTimeoutMs: number;
}

const hopByHop = new Set([
  "connection",
  "keep-alive",
  "proxy-authorization",
  "proxy-authenticate",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** Raw headers (name, value, name, value...) without the hop-by-hop ones. */
function endToEnd(raw: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (!hopByHop.has(raw[i]!.toLowerCase())) kept.push(raw[i]!, raw[i + 1]!);
  }
  return kept;
}

function answer(response: ServerResponse, status: number, text: string): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.writeHead(status, { "content-type": "text/plain", connection: "close" }).end(text);
}

export async function forwardPlainHttp(
  request: IncomingMessage,
  response: ServerResponse,
  forwarding: Forwarding,
): Promise<void> {
  let url: URL;
  try {
    url = new URL(request.url ?? "");
  } catch {
    return answer(response, 400, "A proxy request names an absolute http:// URL.\n");
  }
  if (url.protocol !== "http:") return answer(response, 400, "Only http:// is forwarded; tunnel the rest.\n");
  let stream: Duplex;
  try {
    stream = await forwarding.open(url.hostname, Number(url.port || 80));
  } catch (error) {
    if (error instanceof RefusedTarget)
      return answer(response, 403, "vidrows does not reach this address.\n");
    return answer(response, 502, "The address could not be reached.\n");
  }
  const outgoing = httpRequest({
    createConnection: () => stream as never,
    method: request.method,
    path: `${url.pathname}${url.search}`,
    headers: [...endToEnd(request.rawHeaders), "Connection", "close"],
    setHost: false,
    maxHeaderSize: forwarding.maxHeaderBytes,
  });
  outgoing.setTimeout(forwarding.idleTimeoutMs, () => outgoing.destroy(new Error("idle")));
  outgoing.on("error", () => {
    stream.destroy();
    answer(response, 502, "The address could not be reached.\n");
  });
  outgoing.on("response", (incoming) => {
    response.writeHead(incoming.statusCode ?? 502, incoming.statusMessage, endToEnd(incoming.rawHeaders));
    incoming.pipe(response);
    incoming.on("error", () => response.destroy());
  });
  response.on("close", () => outgoing.destroy());
  request.pipe(outgoing);
}
