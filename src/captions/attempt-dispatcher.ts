// The connections of one attempt to reach the platform: a dispatcher of its own (direct, through an http(s)
// proxy, or through a SOCKS5 proxy), closed when the attempt ends, so that the next attempt opens new
// connections (through the next proxy of the pool) instead of reusing the one the platform refused.
import { SocksClient } from "socks";
import { Agent, buildConnector, type Dispatcher, ProxyAgent } from "undici";

/** A SOCKS5 proxy as undici's connector: the TCP stream comes from the proxy, TLS is ours as usual. */
function socksConnector(proxy: URL, timeoutMs: number): buildConnector.connector {
  const tls = buildConnector({ timeout: timeoutMs });
  return (options, callback) => {
    SocksClient.createConnection({
      proxy: {
        host: proxy.hostname.replace(/^\[|\]$/g, ""),
        port: Number(proxy.port || 1080),
        type: 5,
        userId: proxy.username ? decodeURIComponent(proxy.username) : undefined,
        password: proxy.password ? decodeURIComponent(proxy.password) : undefined,
      },
      command: "connect",
      // The host name goes to the proxy, which resolves it (as socks5h:// says; socks5:// is taken alike).
      destination: {
        host: options.hostname,
        port: Number(options.port || (options.protocol === "https:" ? 443 : 80)),
      },
      timeout: timeoutMs,
    }).then(
      ({ socket }) => {
        if (options.protocol !== "https:") {
          callback(null, socket);
          return;
        }
        tls({ ...options, httpSocket: socket }, callback);
      },
      (error: Error) => callback(error, null),
    );
  };
}

/** A fresh dispatcher for one attempt: close it when the attempt is over. */
export function openAttemptDispatcher(proxy: string | undefined, timeoutMs: number): Dispatcher {
  if (proxy === undefined) return new Agent();
  const url = new URL(proxy);
  if (url.protocol === "socks5:" || url.protocol === "socks5h:") {
    return new Agent({ connect: socksConnector(url, timeoutMs) });
  }
  return new ProxyAgent(proxy);
}
