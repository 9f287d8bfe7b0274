// vr.uploads: audio and video files of your own, sent to the server to be stored and measured for jobs.
import type { Upload, UploadList } from "../api-types.js";
import type { RequestOptions, Transport } from "../transport.js";

/** A file's bytes: a Blob or File (browsers), bytes in memory, or a stream (a Node.js `fs.createReadStream`). */
export type UploadSource = Blob | Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export interface UploadOptions extends RequestOptions {
  /** The file's media type; default a Blob's own `audio/*` or `video/*` type, else `application/octet-stream`. */
  readonly contentType?: string;
  /** A time limit for the whole upload and its answer, in ms; default none (a file takes as long as it takes). */
  readonly timeoutMs?: number;
}

const mediaType = /^(?:audio|video)\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;

/** An async iterable (a Node.js stream) as the web stream fetch sends, read as fetch asks for more. */
function streamOf(source: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel(reason) {
      await iterator.return?.(reason);
    },
  });
}

export class Uploads {
  constructor(private readonly transport: Transport) {}

  /**
   * `POST /v1/uploads`: sends the file as it is read (never whole in memory when it is a stream) and
   * answers its `upload_id`, size and measured `duration_seconds`. A stream is sent once, never retried.
   */
  create(file: UploadSource, options: UploadOptions = {}): Promise<Upload> {
    const blobType = typeof Blob !== "undefined" && file instanceof Blob ? file.type : "";
    const contentType =
      options.contentType ?? (mediaType.test(blobType) ? blobType : "application/octet-stream");
    const data =
      file instanceof Uint8Array || file instanceof ReadableStream || !(Symbol.asyncIterator in file)
        ? (file as Blob | Uint8Array | ReadableStream<Uint8Array>)
        : streamOf(file);
    return this.transport.send({
      method: "POST",
      path: "/v1/uploads",
      rawBody: { data, contentType },
      timeoutMs: options.timeoutMs ?? null,
      retry: "once",
      signal: options.signal,
    });
  }

  /** `GET /v1/uploads`: the workspace's uploads no job has taken yet, newest first. */
  list(options: RequestOptions = {}): Promise<UploadList> {
    return this.transport.send({ method: "GET", path: "/v1/uploads", retry: "repeatable", ...options });
  }

  /** `DELETE /v1/uploads/{upload_id}`: removes the upload and its file at once. */
  delete(uploadId: string, options: RequestOptions = {}): Promise<void> {
    return this.transport.send({
      method: "DELETE",
      path: `/v1/uploads/${encodeURIComponent(uploadId)}`,
      retry: "repeatable",
      // A retry after a delete that went through unseen finds nothing: that is the delete done.
      retryAnswerIsSuccess: (error) => error.code === "upload_not_found",
      ...options,
    });
  }
}
