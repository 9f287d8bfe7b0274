// The byte stream to one target of the egress guard: a TCP connection to a checked address, or a tunnel
// through the operator's proxy (http://, https:// or socks5://) that the guard chains behind itself.
import { connect as netConnect, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";
import { SocksClient } from "socks";

const connectTimeoutMs = 15_000;
/** The most a proxy's answer to CONNECT may hold before its blank line. */
const maxProxyAnswerBytes = 16 * 1024;

/** A target that could not be reached; its message is for logs, never for a per-video message. */
export class UnreachableTarget extends Error {}

function connectedSocket(socket: Socket, secure: boolean): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const ready = secure ? "secureConnect" : "connect";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new UnreachableTarget("the connection took too long"));
    }, connectTimeoutMs);
    socket.once(ready, () => {
      clearTimeout(timer);
      socket.removeAllListeners("error");
      resolve(socket);
    });
    socket.once("error", (error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(new UnreachableTarget(error.message));
    });
  });
}

/** A TCP connection to the first of the checked addresses that answers. */
export async function connectDirect(addresses: readonly string[], port: number): Promise<Socket> {
  let last: unknown = new UnreachableTarget("no address");
  for (const address of addresses) {
    try {
      return await connectedSocket(netConnect({ host: address, port }), false);
    } catch (error) {
      last = error;
    }
  }
  throw last;
}

function basicCredentials(proxy: URL): string | null {
  if (proxy.username === "" && proxy.password === "") return null;
  const pair = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return Buffer.from(pair).toString("base64");
}

/** Reads the proxy's answer to CONNECT up to its blank line; what follows it belongs to the tunnel. */
function readProxyAnswer(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => fail("the proxy did not answer"), connectTimeoutMs);
    const fail = (why: string) => {
      clearTimeout(timer);
      socket.off("data", onData);
      socket.destroy();
      reject(new UnreachableTarget(why));
    };
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf("\r\n\r\n");
      if (end === -1) {
        if (received.length > maxProxyAnswerBytes) fail("the proxy's answer is too long");
        return;
      }
      clearTimeout(timer);
      socket.off("data", onData);
      socket.off("error", onError);
      socket.off("close", onClose);
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(received.subarray(0, end).toString("latin1"))?.[1];
      if (status !== "200") {
        socket.destroy();
        reject(new UnreachableTarget(`the proxy answered ${status ?? "something else"} to CONNECT`));
        return;
      }
      const rest = received.subarray(end + 4);
      if (rest.length > 0) socket.unshift(rest);
      resolve();
    };
    const onError = (error: Error) => fail(error.message);
    const onClose = () => fail("the proxy closed the connection");
    socket.on("data", onData);
    socket.once("error", onError);
    socket.once("close", onClose);
  });
}

/** A connection to the operator's http:// or https:// proxy itself. */
export function connectToHttpProxy(proxy: URL): Promise<Socket> {
  const secure = proxy.protocol === "https:";
  const host = proxy.hostname.replace(/^\[|\]$/g, "");
  const port = Number(proxy.port || (secure ? 443 : 80));
  return connectedSocket(
    secure ? tlsConnect({ host, port, servername: host }) : netConnect({ host, port }),
    secure,
  );
}

/** The Proxy-Authorization header the proxy URL's credentials make, or null when it has none. */
export function proxyAuthorization(proxy: URL): string | null {
  const credentials = basicCredentials(proxy);
  return credentials === null ? null : `Basic ${credentials}`;
}

/** Whether the operator's proxy speaks HTTP (and so takes plain-http requests in absolute form). */
export function isHttpProxy(proxy: string): boolean {
  return /^https?:$/.test(new URL(proxy).protocol);
}

async function tunnelThroughHttpProxy(proxy: URL, host: string, port: number): Promise<Socket> {
  const socket = await connectToHttpProxy(proxy);
  const authority = host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
  const authorization = proxyAuthorization(proxy);
  socket.write(
    `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n` +
      (authorization === null ? "" : `Proxy-Authorization: ${authorization}\r\n`) +
      "\r\n",
  );
  await readProxyAnswer(socket);
  return socket;
}

async function tunnelThroughSocks(proxy: URL, host: string, port: number): Promise<Socket> {
  try {
    const { socket } = await SocksClient.createConnection({
      proxy: {
        host: proxy.hostname.replace(/^\[|\]$/g, ""),
        port: Number(proxy.port || 1080),
        type: 5,
        userId: proxy.username ? decodeURIComponent(proxy.username) : undefined,
        password: proxy.password ? decodeURIComponent(proxy.password) : undefined,
      },
      command: "connect",
      destination: { host, port },
      timeout: connectTimeoutMs,
    });
    return socket;
  } catch (error) {
    throw new UnreachableTarget((error as Error).message);
  }
}

/**
 * A tunnel to `host:port` through the operator's proxy. `host` is a checked address, or a name the proxy
 * resolves itself (one the guard checked, or one only the proxy knows).
 */
export function connectThroughProxy(proxy: string, host: string, port: number): Promise<Socket> {
  const url = new URL(proxy);
  if (url.protocol === "socks5:" || url.protocol === "socks5h:") return tunnelThroughSocks(url, host, port);
  return tunnelThroughHttpProxy(url, host, port);
}
