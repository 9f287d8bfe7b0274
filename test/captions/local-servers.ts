// Small HTTP servers the captions tests start on loopback: a scripted web server and a forward proxy.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";

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

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return `http://127.0.0.1:${address.port}`;
}

async function shut(server: Server, sockets: Set<Socket>): Promise<void> {
  for (const socket of sockets) socket.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A server that answers every request with the current `handler`, and remembers what it was asked. */
export async function startLocalServer(handler: Handler): Promise<LocalServer> {
  const sockets = new Set<Socket>();
  const local = {
    origin: "",
    requests: [] as SeenRequest[],
    handler,
    close: async () => shut(server, sockets),
  };
  const server = createServer((request, response) => {
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
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  local.origin = await listen(server);
  return local;
}

export interface LocalProxy {
  readonly url: string;
  /** The host:port of every tunnel asked for, in order. */
  readonly tunnels: string[];
  close(): Promise<void>;
}

/** A forward proxy that opens CONNECT tunnels (how undici's ProxyAgent reaches http and https targets alike). */
export async function startLocalProxy(): Promise<LocalProxy> {
  const sockets = new Set<Socket>();
  const tunnels: string[] = [];
  const server = createServer((_request, response) => {
    response.writeHead(405).end();
  });
  server.on("connect", (request: IncomingMessage, client: Socket, head: Buffer) => {
    const target = request.url ?? "";
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
  return { url, tunnels, close: async () => shut(server, sockets) };
}

/** A loopback address where nothing listens: a port that was just free. */
export async function closedOrigin(): Promise<string> {
  const server = createServer();
  const origin = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return origin;
}
