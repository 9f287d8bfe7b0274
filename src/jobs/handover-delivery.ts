// Ties a handover claim to the HTTP response carrying the rows: completed once the answer is written
// whole and not refused, released when the client went away first, renewed while a slow client reads.
import type { Socket } from "node:net";
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from "fastify";
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
 * - The answer is whole when the response finished (its last byte passed to the operating system)
 *   with a 200 and nothing wrong on the connection at that moment. When the client goes away
 *   mid-body, Node may still call the response finished (it calls back the pending write as the
 *   socket is destroyed), so the socket's error is what tells the two apart.
 * - An answer that was not whole is released: the rows stay for the next read, however often.
 * - A whole answer on a final claim completes the handover at once.
 * - A whole answer on any other claim completes it unless the connection is reset (or was closed by
 *   the client before the answer) within `resetGraceMs`; then the rows are put back, which the store
 *   allows once per job, so that the next whole answer is final. A reader that takes the rows and
 *   resets can thus copy them at most once, and the owner sees `handed_over_at` set after.
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
  const log = request.log.child({ job: claim.jobId });
  // The client may have gone while the rows were being claimed: then "close" has already passed.
  if (response.destroyed || !socket || socket.destroyed || socket.readableEnded) {
    handovers.track(releaseOrLapse(log, claim));
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
      (error: unknown) => log.warn({ err: error }, "could not renew a handover claim"),
    );
  }, handovers.claimMs / 3);
  renewal.unref();

  const socketFailed = () => (socket.errored ?? null) !== null;
  let whole = false;
  response.once("finish", () => {
    whole = response.statusCode === 200 && !socketFailed();
  });
  const settle = (outcome: "delivered" | "reset" | "not whole") => {
    clearInterval(renewal);
    endLater();
    const settlement =
      outcome === "delivered"
        ? completeUntilDone(log, claim, handovers.claimMs)
        : outcome === "reset"
          ? putBackOrComplete(log, claim, handovers.claimMs)
          : releaseOrLapse(log, claim);
    handovers.track(settlement);
  };
  const afterResponse = () => {
    if (!whole) return settle("not whole");
    if (claim.final) return settle("delivered");
    // A client that closed its end before the answer was whole had gone away (Node aborts its request).
    if (socketFailed() || socket.readableEnded) return settle("reset");
    if (socket.destroyed) return settle("delivered");
    const judge = () => {
      clearTimeout(timer);
      socket.off("close", judge);
      if (socket.destroyed) return settle(socketFailed() ? "reset" : "delivered");
      // Once the client has closed its end, Node no longer reads the connection, and a reset that came
      // after goes unseen until the next write: an empty one asks the kernel without sending a byte.
      socket.write(Buffer.alloc(0), (error) => settle(error || socketFailed() ? "reset" : "delivered"));
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
async function releaseOrLapse(log: FastifyBaseLogger, claim: HandoverClaim): Promise<void> {
  try {
    await claim.release();
    log.info("handover not delivered: the answer did not get out whole; the rows stay for the next read");
  } catch (error) {
    log.warn({ err: error }, "could not release an undelivered handover; it lapses");
  }
}

/**
 * The whole answer was written, then the connection reset: the rows go back for the next read, whose
 * claim is final. Should that fail (the database briefly away), the claim would lapse and hand the rows
 * to a read that is not final, so the handover is completed instead: the reset was after a whole answer.
 */
async function putBackOrComplete(log: FastifyBaseLogger, claim: HandoverClaim, claimMs: number) {
  try {
    if (await claim.putBack()) {
      log.info(
        "handover reset after the whole answer: the rows are put back once; the next whole answer is final",
      );
    } else log.info("handover reset after the whole answer, but its claim had lapsed; nothing to put back");
    return;
  } catch (error) {
    log.warn({ err: error }, "could not put back the rows of a reset handover; completing it");
  }
  await completeUntilDone(log, claim, claimMs);
}

/**
 * The rows reached the client, so the handover must be recorded: a failed attempt (the database briefly
 * away) is tried again while the claim still stands, since another read could take the rows once it lapses.
 */
async function completeUntilDone(log: FastifyBaseLogger, claim: HandoverClaim, claimMs: number) {
  const deadline = Date.now() + claimMs;
  for (;;) {
    try {
      if (await claim.complete())
        log.info({ final: claim.final }, "handover delivered: the rows are deleted");
      else log.warn("a handover's answer was written whole after its claim had lapsed");
      return;
    } catch (error) {
      if (Date.now() + completionRetryMs > deadline) {
        log.error({ err: error }, "could not record a delivered handover; its rows may be read again");
        return;
      }
      log.warn({ err: error }, "could not record a delivered handover yet; trying again");
      await sleep(completionRetryMs);
    }
  }
}
