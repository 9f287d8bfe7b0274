// Small servers the captions tests start on loopback: a scripted web server, a forward proxy, a SOCKS5 proxy.
import { readFileSync } from "node:fs";
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { connect, createServer as createNetServer, type Socket } from "node:net";

export interface SeenRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

export type Handler = (request: SeenRequest, response: ServerResponse) => void;

export interface LocalServer {
  readonly origin: string;
  readonly requests: SeenRequest[];
  handler: Handler;
  close(): Promise<void>;
}

async function listen(server: Server, scheme = "http"): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return `${scheme}://127.0.0.1:${address.port}`;
}

// The test certificate (localhost, 127.0.0.1), whose authority vitest.config.ts hands every test worker
// (and the children they start) through NODE_EXTRA_CA_CERTS.
const testTls = () => ({
  cert: readFileSync(new URL("../fixtures/tls/cert.pem", import.meta.url)),
  key: readFileSync(new URL("../fixtures/tls/key.pem", import.meta.url)),
});

async function shut(server: Server, sockets: Set<Socket>): Promise<void> {
  for (const socket of sockets) socket.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * A server that answers every request with the current `handler`, and remembers what it was asked; over
 * HTTPS with the test certificate when `tls` is set, as the platform is.
 */
export async function startLocalServer(
  handler: Handler,
  options: { tls?: boolean } = {},
): Promise<LocalServer> {
  const sockets = new Set<Socket>();
  const local = {
    origin: "",
    requests: [] as SeenRequest[],
    handler,
    close: async () => shut(server, sockets),
  };
  const onRequest = (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const seen: SeenRequest = {
        method: request.method ?? "",
        url: new URL(request.url ?? "/", local.origin),
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      local.requests.push(seen);
      local.handler(seen, response);
    });
  };
  const server: Server = options.tls ? createHttpsServer(testTls(), onRequest) : createServer(onRequest);
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  local.origin = await listen(server, options.tls ? "https" : "http");
  return local;
}

export interface LocalProxy {
  readonly url: string;
  /** The host:port of every tunnel asked for, in order. */
  readonly tunnels: string[];
  /** "METHOD absolute-URL" of every plain request forwarded, in order. */
  readonly forwarded: string[];
  /** The Proxy-Authorization of every request and tunnel asked for ("" when none came), in order. */
  readonly authorizations: string[];
  close(): Promise<void>;
}

/**
 * A forward proxy as the usual ones are: CONNECT tunnels (for https), and plain http:// requests in absolute
 * form forwarded as they come. With `requiredAuthorization`, a plain request without that Proxy-Authorization
 * is answered 407 and not forwarded, as a proxy with credentials does.
 */
export async function startLocalProxy(options: { requiredAuthorization?: string } = {}): Promise<LocalProxy> {
  const sockets = new Set<Socket>();
  const tunnels: string[] = [];
  const forwarded: string[] = [];
  const authorizations: string[] = [];
  const server = createServer((request, response) => {
    const authorization = request.headers["proxy-authorization"] ?? "";
    authorizations.push(authorization);
    const required = options.requiredAuthorization;
    if (required !== undefined && authorization !== required) {
      return void response.writeHead(407, { "proxy-authenticate": 'Basic realm="test"' }).end();
    }
    forwarded.push(`${request.method} ${request.url}`);
    const target = URL.parse(request.url ?? "");
    if (target === null || target.protocol !== "http:") return void response.writeHead(400).end();
    const outgoing = httpRequest(
      {
        host: target.hostname,
        port: target.port || 80,
        method: request.method,
        path: `${target.pathname}${target.search}`,
        headers: request.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    outgoing.on("error", () => response.writeHead(502).end());
    request.pipe(outgoing);
  });
  server.on("connect", (request: IncomingMessage, client: Socket, head: Buffer) => {
    const target = request.url ?? "";
    authorizations.push(request.headers["proxy-authorization"] ?? "");
    tunnels.push(target);
    const [host, port] = target.split(":");
    const upstream = connect(Number(port), host ?? "127.0.0.1", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    sockets.add(client);
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  const url = await listen(server);
  return { url, tunnels, forwarded, authorizations, close: async () => shut(server, sockets) };
}

/** A loopback address where nothing listens: a port that was just free. */
export async function closedOrigin(): Promise<string> {
  const server = createServer();
  const origin = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return origin;
}

export interface LocalSocksProxy {
  readonly url: string;
  /** The host:port of every connection asked for, in order. */
  readonly connections: string[];
  close(): Promise<void>;
}

/** A SOCKS5 proxy without authentication that opens CONNECT streams (the subset proxies for YouTube need). */
export async function startLocalSocksProxy(): Promise<LocalSocksProxy> {
  const sockets = new Set<Socket>();
  const connections: string[] = [];
  const server = createNetServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    client.once("data", (greeting: Buffer) => {
      if (greeting[0] !== 5) return client.destroy();
      client.write(Buffer.from([5, 0]));
      client.once("data", (request: Buffer) => {
        const type = request[3];
        let host: string;
        let offset: number;
        if (type === 1) {
          host = [...request.subarray(4, 8)].join(".");
          offset = 8;
        } else if (type === 3) {
          const length = request[4] ?? 0;
          host = request.subarray(5, 5 + length).toString("utf8");
          offset = 5 + length;
        } else {
          return client.destroy();
        }
        const port = request.readUInt16BE(offset);
        connections.push(`${host}:${port}`);
        const upstream = connect(port, host, () => {
          client.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
          upstream.pipe(client);
          client.pipe(upstream);
        });
        sockets.add(upstream);
        upstream.on("close", () => sockets.delete(upstream));
        upstream.on("error", () => client.destroy());
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return {
    url: `socks5://127.0.0.1:${address.port}`,
    connections,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
