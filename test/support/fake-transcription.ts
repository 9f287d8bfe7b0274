// A fake OpenAI-compatible /audio/transcriptions server on a random port: it reads the multipart upload as
// OpenAI does and answers as the test scripts it (segments, plain text, errors, or no answer until the client leaves).
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface TranscriptionUpload {
  readonly path: string;
  readonly authorization: string | undefined;
  /** The form's text fields, each with all its values. */
  readonly fields: Record<string, string[]>;
  readonly fileName: string;
  readonly fileBytes: number;
  /** Whether it was answered, is still waiting, or its client went away first. */
  outcome: "pending" | "answered" | "abandoned";
  /** When the upload was whole (Date.now()), to check the waits between tries. */
  readonly receivedAt: number;
  /** For an endless answer: the bytes written before its client went away. */
  bytesSent: number;
}

export type TranscriptionReply = (
  | { readonly status?: number; readonly json: unknown }
  | { readonly status?: number; readonly text: string }
  /** Never answers; the upload is `abandoned` once its client goes away. */
  | { readonly hang: true }
  /** A 200 JSON answer that never ends: segments written until the client goes away. */
  | { readonly endless: true }
) & { readonly headers?: Record<string, string> };

export type TranscriptionBehaviour = (upload: TranscriptionUpload) => TranscriptionReply;

export interface FakeTranscription {
  /** The API root: `http://127.0.0.1:<port>/v1`. */
  readonly url: string;
  readonly uploads: readonly TranscriptionUpload[];
  respondWith(behaviour: TranscriptionBehaviour): void;
  close(): Promise<void>;
}

/** What OpenAI answers for `verbose_json`: the text, and segments with seconds from the start of the upload. */
export function verboseReply(segments: [start: number, end: number, text: string][], duration?: number) {
  return {
    json: {
      task: "transcribe",
      language: "english",
      duration: duration ?? segments.at(-1)?.[1] ?? 0,
      text: segments.map(([, , text]) => text).join(" "),
      segments: segments.map(([start, end, text], id) => ({ id, start, end, text: ` ${text}` })),
    },
  };
}

/** Segments of 64 KB, each written when the last has drained, until the client leaves (at most 4 GB). */
function writeEndlessly(response: ServerResponse, upload: TranscriptionUpload): void {
  response.writeHead(200, { "content-type": "application/json" });
  response.write('{"task":"transcribe","segments":[');
  const segment = Buffer.from(`${JSON.stringify({ start: 0, end: 1, text: "x".repeat(65_000) })},`);
  const more = () => {
    while (!response.destroyed && upload.bytesSent < 4e9) {
      upload.bytesSent += segment.length;
      if (!response.write(segment)) {
        response.once("drain", more);
        return;
      }
    }
  };
  more();
}

export async function startFakeTranscription(behaviour: TranscriptionBehaviour): Promise<FakeTranscription> {
  let respond = behaviour;
  const uploads: TranscriptionUpload[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      const form = await new Response(Buffer.concat(chunks), {
        headers: { "content-type": request.headers["content-type"] ?? "" },
      }).formData();
      const fields: Record<string, string[]> = {};
      let fileName = "";
      let fileBytes = 0;
      for (const [name, value] of form.entries()) {
        if (typeof value === "string") (fields[name] ??= []).push(value);
        else {
          fileName = value.name;
          fileBytes = value.size;
        }
      }
      const upload: TranscriptionUpload = {
        path: request.url ?? "",
        authorization: request.headers.authorization,
        fields,
        fileName,
        fileBytes,
        outcome: "pending",
        receivedAt: Date.now(),
        bytesSent: 0,
      };
      uploads.push(upload);
      response.on("close", () => {
        if (!response.writableFinished) upload.outcome = "abandoned";
      });
      const reply = respond(upload);
      if ("hang" in reply) return;
      if ("endless" in reply) {
        writeEndlessly(response, upload);
        return;
      }
      upload.outcome = "answered";
      if ("json" in reply) {
        response.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
        response.end(JSON.stringify(reply.json));
      } else {
        response.writeHead(reply.status ?? 200, { "content-type": "text/plain", ...reply.headers });
        response.end(reply.text);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    uploads,
    respondWith: (next) => {
      respond = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The VIDROWS_TRANSCRIBE_* settings of a worker that sends its audio to `service`: the key "stt-key", a
 * model name, an upload limit far above any test's audio and a time-out no test reaches.
 */
export function fakeTranscriptionSettings(service: { readonly url: string }) {
  return {
    baseUrl: service.url,
    apiKey: "stt-key",
    model: "fake-whisper",
    maxUploadBytes: 25_000_000,
    requestTimeoutSeconds: 30,
  };
}
