// An upload's request body as it arrives: counted against the plan's limit and watched for stalls, so that a
// file past the limit or a client that stops sending is cut off as soon as it happens.
import { Transform, type TransformCallback } from "node:stream";

/** The body went past the limit; nothing of it is kept. */
export class UploadTooLarge extends Error {
  constructor(readonly limitBytes: number) {
    super(`The upload is over the limit of ${limitBytes} bytes.`);
  }
}

/** No byte of the body arrived for `stallMs`; nothing of it is kept. */
export class UploadStalled extends Error {
  constructor(readonly stallMs: number) {
    super(`No part of the upload arrived for ${stallMs / 1000} s.`);
  }
}

/**
 * Passes the body on unchanged, failing with UploadTooLarge once more than `limitBytes` have come, or
 * UploadStalled when nothing came for `stallMs` (the timer starts at once: a client that sends headers
 * and then nothing is cut off too).
 */
export class BoundedUploadBody extends Transform {
  private received = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly limitBytes: number,
    private readonly stallMs: number,
  ) {
    super();
    this.watch();
  }

  get bytes(): number {
    return this.received;
  }

  private watch(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.destroy(new UploadStalled(this.stallMs)), this.stallMs);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.received += chunk.byteLength;
    if (this.received > this.limitBytes) {
      callback(new UploadTooLarge(this.limitBytes));
      return;
    }
    this.watch();
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.timer) clearTimeout(this.timer);
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (this.timer) clearTimeout(this.timer);
    callback(error);
  }
}
