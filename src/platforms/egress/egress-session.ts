// One egress session: a listener on 127.0.0.1 at a port of its own, speaking HTTP CONNECT and plain-HTTP
// forwarding, through which every connection of one attempt (a yt-dlp or ffmpeg run, or vidrows' own
// requests) goes; each target checked by the guard, and each refusal remembered for the attempt's outcome.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";
import { type Dispatcher, ProxyAgent } from "undici";
import type { AllowedNetworks } from "../../domain/network-addresses.js";
import type { ConnectionBudget } from "./connection-budget.js";
import { decideTarget, RefusedTarget, type ResolveName, type TargetDecision } from "./egress-target.js";
import { forwardPlainHttp, type PlainHttpRoute } from "./http-forwarding.js";
import { joinSockets } from "./tunnel.js";
import {
  connectDirect,
  connectThroughProxy,
  connectToHttpProxy,
  isHttpProxy,
  proxyAuthorization,
  UnreachableTarget,
} from "./upstream-streams.js";

export interface SessionSettings {
  readonly resolve: ResolveName;
  readonly allowed: AllowedNetworks;
  readonly budget: ConnectionBudget;
  /** The most bytes of a request's or answer's headers. */
  readonly maxHeaderBytes: number;
  /** A tunnel or request silent this long is closed. */
  readonly idleTimeoutMs: number;
}

/** `host:port` of a CONNECT request line, IPv6 in brackets; null when it is not one. */
function authorityOf(text: string | undefined): { host: string; port: number } | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^\s:/@[\]]+):(\d{1,5})$/.exec(text ?? "");
  const port = Number(match?.[2]);
  if (!match || port < 1 || port > 65535) return null;
  return { host: match[1]!, port };
}

function answerAndClose(socket: Duplex, status: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`, () => socket.destroy());
}

export class EgressSession {
  private readonly refusals: string[] = [];
  private readonly sockets = new Set<Duplex>();
  private agent: ProxyAgent | null = null;

  private constructor(
    private readonly server: Server,
    private readonly settings: SessionSettings,
    /** The operator's proxy this session's connections leave through, if any. */
    readonly upstream: string | undefined,
  ) {}

  static async open(settings: SessionSettings, upstream: string | undefined): Promise<EgressSession> {
    const server = createServer({
      maxHeaderSize: settings.maxHeaderBytes,
      headersTimeout: settings.idleTimeoutMs,
      requestTimeout: settings.idleTimeoutMs,
      keepAliveTimeout: 5_000,
    });
    const session = new EgressSession(server, settings, upstream);
    server.on("connection", (socket: Socket) => session.admit(socket));
    server.on("connect", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      void session.tunnel(request, socket, head);
    });
    server.on("request", (request: IncomingMessage, response: ServerResponse) => {
      void forwardPlainHttp(request, response, {
        open: (host, port) => session.connectForPlainHttp(host, port),
        refuse: (what) => session.refusals.push(what),
        maxHeaderBytes: settings.maxHeaderBytes,
        idleTimeoutMs: settings.idleTimeoutMs,
      });
    });
    server.on("clientError", (_error, socket: Duplex) => answerAndClose(socket, "400 Bad Request"));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    return session;
  }

  /** The proxy URL to hand to yt-dlp (--proxy), ffmpeg (http_proxy) and undici. */
  get proxyUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Whether any connection of the session went to, or was led towards, an address vidrows does not reach. */
  get refused(): boolean {
    return this.refusals.length > 0;
  }

  /** The refused addresses, for the operator's logs (never for a per-video message). */
  get refusedAddresses(): readonly string[] {
    return this.refusals;
  }

  /**
   * undici's dispatcher for vidrows' own requests of this session: https:// through a CONNECT tunnel,
   * http:// as a plain request in absolute form (so that an operator's http proxy behind the guard gets it
   * as one too, not as a tunnel to port 80 that proxies commonly refuse).
   */
  dispatcher(): Dispatcher {
    this.agent ??= new ProxyAgent({ uri: this.proxyUrl, proxyTunnel: false });
    return this.agent;
  }

  /** Stops listening and closes every connection still open. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await this.agent?.destroy().catch(() => {});
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private admit(socket: Socket): void {
    if (!this.settings.budget.take()) {
      socket.destroy();
      return;
    }
    this.sockets.add(socket);
    socket.once("close", () => {
      this.sockets.delete(socket);
      this.settings.budget.release();
    });
  }

  /**
   * A stream to `host:port`: refused (RefusedTarget) for an address of a refused class or a name resolving
   * to one; through the operator's proxy when there is one, else to the addresses checked.
   */
  async connect(host: string, port: number): Promise<Duplex> {
    const decision = await this.decide(host);
    let stream: Duplex;
    if (this.upstream !== undefined) {
      stream = await connectThroughProxy(this.upstream, host.replace(/^\[|\]$/g, ""), port);
    } else if (decision.kind === "addresses") {
      stream = await connectDirect(decision.addresses, port);
    } else {
      throw new UnreachableTarget(`${host} resolves to no address`);
    }
    this.sockets.add(stream);
    stream.once("close", () => this.sockets.delete(stream));
    return stream;
  }

  /**
   * Where a plain-http request to `host:port` goes, checked as connect() checks it: through an operator's
   * http(s) proxy, the proxy itself, to be sent the request in absolute form with the proxy's credentials;
   * otherwise the stream connect() gives, for the request in origin form.
   */
  async connectForPlainHttp(host: string, port: number): Promise<PlainHttpRoute> {
    if (this.upstream === undefined || !isHttpProxy(this.upstream)) {
      return { stream: await this.connect(host, port), viaProxy: null };
    }
    await this.decide(host);
    const proxy = new URL(this.upstream);
    const stream = await connectToHttpProxy(proxy);
    this.sockets.add(stream);
    stream.once("close", () => this.sockets.delete(stream));
    return { stream, viaProxy: { authorization: proxyAuthorization(proxy) } };
  }

  /** The guard's decision for `host`; a refusal is remembered and thrown as RefusedTarget. */
  private async decide(host: string): Promise<Exclude<TargetDecision, { kind: "refused" }>> {
    const decision = await decideTarget(host, {
      resolve: this.settings.resolve,
      allowed: this.settings.allowed,
      throughProxy: this.upstream !== undefined,
    });
    if (decision.kind === "refused") {
      this.refusals.push(decision.address);
      throw new RefusedTarget(`${host} is, or resolves to, ${decision.address}`);
    }
    return decision;
  }

  private async tunnel(request: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    client.on("error", () => client.destroy());
    const target = authorityOf(request.url);
    if (target === null) return answerAndClose(client, "400 Bad Request");
    let stream: Duplex;
    try {
      stream = await this.connect(target.host, target.port);
    } catch (error) {
      return answerAndClose(client, error instanceof RefusedTarget ? "403 Forbidden" : "502 Bad Gateway");
    }
    if (client.destroyed) {
      stream.destroy();
      return;
    }
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length > 0) stream.write(head);
    joinSockets(client, stream, this.settings.idleTimeoutMs);
  }
}
