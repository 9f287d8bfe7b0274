// Clients that go away at the worst moment, on raw sockets: after sending a request, mid-answer, or reading slowly.
import { connect, type Socket } from "node:net";
import { pause } from "./jobs-api.js";

/** How a client leaves: a reset (RST), a close (FIN, then RST if bytes arrive), or a half-close (FIN, still reading). */
export type Departure = "reset" | "close" | "half-close";

/**
 * A connected socket. `readNothing` keeps what arrives in the operating system's buffer, as a client
 * that never got to read it (Node otherwise reads ahead into its own buffer as soon as it connects).
 */
function openSocket(baseUrl: string, { readNothing = false } = {}): Promise<Socket> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => resolve(socket));
    if (readNothing) socket.pause();
    socket.once("error", reject);
  });
}

function requestText(method: string, baseUrl: string, path: string, key: string): string {
  const { host } = new URL(baseUrl);
  return `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\n\r\n`;
}

function leave(socket: Socket, how: Departure): void {
  if (how === "reset") socket.resetAndDestroy();
  else if (how === "close") socket.destroy();
  else socket.end();
}

/**
 * Sends `GET path` and leaves `afterMs` later (0: in the same tick as the request), having read nothing:
 * what arrived stays unread, so that closing the socket resets the connection, as the kernel does for
 * a process that closes a socket with unread bytes (a timed-out `curl -m`, a killed client).
 * A half-closed socket is destroyed after a further 200 ms, unread. Answers once the socket is gone.
 */
export async function requestAndLeave(
  baseUrl: string,
  path: string,
  key: string,
  how: Departure,
  afterMs: number,
): Promise<void> {
  const socket = await openSocket(baseUrl, { readNothing: true });
  socket.on("error", () => {});
  socket.write(requestText("GET", baseUrl, path, key));
  if (afterMs > 0) await pause(afterMs);
  leave(socket, how);
  if (how === "half-close") {
    await pause(200);
    socket.destroy();
  }
  if (!socket.closed) await new Promise((resolve) => socket.once("close", resolve));
}

/**
 * Sends `GET path`, reads about `readBytes` of the answer, then resets the connection. Answers how many
 * bytes it had read and the start of the answer.
 */
export async function readPartThenReset(
  baseUrl: string,
  path: string,
  key: string,
  readBytes: number,
): Promise<{ read: number; start: string }> {
  const socket = await openSocket(baseUrl);
  socket.on("error", () => {});
  let read = 0;
  let start = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no answer within 10 s")), 10_000);
    socket.on("data", (chunk: Buffer) => {
      if (start === "") start = chunk.subarray(0, 200).toString("latin1");
      read += chunk.length;
      if (read >= readBytes) {
        clearTimeout(timer);
        socket.resetAndDestroy();
        resolve();
      }
    });
    socket.write(requestText("GET", baseUrl, path, key));
  });
  return { read, start };
}

/**
 * Sends `GET path` and reads only the first chunk, then stops reading and keeps the connection open:
 * a slow reader, which the server cannot finish writing to. `close()` resets it.
 */
export async function stallAfterFirstChunk(
  baseUrl: string,
  path: string,
  key: string,
): Promise<{ start: string; close: () => void }> {
  const socket = await openSocket(baseUrl);
  socket.on("error", () => {});
  const start = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no answer within 10 s")), 10_000);
    socket.once("data", (chunk: Buffer) => {
      clearTimeout(timer);
      socket.pause();
      resolve(chunk.subarray(0, 200).toString("latin1"));
    });
    socket.write(requestText("GET", baseUrl, path, key));
  });
  return { start, close: () => socket.resetAndDestroy() };
}

/**
 * Sends `GET path`, reads the whole answer (as its `Content-Length` says), then resets the connection at
 * once: a client that takes the rows and makes the server believe they never arrived. Answers the
 * status and the parsed body.
 */
export async function readWholeThenReset(
  baseUrl: string,
  path: string,
  key: string,
): Promise<{ status: number; body: any }> {
  const socket = await openSocket(baseUrl);
  socket.on("error", () => {});
  const answer = await new Promise<Buffer>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no whole answer within 10 s")), 10_000);
    let received = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const headEnd = received.indexOf("\r\n\r\n");
      if (headEnd < 0) return;
      const length = /\r\ncontent-length: *(\d+)/i.exec(received.subarray(0, headEnd).toString("latin1"));
      if (!length) return reject(new Error("the answer has no Content-Length"));
      if (received.length < headEnd + 4 + Number(length[1])) return;
      clearTimeout(timer);
      socket.resetAndDestroy();
      resolve(received);
    });
    socket.write(requestText("GET", baseUrl, path, key));
  });
  const headEnd = answer.indexOf("\r\n\r\n");
  const status = Number(answer.subarray(0, headEnd).toString("latin1").split(" ")[1]);
  return { status, body: JSON.parse(answer.subarray(headEnd + 4).toString("utf8")) };
}
