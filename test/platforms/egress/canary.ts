// A loopback server that must never be reached: it remembers every request and connection it gets, on
// IPv4 loopback and, where the machine has it, on ::1 at the same port.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Canary {
  readonly port: number;
  /** What reached it: "METHOD path" per request. */
  readonly hits: string[];
  /** Every connection it was opened, whatever spoke on it ("ftp", "rtsp", "http"). */
  readonly connections: string[];
  url(host: string, path: string): string;
  close(): Promise<void>;
}

export async function startCanary(): Promise<Canary> {
  const hits: string[] = [];
  const connections: string[] = [];
  const serve = () =>
    createServer((request, response) => {
      hits.push(`${request.method} ${request.url}`);
      response.end("INTERNALSECRET, 42\n");
    }).on("connection", (socket) => connections.push(`${socket.remoteAddress}:${socket.remotePort}`));
  const servers: Server[] = [serve()];
  await new Promise<void>((resolve) => servers[0]!.listen(0, "127.0.0.1", resolve));
  const port = (servers[0]!.address() as AddressInfo).port;
  const six = serve();
  const listening = await new Promise<boolean>((resolve) => {
    six.once("error", () => resolve(false));
    six.listen(port, "::1", () => resolve(true));
  });
  if (listening) servers.push(six);
  return {
    port,
    hits,
    connections,
    url: (host, path) => `http://${host.includes(":") ? `[${host}]` : host}:${port}${path}`,
    close: async () => {
      for (const server of servers) server.closeAllConnections();
      await Promise.all(
        servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
      );
    },
  };
}

/** The address test pages stand on for "the public internet": loopback, opened to the guard on purpose. */
export const publicAddress = "127.0.0.2";

export interface PublicPage {
  readonly port: number;
  /** Every path asked for, in order. */
  readonly paths: string[];
  close(): Promise<void>;
}

/** A page server on the public stand-in address: `/redirect-<status>?to=<url>` redirects, anything else is a page. */
export async function startPublicPage(
  page: (path: string) => { status: number; headers?: Record<string, string>; body?: string } | null = () =>
    null,
): Promise<PublicPage> {
  const paths: string[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://page");
    paths.push(url.pathname);
    const status = /^\/redirect-(\d{3})$/.exec(url.pathname)?.[1];
    const own = page(url.pathname);
    if (own !== null) response.writeHead(own.status, own.headers).end(own.body ?? "");
    else if (status !== undefined) {
      response.writeHead(Number(status), { location: url.searchParams.get("to") ?? "" }).end();
    } else response.writeHead(200, { "content-type": "text/plain" }).end("a public page");
  });
  await new Promise<void>((resolve) => server.listen(0, publicAddress, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    paths,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
