// Clients of `POST /v1/uploads` on raw sockets: a body sent in pieces and slowly, a declared length the body
// never reaches, a client that leaves mid-upload, one that stops sending.
import { connect, type Socket } from "node:net";
import { sleep } from "../../src/concurrency/sleep.js";
import type { RawAnswer } from "./raw-http.js";

export interface UploadSending {
  readonly key: string;
  readonly contentType?: string;
  /** The body's pieces, sent in turn; chunked transfer encoding unless `contentLength` is given. */
  readonly pieces: readonly Buffer[];
  /** Sent as the `content-length` header instead of chunking (may be more than the pieces hold). */
  readonly contentLength?: number;
  /** Pause between pieces. */
  readonly pauseMs?: number;
  /** After the pieces: finish the body (default), reset the connection, or send nothing more. */
  readonly then?: "finish" | "reset" | "wait";
}

function parseAnswer(text: string): RawAnswer | null {
  if (text === "") return null;
  const [head = "", body = ""] = text.split("\r\n\r\n", 2);
  const [statusLine = "", ...headerLines] = head.split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(" ")[1]), headers, body };
}

/**
 * Sends an upload as described and answers what came back once the server closed the connection (uploads
 * always close it), or null when nothing came (a reset). Gives up after `timeoutMs`.
 */
export async function sendUpload(
  baseUrl: string,
  sending: UploadSending,
  timeoutMs = 20_000,
): Promise<RawAnswer | null> {
  const { hostname, port, host } = new URL(baseUrl);
  const socket: Socket = await new Promise((resolve, reject) => {
    const s = connect({ host: hostname, port: Number(port) }, () => resolve(s));
    s.once("error", reject);
  });
  const chunks: Buffer[] = [];
  let closed = false;
  socket.on("error", () => {});
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve) => socket.on("close", () => ((closed = true), resolve())));
  const chunked = sending.contentLength === undefined;
  const headers = [
    `POST /v1/uploads HTTP/1.1`,
    `Host: ${host}`,
    `Authorization: Bearer ${sending.key}`,
    ...(sending.contentType === undefined ? [] : [`Content-Type: ${sending.contentType}`]),
    chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${sending.contentLength}`,
  ];
  socket.write(`${headers.join("\r\n")}\r\n\r\n`);
  for (const piece of sending.pieces) {
    if (closed) break;
    if (chunked) socket.write(`${piece.byteLength.toString(16)}\r\n`);
    socket.write(piece);
    if (chunked) socket.write("\r\n");
    if (sending.pauseMs) await sleep(sending.pauseMs);
  }
  const then = sending.then ?? "finish";
  if (then === "reset") {
    socket.resetAndDestroy();
    return null;
  }
  if (then === "finish" && chunked && !closed) socket.write("0\r\n\r\n");
  const timer = setTimeout(() => socket.destroy(), timeoutMs);
  await ended;
  clearTimeout(timer);
  return parseAnswer(Buffer.concat(chunks).toString("utf8"));
}

/** `data` cut into pieces of `size` bytes. */
export function piecesOf(data: Buffer, size: number): Buffer[] {
  const pieces: Buffer[] = [];
  for (let at = 0; at < data.byteLength; at += size) pieces.push(data.subarray(at, at + size));
  return pieces;
}
