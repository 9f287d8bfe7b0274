// A reverse proxy on a random loopback port that forwards everything to a server as it arrives, bodies
// streamed both ways, and holds back the answers to the requests a test names until it releases them: the
// server has answered, the browser has not heard yet (its upload shows as under way meanwhile).
import { createServer, type IncomingMessage, request as forward } from "node:http";
import type { AddressInfo } from "node:net";

export interface HoldingProxy {
  /** The proxy's root, `http://127.0.0.1:<port>`, to browse instead of the server's. */
  readonly url: string;
  /** How many answers are held back now. */
  readonly held: number;
  /** Sends every held answer on, and holds none from now on. */
  release(): void;
  close(): Promise<void>;
}

export async function startHoldingProxy(
  target: string,
  holds: (request: IncomingMessage) => boolean,
): Promise<HoldingProxy> {
  const targetUrl = new URL(target);
  let holding = true;
  let held: (() => void)[] = [];
  const server = createServer((incoming, outgoing) => {
    const upstream = forward(
      {
        host: targetUrl.hostname,
        port: targetUrl.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: targetUrl.host },
      },
      (answer) => {
        const send = () => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        };
        if (holding && holds(incoming)) held.push(send);
        else send();
      },
    );
    upstream.on("error", () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get held() {
      return held.length;
    },
    release() {
      holding = false;
      const answers = held;
      held = [];
      for (const send of answers) send();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
