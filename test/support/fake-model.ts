// A fake OpenAI-compatible chat-completions server on a random port: scripted answers, delays and counters.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { lineKeys } from "../../src/extraction/rows-json-schema.js";

export interface FakeModelRequest {
  /** 1-based, in order of arrival. */
  readonly number: number;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body (a chat-completions request), or the raw text if it was not JSON. */
  readonly body: any;
  /** When it arrived (`Date.now()`, once its body was read). */
  readonly receivedAt: number;
  /** Whether it was answered, is still waiting, or its client went away first (aborted it). */
  readonly outcome: "pending" | "answered" | "abandoned";
}

export interface FakeModelReply {
  readonly status?: number;
  /** Sent as JSON. */
  readonly json?: unknown;
  /** Sent as is, instead of `json`. */
  readonly raw?: string;
  readonly headers?: Record<string, string>;
  /** Waits this long before answering (on top of the server's `delayMs`); a client that leaves ends the wait. */
  readonly delayMs?: number;
}

export type FakeModelBehaviour = (request: FakeModelRequest) => FakeModelReply | Promise<FakeModelReply>;

export interface FakeModelOptions {
  /** What to answer each request; default: no rows. */
  readonly respond?: FakeModelBehaviour;
  /** A wait before every answer. */
  readonly delayMs?: number;
}

export interface FakeModel {
  /** The API root to give as the base URL: `http://127.0.0.1:<port>/v1`. */
  readonly url: string;
  /** Every chat-completions request so far, in order of arrival. */
  readonly requests: readonly FakeModelRequest[];
  readonly requestCount: number;
  readonly inFlight: number;
  /** The most requests that were ever in flight at once. */
  readonly maxInFlight: number;
  /** Requests whose client went away before the answer was sent. */
  readonly abandonedCount: number;
  /** Replaces the behaviour for the requests still to come. */
  respondWith(behaviour: FakeModelBehaviour): void;
  close(): Promise<void>;
}

/** A chat completion whose one choice says `content`. */
export function completionReply(
  content: string | null,
  options: { finishReason?: string; refusal?: string | null } = {},
): FakeModelReply {
  return {
    status: 200,
    json: {
      id: "chatcmpl-fake",
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: "fake-model",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content, refusal: options.refusal ?? null },
          finish_reason: options.finishReason ?? "stop",
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    },
  };
}

/** A completion answering `{"rows": rows}`, as strict structured output would. */
export function rowsReply(rows: readonly unknown[]): FakeModelReply {
  return completionReply(JSON.stringify({ rows }));
}

/** A row and the first and last transcript lines it came from. */
export interface SpannedRow {
  readonly row: Record<string, unknown>;
  readonly first_line: unknown;
  readonly last_line: unknown;
}

/**
 * A completion answering `{"rows": [{<column>: value, ..., first_line, last_line}, ...]}`, as strict
 * structured output would: each row's lines beside its columns, under the keys the schema gives them
 * (renamed when a column has their name).
 */
export function spannedRowsReply(items: readonly SpannedRow[]): FakeModelReply {
  const rows = items.map(({ row, first_line, last_line }) => {
    const keys = lineKeys(Object.keys(row));
    return Object.fromEntries([...Object.entries(row), [keys.first, first_line], [keys.last, last_line]]);
  });
  return completionReply(JSON.stringify({ rows }));
}

/** The columns a model request asks for: its structured-output schema lists them first, then the two line keys. */
export function columnsAsked(request: FakeModelRequest): string[] {
  const required = request.body?.response_format?.json_schema?.schema?.properties?.rows?.items?.required;
  return Array.isArray(required) ? required.slice(0, -2) : [];
}

/** A numbered transcript line of a request's prompt: `12 text` (before issue 37, `12. text`). */
export interface PromptLine {
  /** The number the model names the line by, from 1. */
  readonly number: number;
  readonly text: string;
}

/** The numbered transcript lines of the request's user message, in order. */
export function promptLines(request: FakeModelRequest): PromptLine[] {
  return [...messageOf(request, "user").matchAll(/^(\d+) (.*)$/gm)].map((match) => ({
    number: Number(match[1]),
    text: match[2] as string,
  }));
}

/** An error in the shape OpenAI's API gives them. */
export function errorReply(
  status: number,
  message = "fake failure",
  headers?: Record<string, string>,
): FakeModelReply {
  return { status, json: { error: { message, type: "server_error", param: null, code: null } }, headers };
}

/** The text of the request's message of `role` (system or user). */
export function messageOf(request: FakeModelRequest, role: "system" | "user"): string {
  const messages: { role: string; content: unknown }[] = request.body?.messages ?? [];
  const content = messages.find((message) => message.role === role)?.content;
  return typeof content === "string" ? content : "";
}

export async function startFakeModel(options: FakeModelOptions = {}): Promise<FakeModel> {
  let respond: FakeModelBehaviour = options.respond ?? (() => rowsReply([]));
  const requests: FakeModelRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let abandonedCount = 0;

  const server = createServer(async (req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let gone = false;
    res.on("close", () => {
      inFlight--;
      if (!res.writableFinished) abandonedCount++;
      gone = true;
    });
    const wait = (ms: number) =>
      new Promise<void>((resolve) => {
        if (ms <= 0 || gone) return resolve();
        const timer = setTimeout(resolve, ms);
        res.on("close", () => {
          clearTimeout(timer);
          resolve();
        });
      });

    let text = "";
    for await (const piece of req) text += piece;
    const path = (req.url ?? "").split("?")[0] ?? "";
    if (req.method !== "POST" || !path.endsWith("/chat/completions")) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          error: { message: `No route ${req.method} ${path}`, type: "invalid_request_error" },
        }),
      );
      return;
    }
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: the request keeps its raw text, so a test can see what was sent.
    }
    const receivedAt = Date.now();
    const request: FakeModelRequest = {
      number: requests.length + 1,
      path,
      headers: req.headers,
      body,
      receivedAt,
      get outcome() {
        if (res.writableFinished) return "answered";
        return gone ? "abandoned" : "pending";
      },
    };
    requests.push(request);

    let reply: FakeModelReply;
    try {
      reply = await respond(request);
    } catch (error) {
      reply = errorReply(500, `fake model behaviour threw: ${(error as Error).message}`);
    }
    await wait((options.delayMs ?? 0) + (reply.delayMs ?? 0));
    if (gone) return;
    const payload = reply.raw ?? JSON.stringify(reply.json ?? null);
    res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
    res.end(payload);
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    get requestCount() {
      return requests.length;
    },
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    get abandonedCount() {
      return abandonedCount;
    },
    respondWith(behaviour) {
      respond = behaviour;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

/** A model that finds `row` on the first prompt line holding `word`, spanning that line, and nothing elsewhere. */
export function rowOnLineWith(word: string, row: Record<string, unknown>): FakeModelBehaviour {
  return (request) => {
    const line = promptLines(request).find(({ text }) => text.includes(word));
    return spannedRowsReply(line ? [{ row, first_line: line.number, last_line: line.number }] : []);
  };
}
