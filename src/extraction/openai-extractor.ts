// The Extractor over any OpenAI-compatible chat-completions endpoint: one strict-JSON request per chunk.
import { setMaxListeners } from "node:events";
import type OpenAI from "openai";
import type { Transcript } from "../domain/transcript.js";
import type { Semaphore } from "../concurrency/semaphore.js";
import { type ColumnSpec, columnSpecs, type SchemaDefinition } from "../domain/schema-definition.js";
import { withPermit } from "./abortable-permit.js";
import { ChatCompletions, ModelConnectionError, ModelHttpError } from "./chat-completions.js";
import { type ChunkRows, chunkRows } from "./chunk-rows.js";
import { buildSystemPrompt, buildUserPrompt, type ChunkContext } from "./extraction-prompt.js";
import { defaultModel, isModelConfigured, openAiBaseUrl } from "../model-settings.js";
import {
  type Extraction,
  ExtractionError,
  type ExtractOptions,
  type Extractor,
  type ModelUsage,
} from "./extractor.js";
import { modelRequestDuration, modelRequests, modelTokens } from "../metrics.js";
import { answeredRows, MalformedAnswerError } from "./model-answer.js";
import {
  defaultRetry,
  RetriesExhaustedError,
  type RetryOptions,
  type RetryVerdict,
  validateRetry,
  withRetries,
} from "./retry-policy.js";
import { mergeChunkRows } from "./row-merging.js";
import { buildRowsResponseFormat } from "./rows-json-schema.js";
import {
  type ChunkingOptions,
  chunkTranscript,
  defaultChunking,
  type TranscriptChunk,
  validateChunking,
} from "./transcript-chunks.js";

export interface ExtractorConfig {
  /** An OpenAI-compatible API root; default OpenAI's. */
  readonly baseUrl?: string | undefined;
  /** Required for OpenAI's API; a server at `baseUrl` that wants none gets a placeholder. */
  readonly apiKey?: string | undefined;
  /** Default `gpt-4o-mini`. */
  readonly model?: string | undefined;
  /** Bounds the model requests in flight; one semaphore is shared by the whole worker. */
  readonly modelRequests: Semaphore;
  readonly chunking?: Partial<ChunkingOptions>;
  readonly retry?: Partial<RetryOptions>;
  /** How long one request may take before it counts as a (retryable) failure. */
  readonly requestTimeoutMs?: number;
  /** Sent only when set: some models (reasoning ones) reject any temperature but their own. */
  readonly temperature?: number;
}

/** Generous, because a local model on a CPU can take minutes over a 3,000-token chunk. */
export const defaultRequestTimeoutMs = 180_000;

/** OpenAI-compatible servers that need no key (Ollama, llama.cpp) ignore it, but the header must hold something. */
const placeholderApiKey = "no-key";

/** Statuses worth asking again: timeout, conflict, rate limit, and the server's own failures. */
function isTransientStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

export function classifyModelFailure(error: unknown): RetryVerdict {
  // Garbage in a 200 is as passing as a 500: the next sample of the model may well be fine.
  if (error instanceof MalformedAnswerError || error instanceof SyntaxError) return { retry: true };
  // Refused connections, resets and timeouts.
  if (error instanceof ModelConnectionError) return { retry: true };
  if (error instanceof ModelHttpError && isTransientStatus(error.status)) {
    return { retry: true, waitAtLeastMs: error.retryAfterMs };
  }
  // 400, 401, 403, 404, 422: a wrong model name, key or request will be as wrong next time.
  return { retry: false };
}

function describeFailure(error: unknown): string {
  // OpenAI quotes part of a rejected key back; the message may reach users and logs, so it is left out.
  if (error instanceof ModelHttpError && (error.status === 401 || error.status === 403)) {
    return `the endpoint refused the API key (HTTP ${error.status}).`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 300 ? `${message.slice(0, 300)}...` : message;
}

class OpenAiCompatibleExtractor implements Extractor {
  private readonly client: ChatCompletions;
  private readonly model: string;
  private readonly modelRequests: Semaphore;
  private readonly chunking: ChunkingOptions;
  private readonly retry: RetryOptions;
  private readonly temperature: number | undefined;

  constructor(config: ExtractorConfig) {
    if (!isModelConfigured({ baseUrl: config.baseUrl, apiKey: config.apiKey })) {
      throw new Error(
        "No language model is configured: set VIDROWS_LLM_API_KEY (or OPENAI_API_KEY) for OpenAI, or VIDROWS_LLM_BASE_URL for another OpenAI-compatible server.",
      );
    }
    this.model = config.model ?? defaultModel;
    this.modelRequests = config.modelRequests;
    this.chunking = validateChunking({ ...defaultChunking, ...config.chunking });
    this.retry = validateRetry({ ...defaultRetry, ...config.retry });
    this.temperature = config.temperature;
    this.client = new ChatCompletions({
      baseUrl: config.baseUrl ?? openAiBaseUrl,
      apiKey: config.apiKey ?? placeholderApiKey,
      timeoutMs: config.requestTimeoutMs ?? defaultRequestTimeoutMs,
    });
  }

  async extractRows(
    transcript: Transcript,
    schema: SchemaDefinition,
    options: ExtractOptions = {},
  ): Promise<Extraction> {
    const outer = options.signal;
    outer?.throwIfAborted();
    const chunks = chunkTranscript(transcript.cues, this.chunking);
    if (chunks.length === 0)
      return { rows: [], sources: [], chunkCount: 0, nulledValues: 0, modelUsage: noUsage };

    // One chunk failing for good fails the video, so the other chunks stop rather than spend requests.
    const stop = new AbortController();
    // Every chunk listens to it at once (waiting for a permit, its request, a back-off): a long video's
    // many chunks would otherwise set off Node's warning about a leak that is not one.
    setMaxListeners(Math.max(10, 3 * chunks.length), stop.signal);
    const forwardAbort = () => stop.abort(outer?.reason);
    outer?.addEventListener("abort", forwardAbort, { once: true });
    const job: ChunkJob = {
      ...partsOf(schema),
      context: { chunkCount: chunks.length, language: transcript.language },
      durationSeconds: transcript.durationSeconds,
    };
    try {
      const answers = await Promise.all(
        chunks.map((chunk) =>
          this.extractChunk(chunk, job, stop.signal).catch((error: unknown) => {
            stop.abort(error);
            throw error;
          }),
        ),
      );
      return {
        ...mergeChunkRows(answers, job.columns),
        chunkCount: chunks.length,
        nulledValues: answers.reduce((sum, answer) => sum + answer.nulledValues, 0),
        modelUsage: {
          promptTokens: answers.reduce((sum, answer) => sum + answer.usage.promptTokens, 0),
          completionTokens: answers.reduce((sum, answer) => sum + answer.usage.completionTokens, 0),
        },
      };
    } finally {
      outer?.removeEventListener("abort", forwardAbort);
    }
  }

  /** A chunk's rows, asked for again after passing failures; ExtractionError when the attempts run out. */
  private async extractChunk(
    chunk: TranscriptChunk,
    job: ChunkJob,
    signal: AbortSignal,
  ): Promise<AnsweredChunk> {
    try {
      return await withRetries(() => this.askModel(chunk, job, signal), {
        ...this.retry,
        classify: classifyModelFailure,
        signal,
      });
    } catch (error) {
      if (!(error instanceof RetriesExhaustedError)) throw error;
      throw new ExtractionError(
        `The language model failed on part ${chunk.index + 1} of ${job.context.chunkCount} after ${error.attempts} attempt(s): ${describeFailure(error.lastError)}`,
        { cause: error.lastError },
      );
    }
  }

  /** One request, holding one of the worker's model permits only while it is in flight. */
  private async askModel(chunk: TranscriptChunk, job: ChunkJob, signal: AbortSignal): Promise<AnsweredChunk> {
    // Our retry policy is the only one, so attempts, backoff and the semaphore stay in our hands.
    const completion = await withPermit(this.modelRequests, signal, () =>
      this.timedRequest(
        {
          model: this.model,
          messages: [
            { role: "system", content: job.systemPrompt },
            { role: "user", content: buildUserPrompt(chunk, job.context) },
          ],
          response_format: job.responseFormat,
          ...(this.temperature === undefined ? {} : { temperature: this.temperature }),
        },
        signal,
      ),
    );
    let answered;
    try {
      answered = answeredRows(completion, job.columns);
    } catch (error) {
      modelRequests.inc({ outcome: "malformed" });
      throw error;
    }
    modelRequests.inc({ outcome: "ok" });
    const usage = usageOf(completion);
    modelTokens.inc({ kind: "prompt" }, usage.promptTokens);
    modelTokens.inc({ kind: "completion" }, usage.completionTokens);
    // Strict output keeps most values in type; a server that ignores it still gets its values fitted.
    return { ...chunkRows(answered, chunk, job.specs, job.durationSeconds), usage };
  }

  /** The request, timed, and counted by outcome when it fails (an answer is counted once it is read). */
  private async timedRequest(body: object, signal: AbortSignal): Promise<unknown> {
    const started = performance.now();
    try {
      return await this.client.create(body, signal);
    } catch (error) {
      const outcome =
        error instanceof ModelHttpError ? `http_${error.status}` : signal.aborted ? "aborted" : "connection";
      modelRequests.inc({ outcome });
      throw error;
    } finally {
      modelRequestDuration.observe((performance.now() - started) / 1000);
    }
  }
}

const noUsage: ModelUsage = { promptTokens: 0, completionTokens: 0 };

/** A chunk's rows and what the model said its answer cost. */
interface AnsweredChunk extends ChunkRows {
  readonly usage: ModelUsage;
}

/** The `usage` of a chat completion; a server that reports none (or nonsense) counts as 0. */
function usageOf(completion: unknown): ModelUsage {
  const usage = (completion as { usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } } | null)
    ?.usage;
  const count = (value: unknown) =>
    typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
  return { promptTokens: count(usage?.prompt_tokens), completionTokens: count(usage?.completion_tokens) };
}

/** What every request for one schema shares. */
interface SchemaParts {
  readonly columns: readonly string[];
  readonly specs: readonly ColumnSpec[];
  readonly systemPrompt: string;
  readonly responseFormat: OpenAI.ResponseFormatJSONSchema;
}

/** What every chunk of one extraction shares. */
interface ChunkJob extends SchemaParts {
  readonly context: ChunkContext;
  /** The video's length: no row's source runs past it. */
  readonly durationSeconds: number;
}

// Built once per schema object rather than per video: a claim hands the videos of one job the same
// object. Weak, so a schema is forgotten with the last video that used it.
const partsBySchema = new WeakMap<SchemaDefinition, SchemaParts>();

function partsOf(schema: SchemaDefinition): SchemaParts {
  let parts = partsBySchema.get(schema);
  if (!parts) {
    const specs = columnSpecs(schema);
    parts = {
      columns: specs.map((spec) => spec.name),
      specs,
      systemPrompt: buildSystemPrompt(schema),
      responseFormat: buildRowsResponseFormat(schema),
    };
    partsBySchema.set(schema, parts);
  }
  return parts;
}

/** The product's extractor: the model named by `config`, its requests bounded by `config.modelRequests`. */
export function createExtractor(config: ExtractorConfig): Extractor {
  return new OpenAiCompatibleExtractor(config);
}
