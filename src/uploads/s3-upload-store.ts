// An upload store that is a bucket of an S3-compatible object store (AWS S3, MinIO, Ceph, R2, ...), which
// every API and worker machine reaches: VIDROWS_UPLOAD_STORE=s3://bucket/prefix (config/s3-settings.ts).
import { PassThrough, Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { S3Location } from "../config/s3-settings.js";
import { UploadMissing } from "./database-upload-store.js";
import { localCopy } from "./local-copy.js";
import type { LocalUpload, UploadStore } from "./upload-store.js";

/**
 * A body goes up in parts of 8 MiB, two at a time: at most about three parts of an upload are in memory,
 * whatever its size. A body shorter than a part goes up as one PutObject.
 */
const partBytes = 8 * 1024 * 1024;
const partsAtOnce = 2;
/** Listing pages the sweep reads at most in one round; what is left waits for the next round. */
const sweepPages = 100;
const uploadIdPattern = /^upl_[0-9a-z]{26}$/;

export class S3UploadStore implements UploadStore {
  private readonly client: S3Client;

  constructor(private readonly location: S3Location) {
    this.client = new S3Client({
      region: location.region,
      endpoint: location.endpoint,
      // Other providers and local servers are addressed as endpoint/bucket/key; AWS by the bucket's own host.
      forcePathStyle: location.endpoint !== undefined,
      // Checksums only where S3 requires them: the SDK's default (since 3.729) sends ones several
      // S3-compatible stores refuse, and TLS and the signature already guard the bytes on the way.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  get description(): string {
    const where = this.location.endpoint ?? `AWS ${this.location.region}`;
    return `s3://${this.location.bucket}/${this.location.prefix} at ${where}`;
  }

  private keyOf(uploadId: string): string {
    if (!uploadIdPattern.test(uploadId)) throw new Error(`not an upload id: ${JSON.stringify(uploadId)}`);
    return `${this.location.prefix}${uploadId}`;
  }

  /** A bucket has no size to run out of that this process could see; the plan's limit bounds an upload. */
  async freeBytes(): Promise<number | null> {
    return null;
  }

  async write(uploadId: string, body: Readable): Promise<number> {
    let bytes = 0;
    const counted = new PassThrough();
    counted.on("data", (chunk: Buffer) => {
      bytes += chunk.byteLength;
    });
    body.once("error", (error) => counted.destroy(error));
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.location.bucket, Key: this.keyOf(uploadId), Body: body.pipe(counted) },
      partSize: partBytes,
      queueSize: partsAtOnce,
      // A failed multipart upload is aborted, its parts deleted (nothing is kept of a refused upload).
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      await this.remove(uploadId).catch(() => undefined);
      throw error;
    }
    return bytes;
  }

  async read(uploadId: string): Promise<Readable> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.location.bucket, Key: this.keyOf(uploadId) }),
      );
      if (!(answer.Body instanceof Readable)) throw new Error("The object store answered without a body.");
      return answer.Body;
    } catch (error) {
      if ((error as { name?: string }).name === "NoSuchKey") {
        throw new UploadMissing(`The object store holds no upload ${uploadId}.`);
      }
      throw error;
    }
  }

  async localFile(uploadId: string): Promise<LocalUpload> {
    return localCopy(uploadId, await this.read(uploadId));
  }

  async remove(uploadId: string): Promise<void> {
    await this.client.send(
      new DeleteObjectCommand({ Bucket: this.location.bucket, Key: this.keyOf(uploadId) }),
    );
  }

  async sweep(partialBefore: number, storedBefore: number): Promise<string[]> {
    const { bucket, prefix } = this.location;
    // Multipart uploads a dead process left unfinished: their parts are stored, and billed, until aborted.
    const unfinished = await this.client.send(
      new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: prefix }),
    );
    for (const part of unfinished.Uploads ?? []) {
      if (!part.Key || !part.UploadId || (part.Initiated?.getTime() ?? 0) >= partialBefore) continue;
      await this.client.send(
        new AbortMultipartUploadCommand({ Bucket: bucket, Key: part.Key, UploadId: part.UploadId }),
      );
    }
    const stored: string[] = [];
    let token: string | undefined;
    for (let page = 0; page < sweepPages; page++) {
      const listed = await this.client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const object of listed.Contents ?? []) {
        const id = object.Key?.slice(prefix.length) ?? "";
        if (uploadIdPattern.test(id) && (object.LastModified?.getTime() ?? 0) < storedBefore) stored.push(id);
      }
      token = listed.NextContinuationToken;
      if (!listed.IsTruncated || !token) break;
    }
    return stored;
  }
}
