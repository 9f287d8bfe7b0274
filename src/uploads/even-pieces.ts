// A body cut into pieces of one size as it arrives, so each piece can be stored as a row of its own.
import type { Readable } from "node:stream";

/**
 * Yields `body` in pieces of `pieceBytes` (the last one shorter), holding at most one piece and the
 * chunk that arrived last; the body is not read further until the piece yielded has been taken.
 */
export async function* evenPieces(body: Readable, pieceBytes: number): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let heldBytes = 0;
  for await (const arrived of body as AsyncIterable<Buffer | string>) {
    let chunk = typeof arrived === "string" ? Buffer.from(arrived) : arrived;
    while (heldBytes + chunk.byteLength >= pieceBytes) {
      const taken = pieceBytes - heldBytes;
      yield Buffer.concat([...held, chunk.subarray(0, taken)], pieceBytes);
      held = [];
      heldBytes = 0;
      chunk = chunk.subarray(taken);
    }
    if (chunk.byteLength > 0) {
      held.push(chunk);
      heldBytes += chunk.byteLength;
    }
  }
  if (heldBytes > 0) yield Buffer.concat(held, heldBytes);
}
