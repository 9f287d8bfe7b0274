// A TCP relay between an API process and PostgreSQL that reads what the client sends and counts it:
// statements, round trips, the SQL text of each, and how long PostgreSQL took to answer each one.
// Bench-only, and only for a counting pass: the relay adds a hop, so no timed load goes through it.
// The server is the real one, unmodified; only its DATABASE_URL points here.
import { createConnection, createServer, type Server, type Socket } from "node:net";

export interface WireCounts {
  /** Statements run: extended-protocol Executes plus simple-protocol Queries (BEGIN, COMMIT, ...). */
  statements: number;
  /**
   * Waits for the server: each Sync and each simple Query ends with ReadyForQuery, and the client
   * (node-postgres) sends nothing more on that connection before it has it.
   */
  roundTrips: number;
  /** Parse messages: with unnamed statements, one per statement run; with named ones, one per connection. */
  parses: number;
  /** Bytes from client to server and back. */
  bytesSent: number;
  bytesReceived: number;
  /** Each statement's SQL, with how often it ran. */
  texts: Map<string, number>;
  /**
   * Each statement's SQL, with the time from its round trip's last message leaving the relay to
   * PostgreSQL's ReadyForQuery arriving, summed, in µs: the server's work plus two hops of loopback.
   */
  answerMicros: Map<string, number>;
}

const emptyCounts = (): WireCounts => ({
  statements: 0,
  roundTrips: 0,
  parses: 0,
  bytesSent: 0,
  bytesReceived: 0,
  texts: new Map(),
  answerMicros: new Map(),
});

// The frontend's first message has no type byte; these codes ask for encryption instead of starting.
const sslRequestCode = 80877103;
const gssRequestCode = 80877104;

/** Reads one client connection's messages as its bytes arrive, in any slicing. */
class FrontendReader {
  private pending: Buffer = Buffer.alloc(0);
  private started = false;
  // Per connection: a named statement's text, for the Executes of its later Binds.
  private readonly named = new Map<string, string>();
  private unnamedText = "";
  private portalText = "";
  // The statements sent since the last Sync, and the round trips waiting for their ReadyForQuery.
  private sinceSync: string[] = [];
  private readonly waiting: { texts: string[]; sentAt: number }[] = [];
  /** Bytes the server answers without a message frame: one per encryption request refused. */
  unframedReplies = 0;

  constructor(private readonly counts: () => WireCounts) {}

  /** The server said ReadyForQuery: the oldest round trip is answered. */
  answered(at: number) {
    const trip = this.waiting.shift();
    if (!trip) return; // The one that ends the start-up.
    const counts = this.counts();
    for (const text of trip.texts) {
      const micros = ((at - trip.sentAt) * 1000) / trip.texts.length;
      counts.answerMicros.set(text, (counts.answerMicros.get(text) ?? 0) + micros);
    }
  }

  push(chunk: Buffer) {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    for (;;) {
      const header = this.started ? 5 : 4;
      if (this.pending.length < header) return;
      const length = this.pending.readInt32BE(this.started ? 1 : 0);
      const total = this.started ? 1 + length : length;
      if (this.pending.length < total) return;
      const message = this.pending.subarray(0, total);
      this.pending = this.pending.subarray(total);
      if (this.started) this.read(String.fromCharCode(message[0] as number), message.subarray(5));
      else {
        const code = message.readInt32BE(4);
        if (code === sslRequestCode || code === gssRequestCode) this.unframedReplies += 1;
        else this.started = true;
      }
    }
  }

  private read(type: string, body: Buffer) {
    const counts = this.counts();
    const cstring = (from: number) => {
      const end = body.indexOf(0, from);
      return { value: body.toString("utf8", from, end), next: end + 1 };
    };
    switch (type) {
      case "P": {
        const name = cstring(0);
        const text = cstring(name.next).value;
        counts.parses += 1;
        if (name.value === "") this.unnamedText = text;
        else this.named.set(name.value, text);
        break;
      }
      case "B": {
        const portal = cstring(0);
        const statement = cstring(portal.next).value;
        this.portalText = statement === "" ? this.unnamedText : (this.named.get(statement) ?? "?");
        break;
      }
      case "E":
        counts.statements += 1;
        counts.texts.set(this.portalText, (counts.texts.get(this.portalText) ?? 0) + 1);
        this.sinceSync.push(this.portalText);
        break;
      case "Q": {
        const text = cstring(0).value;
        counts.statements += 1;
        counts.roundTrips += 1;
        counts.texts.set(text, (counts.texts.get(text) ?? 0) + 1);
        this.waiting.push({ texts: [text], sentAt: performance.now() });
        break;
      }
      case "S":
        counts.roundTrips += 1;
        this.waiting.push({ texts: this.sinceSync, sentAt: performance.now() });
        this.sinceSync = [];
        break;
    }
  }
}

/** Finds the server's ReadyForQuery messages in its bytes, as they arrive. */
class BackendReader {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly frontend: FrontendReader) {}

  push(chunk: Buffer) {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    for (;;) {
      if (this.frontend.unframedReplies > 0 && this.pending.length > 0) {
        this.frontend.unframedReplies -= 1;
        this.pending = this.pending.subarray(1);
        continue;
      }
      if (this.pending.length < 5) return;
      const total = 1 + this.pending.readInt32BE(1);
      if (this.pending.length < total) return;
      if (this.pending[0] === 0x5a /* Z */) this.frontend.answered(performance.now());
      this.pending = this.pending.subarray(total);
    }
  }
}

export interface WireCounter {
  /** host:port to put in the API process's DATABASE_URL instead of the server's. */
  readonly host: string;
  readonly port: number;
  /** The counts since the last reset (or the start), and a fresh start. */
  take(): WireCounts;
  close(): Promise<void>;
}

/** Starts a relay on a free port of 127.0.0.1 to the PostgreSQL server at `target`. */
export async function startWireCounter(target: { host: string; port: number }): Promise<WireCounter> {
  let counts = emptyCounts();
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = createConnection(target);
    const reader = new FrontendReader(() => counts);
    const answers = new BackendReader(reader);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.setNoDelay(true);
      socket.on("close", () => sockets.delete(socket));
      // A side that goes away takes the other with it; the API process sees a lost connection, as it would.
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on("data", (chunk: Buffer) => {
      counts.bytesSent += chunk.length;
      reader.push(chunk);
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      counts.bytesReceived += chunk.length;
      answers.push(chunk);
      client.write(chunk);
    });
    client.on("end", () => upstream.end());
    upstream.on("end", () => client.end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the relay has no port");
  return {
    host: "127.0.0.1",
    port: address.port,
    take() {
      const taken = counts;
      counts = emptyCounts();
      return taken;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The same database URL, reached through the relay. */
export function throughCounter(databaseUrl: string, counter: WireCounter): string {
  const url = new URL(databaseUrl);
  // A `host` parameter (a Unix socket's folder, say) would win over the URL's host.
  url.searchParams.delete("host");
  url.hostname = counter.host;
  url.port = String(counter.port);
  return url.toString();
}
