// Ties a handover claim to the HTTP response carrying the rows: completed once the answer is written
// whole and not refused, released when the client went away first, renewed while a slow client reads.
import type { Socket } from "node:net";
import type { FastifyReply, FastifyRequest } from "fastify";
import { sleep } from "../concurrency/sleep.js";
import type { HandoverClaim, Handovers } from "./handover.js";

/** How often a completion that failed (the database unreachable) is tried again, within the claim's length. */
const completionRetryMs = 1000;

/**
 * How long after the last byte was written a reset of the connection still undoes the handover. A
 * client that goes away without reading (a timeout, a cancelled request, a killed process), before or
 * after the answer reached its machine, has its kernel reset the connection once the answer arrives
 * unread: the reset comes a round trip after the server had called the answer written.
 */
export const resetGraceMs = 1000;

/**
 * Watches the response that carries `claim`'s rows, and settles the claim once it is known whether the
 * answer reached the client:
 *
 * - The handover completes when the answer was written whole (Node's `writableFinished`: the last byte
 *   passed to the operating system) and the connection was not reset within `resetGraceMs` after.
 * - It is released (the rows stay for the next read) when the client closed its end before the answer
 *   was written, as Node itself counts such a request abandoned, or the connection was reset at any
 *   time up to the end of that grace. When the client goes away mid-body, Node may still call the response
 *   finished (it calls back the pending write as the socket is destroyed), so the socket's error is
 *   what tells the two apart.
 *
 * Call it before the answer is sent.
 */
export function deliverHandover(
  request: FastifyRequest,
  reply: FastifyReply,
  handovers: Handovers,
  claim: HandoverClaim,
): void {
  const response = reply.raw;
  const socket = response.socket;
  // The client may have gone while the rows were being claimed: then "close" has already passed.
  if (response.destroyed || !socket || socket.destroyed || socket.readableEnded) {
    handovers.track(releaseOrLapse(request, claim));
    return;
  }
  const endLater = holdServerEnd(socket);
  // A client that reads slowly keeps the claim for as long as it reads; one that lost the claim to
  // another read (this process stalled past its length) must not receive the rows as well.
  const renewal = setInterval(() => {
    claim.renew().then(
      (held) => {
        if (!held) response.destroy(new Error("the handover claim lapsed while its answer was written"));
      },
      (error: unknown) => request.log.warn({ err: error }, "could not renew a handover claim"),
    );
  }, handovers.claimMs / 3);
  renewal.unref();

  const socketFailed = () => (socket.errored ?? null) !== null;
  const settle = (delivered: boolean) => {
    clearInterval(renewal);
    endLater();
    handovers.track(
      delivered ? completeUntilDone(request, claim, handovers.claimMs) : releaseOrLapse(request, claim),
    );
  };
  const afterResponse = () => {
    const written = response.writableFinished && response.statusCode === 200;
    // A client that closed its end before the answer was whole had gone away (Node aborts its request).
    if (!written || socketFailed() || socket.readableEnded) return settle(false);
    if (socket.destroyed) return settle(true);
    const judge = () => {
      clearTimeout(timer);
      socket.off("close", judge);
      if (socket.destroyed) return settle(!socketFailed());
      // Once the client has closed its end, Node no longer reads the connection, and a reset that came
      // after goes unseen until the next write: an empty one asks the kernel without sending a byte.
      socket.write(Buffer.alloc(0), (error) => settle(!error && !socketFailed()));
    };
    const timer = setTimeout(judge, resetGraceMs);
    timer.unref();
    socket.once("close", judge);
  };
  response.once("close", afterResponse);
}

/**
 * Node's HTTP server closes its end of the connection as soon as the client closes its own. A client
 * that closed with the answer unread then resets the connection, and that reset only reaches a socket
 * still open: so, while a handover is judged, the server's end is closed only when the judgement is
 * made. Answers the function that closes it then, if it was asked to meanwhile.
 */
function holdServerEnd(socket: Socket): () => void {
  let asked: (() => void) | undefined;
  const end = socket.end;
  socket.end = ((...args: Parameters<Socket["end"]>) => {
    asked = () => end.apply(socket, args);
    return socket;
  }) as Socket["end"];
  return () => {
    socket.end = end;
    asked?.();
    asked = undefined;
  };
}

/** Gives the claim up; should that fail, it lapses by itself and the next read then receives the rows. */
async function releaseOrLapse(request: FastifyRequest, claim: HandoverClaim): Promise<void> {
  try {
    await claim.release();
  } catch (error) {
    request.log.warn({ err: error }, "could not release an undelivered handover; it lapses");
  }
}

/**
 * The rows reached the client, so the handover must be recorded: a failed attempt (the database briefly
 * away) is tried again while the claim still stands, since another read could take the rows once it lapses.
 */
async function completeUntilDone(request: FastifyRequest, claim: HandoverClaim, claimMs: number) {
  const deadline = Date.now() + claimMs;
  for (;;) {
    try {
      await claim.complete();
      return;
    } catch (error) {
      if (Date.now() + completionRetryMs > deadline) {
        request.log.error(
          { err: error },
          "could not record a delivered handover; its rows may be read again",
        );
        return;
      }
      request.log.warn({ err: error }, "could not record a delivered handover yet; trying again");
      await sleep(completionRetryMs);
    }
  }
}
