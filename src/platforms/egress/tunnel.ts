// Two sockets joined into one tunnel: bytes both ways, either end's close or error closing the other, and
// a tunnel silent past its idle time closed whole.
import type { Duplex } from "node:stream";

export function joinSockets(client: Duplex, target: Duplex, idleTimeoutMs: number): void {
  const close = () => {
    client.destroy();
    target.destroy();
  };
  for (const socket of [client, target] as const) {
    socket.on("error", close);
    socket.on("close", close);
    (socket as Duplex & { setTimeout?: (ms: number, cb: () => void) => void }).setTimeout?.(
      idleTimeoutMs,
      close,
    );
  }
  client.pipe(target);
  target.pipe(client);
}
