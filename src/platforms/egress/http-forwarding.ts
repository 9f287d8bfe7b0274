// A plain-HTTP request through the egress guard (`GET http://host/path` in absolute form): its target
// checked and connected to like a tunnel's, the request sent on without the hop-by-hop and proxy headers
// (in origin form to the target, in absolute form to an operator's http proxy behind the guard), and the
// answer passed back as it comes, headers bounded. Only http:// is forwarded: an ftp:// or other scheme a
// program hands its proxy is refused, never fetched some other way.
import { type IncomingMessage, request as httpRequest, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { RefusedTarget } from "./egress-target.js";

/** Where one plain-http request goes: the target itself, or the operator's http proxy in front of it. */
export interface PlainHttpRoute {
  readonly stream: Duplex;
  /** Set when `stream` is an http proxy's: the request goes in absolute form, with its credentials. */
  readonly viaProxy: { readonly authorization: string | null } | null;
}

export interface Forwarding {
  readonly open: (host: string, port: number) => Promise<PlainHttpRoute>;
  /** Remembers a request refused for its scheme, as a refused address is remembered. */
  readonly refuse: (what: string) => void;
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
  if (url.protocol !== "http:") {
    // An ftp:// a page redirected to, say: vidrows reaches pages over http and https only.
    forwarding.refuse(`${url.protocol}//${url.host}`);
    return answer(response, 403, "vidrows reaches http:// and https:// only.\n");
  }
  let route: PlainHttpRoute;
  try {
    route = await forwarding.open(url.hostname, Number(url.port || 80));
  } catch (error) {
    if (error instanceof RefusedTarget)
      return answer(response, 403, "vidrows does not reach this address.\n");
    return answer(response, 502, "The address could not be reached.\n");
  }
  const { stream, viaProxy } = route;
  const credentials = viaProxy?.authorization ? ["Proxy-Authorization", viaProxy.authorization] : [];
  const outgoing = httpRequest({
    createConnection: () => stream as never,
    method: request.method,
    // URL.href: the target as the guard read and checked it, fragment-free, in absolute form for a proxy.
    path: viaProxy === null ? `${url.pathname}${url.search}` : `${url.origin}${url.pathname}${url.search}`,
    headers: [...endToEnd(request.rawHeaders), ...credentials, "Connection", "close"],
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
