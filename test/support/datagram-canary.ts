// The UDP side of a loopback canary: RTP and RTCP are datagrams, which an HTTP canary never sees. Bound on
// 127.0.0.1 at the given port and the next one (RTP's control port), it records every datagram it gets.
import { createSocket, type Socket } from "node:dgram";

export interface DatagramCanary {
  /** "port <n> from <address>:<port>" per datagram. */
  readonly datagrams: string[];
  close(): Promise<void>;
}

export async function startDatagramCanary(port: number): Promise<DatagramCanary> {
  const datagrams: string[] = [];
  const sockets: Socket[] = [];
  for (const each of [port, port + 1]) {
    const socket = createSocket("udp4");
    socket.on("message", (_data, from) => datagrams.push(`port ${each} from ${from.address}:${from.port}`));
    // The control port may be another program's; the media port is the canary's own and must bind.
    const bound = await new Promise<boolean>((resolve) => {
      socket.once("error", () => resolve(false));
      socket.bind(each, "127.0.0.1", () => resolve(true));
    });
    if (bound) sockets.push(socket);
    else if (each === port) throw new Error(`the datagram canary could not bind UDP port ${port}`);
  }
  return {
    datagrams,
    close: async () => {
      await Promise.all(
        sockets.map((socket) => new Promise<void>((resolve) => socket.close(() => resolve()))),
      );
    },
  };
}
