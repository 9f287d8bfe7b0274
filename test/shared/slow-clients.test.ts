// Slow and stalled clients are cut off at the configured limits, so that one host cannot hold the sockets.
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// Short limits, so that the test takes seconds; Node looks for overdue requests every half second here.
const headersMs = 500;
const requestMs = 1500;
const keepAliveMs = 1000;
// Node checks every min(1 s, headers limit), then the socket takes a moment to close.
const slackMs = headersMs + 700;

interface Closed {
  /** Milliseconds from connecting to the server's closing the socket. */
  afterMs: number;
  /** What the server wrote, if anything. */
  text: string;
}

/**
 * Connects, lets `feed` write to the socket (it may keep writing on a timer), and resolves when the
 * server closes it. Bounded: rejects after 10 s.
 */
function untilClosed(url: string, feed: (socket: Socket) => () => void): Promise<Closed> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    let stopFeeding = () => {};
    const started = Date.now();
    const timer = setTimeout(() => {
      stopFeeding();
      socket.destroy();
      reject(new Error("the server kept the socket open for 10 s"));
    }, 10_000);
    socket.on("connect", () => {
      stopFeeding = feed(socket);
    });
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      stopFeeding();
      resolve({ afterMs: Date.now() - started, text: Buffer.concat(chunks).toString("utf8") });
    });
  });
}

function expectTimedOutAnswer(closed: Closed): void {
  // Node may close without a word when the socket is not writable; when it answers, it is our 400.
  if (closed.text === "") return;
  expect(closed.text).toMatch(/^HTTP\/1\.1 400 /);
  const body = JSON.parse(closed.text.slice(closed.text.indexOf("\r\n\r\n") + 4));
  expect(body.error.code).toBe("invalid_request");
  expect(body.error.message).toBe("The request took too long to arrive.");
}

const sqlite = dialects.filter((dialect) => dialect.name === "sqlite");

for (const dialect of sqlite) {
  describe.skipIf(dialect.skipReason !== null)(`Slow clients on ${dialectTitle(dialect)}`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(dialect.name, {
        httpTimeouts: { headersMs, requestMs, keepAliveMs },
      });
    });
    afterAll(async () => {
      await server?.close();
    });

    const head = (key: string) =>
      `POST /v1/keys HTTP/1.1\r\nHost: x\r\nauthorization: Bearer ${key}\r\n` +
      "content-type: application/json\r\ncontent-length: 1000\r\n\r\n";

    it("closes a connection whose body stalls, at the request limit", async () => {
      const { key } = await server.workspace();
      const closed = await untilClosed(server.url, (socket) => {
        socket.write(`${head(key)}{"la`);
        return () => {};
      });
      expect(closed.afterMs).toBeGreaterThanOrEqual(requestMs - 100);
      expect(closed.afterMs).toBeLessThan(requestMs + slackMs);
      expectTimedOutAnswer(closed);
    });

    it("closes a connection whose body drips a byte at a time and never ends, at the request limit", async () => {
      const { key } = await server.workspace();
      let sent = 0;
      const closed = await untilClosed(server.url, (socket) => {
        socket.write(`${head(key)}{"label":"`);
        // A byte every 100 ms: each one would reset a mere inactivity timer.
        const drip = setInterval(() => {
          if (socket.writable) socket.write("a");
          sent++;
        }, 100);
        return () => clearInterval(drip);
      });
      expect(sent).toBeGreaterThan(5);
      expect(closed.afterMs).toBeGreaterThanOrEqual(requestMs - 100);
      expect(closed.afterMs).toBeLessThan(requestMs + slackMs);
      expectTimedOutAnswer(closed);
    });

    it("closes a connection whose headers stall, at the headers limit", async () => {
      const closed = await untilClosed(server.url, (socket) => {
        socket.write("GET /v1/usage HTTP/1.1\r\nHost: x\r\nx-pad: ");
        return () => {};
      });
      expect(closed.afterMs).toBeGreaterThanOrEqual(headersMs - 100);
      expect(closed.afterMs).toBeLessThan(headersMs + slackMs);
      expectTimedOutAnswer(closed);
    });

    it("closes an idle kept-alive connection after its answer, at the keep-alive limit", async () => {
      const { key } = await server.workspace();
      let answeredAt = 0;
      const started = Date.now();
      const closed = await untilClosed(server.url, (socket) => {
        socket.once("data", () => {
          answeredAt = Date.now() - started;
        });
        socket.write(`GET /v1/usage HTTP/1.1\r\nHost: x\r\nauthorization: Bearer ${key}\r\n\r\n`);
        return () => {};
      });
      expect(closed.text).toMatch(/^HTTP\/1\.1 200 /);
      expect(closed.afterMs - answeredAt).toBeGreaterThanOrEqual(keepAliveMs - 100);
      expect(closed.afterMs - answeredAt).toBeLessThan(keepAliveMs + slackMs);
    });

    it("still serves a client that sends its request in time", async () => {
      const { key } = await server.workspace();
      const answer = await server.call("POST", "/v1/keys", { key, body: { label: "in time" } });
      expect(answer.status, answer.text).toBe(201);
    });
  });
}
