// The jobs API's test server and helpers: a pipeline server whose fake model can hold a job running or
// answer a read of about 12 MB, fresh video ids, and a client that hangs up mid-response.
import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, expect } from "vitest";
import type { Database } from "../../src/store/tables.js";
import type { DialectName } from "./databases.js";
import {
  columnsAsked,
  type FakeModelReply,
  type FakeModelRequest,
  messageOf,
  rowsReply,
  spannedRowsReply,
} from "./fake-model.js";
import { type PipelineServer, startPipelineServer } from "./pipeline.js";

export { columnsAsked };

export const schema = { columns: ["product", "price"] };
export const timestamp = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

const idAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A YouTube-shaped id no other test uses (letters and digits only, so prefixes are plain). */
export function newVideoId(): string {
  return [...randomBytes(11)].map((byte) => idAlphabet[byte % idAlphabet.length]).join("");
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it answers something other than undefined; bounded in time. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`gave up waiting (${timeoutMs} ms) for ${what}`);
    await pause(50);
  }
}

/** The rows a video of `videoWithCaptions` gives: one widget, from its one caption line over 30 seconds. */
export function widgetRows(videoId: string) {
  return {
    results: [{ product: "widget", price: 5 }],
    sources: [
      {
        start_seconds: 0,
        end_seconds: 30,
        url: `https://www.youtube.com/watch?v=${videoId}&t=0s`,
        quote: `We sell the widget for five dollars. ${videoId}`,
        unverified: [],
      },
    ],
  };
}

/**
 * Waits until the handover of `jobId` is recorded and its rows deleted: about a second after the answer
 * carrying them was written, once no reset undid it (src/jobs/handover-delivery.ts).
 */
export function handoverRecorded(db: Kysely<Database>, jobId: string): Promise<true> {
  return waitFor(`job ${jobId}'s handover to be recorded`, async () => {
    const job = await db
      .selectFrom("jobs")
      .select("handed_over_at")
      .where("id", "=", jobId)
      .executeTakeFirst();
    return job?.handed_over_at === null || job === undefined ? undefined : true;
  });
}

// Videos whose captions carry a hold marker keep the model waiting until the test lets them go, so a
// job stays running exactly as long as a test needs it to, with no timing involved.
const holds = new Map<string, Promise<void>>();
const releases: (() => void)[] = [];

export function hold(): { marker: string; release: () => void } {
  const marker = `HOLD${randomBytes(6).toString("hex")}`;
  let release: () => void = () => {};
  holds.set(
    marker,
    new Promise<void>((resolve) => {
      release = resolve;
    }),
  );
  releases.push(release);
  return { marker, release };
}

// Videos whose captions say BIGROWS get 2,000 rows of 6,000 characters each: a read of about 12 MB,
// far more than the loopback socket buffers hold, so a client that hangs up early really misses it.
export const bigRowCount = 2000;
let bigReply: FakeModelReply | undefined;
function bigRows(): FakeModelReply {
  bigReply ??= rowsReply(
    Array.from({ length: bigRowCount }, (_, i) => ({ product: `item ${i} ${"x".repeat(6000)}`, price: i })),
  );
  return bigReply;
}

/** One row in the asked columns: a widget at 5 for the usual schema, `<column> value` for any other column. */
function widgetRow(request: FakeModelRequest): Record<string, unknown> {
  const value = (column: string) =>
    column === "product" ? "widget" : column === "price" ? 5 : `${column} value`;
  return Object.fromEntries(columnsAsked(request).map((column) => [column, value(column)]));
}

async function modelBehaviour(request: FakeModelRequest): Promise<FakeModelReply> {
  const transcript = messageOf(request, "user");
  for (const [marker, gate] of holds) {
    if (transcript.includes(marker)) {
      await gate;
      return rowsReply([{ product: "held", price: 1 }]);
    }
  }
  if (transcript.includes("BIGROWS")) return bigRows();
  return spannedRowsReply([{ row: widgetRow(request), first_line: 1, last_line: 1 }]);
}

/** Reads only the start of the response to `GET path`, then destroys the socket: a client that went away. */
export function readStartAndHangUp(baseUrl: string, path: string, key: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error("no answer within 10 s"));
    }, 10_000);
    socket.once("data", (chunk: Buffer) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(chunk.toString("latin1"));
    });
    socket.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${key}\r\n\r\n`);
  });
}

/**
 * Starts a pipeline server with the model above for the enclosing `describe` (closed after it), and the
 * helpers its tests share. `server()` is the running server, once `beforeAll` has run.
 */
export function useJobsApi(dialect: DialectName) {
  let running: PipelineServer | undefined;
  beforeAll(async () => {
    running = await startPipelineServer(dialect, { respond: modelBehaviour });
  });
  afterAll(async () => {
    for (const release of releases) release();
    await running?.close();
  });
  const server = (): PipelineServer => {
    if (!running) throw new Error("The jobs API server has not started (use it inside a test).");
    return running;
  };

  /**
   * A video id with captions of its own: one line, over its 30 seconds. The transcript names the id, so its
   * model requests can be found.
   */
  const videoWithCaptions = (extra = "") => {
    const id = newVideoId();
    server().addCaptions(id, 30, [`We sell the widget for five dollars. ${id} ${extra}`.trim()]);
    return id;
  };
  const submit = (key: string, body: unknown, headers?: Record<string, string>) =>
    server().call("POST", "/v1", { key, body, headers });
  const emptyBalance = (workspaceId: string) =>
    server()
      .app.store.db.updateTable("workspaces")
      .set({ balance: 0 })
      .where("id", "=", workspaceId)
      .execute();
  const jobTotal = async (key: string) => {
    const list = await server().call("GET", "/v1", { key });
    expect(list.status, list.text).toBe(200);
    return list.body.pagination.total as number;
  };
  /** Waits until the job has settled, by listing it: never by reading it, which would take the rows. */
  const settledByList = (key: string, jobId: string) =>
    waitFor(`job ${jobId} to settle`, async () => {
      const list = await server().call("GET", `/v1?search=${jobId}`, { key });
      const item = list.body.data?.[0];
      return item && item.status !== "processing" ? item : undefined;
    });
  const modelRequestsFor = (videoId: string) =>
    server().model.requests.filter((request) => messageOf(request, "user").includes(videoId));

  return { server, videoWithCaptions, submit, emptyBalance, jobTotal, settledByList, modelRequestsFor };
}
