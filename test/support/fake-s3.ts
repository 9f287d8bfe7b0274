// A local stand-in for an S3-compatible object store, on a random port of 127.0.0.1: the few calls the
// S3 upload store makes (PutObject, multipart uploads, GetObject, DeleteObject and the two listings),
// path-style, objects kept in memory. Requests must be signed with the access key it was given.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

interface StoredObject {
  readonly bytes: Buffer;
  readonly modified: Date;
}

interface Unfinished {
  readonly key: string;
  readonly initiated: Date;
  readonly parts: Map<number, Buffer>;
}

export interface FakeS3 {
  readonly endpoint: string;
  /** Objects by bucket and key: `bucket/key`. */
  readonly objects: Map<string, StoredObject>;
  /** Multipart uploads begun and neither completed nor aborted, by upload id. */
  readonly unfinished: Map<string, Unfinished>;
  /** Every call made, as `METHOD name` (e.g. `PUT UploadPart`). */
  readonly calls: string[];
  close(): Promise<void>;
}

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>${body}`;

function reply(
  response: ServerResponse,
  status: number,
  body = "",
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { "content-type": "application/xml", ...headers });
  response.end(body);
}

function failure(response: ServerResponse, status: number, code: string): void {
  reply(response, status, xml(`<Error><Code>${code}</Code><Message>${code}</Message></Error>`));
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of request) pieces.push(piece as Buffer);
  return Buffer.concat(pieces);
}

export async function startFakeS3(accessKeyId: string): Promise<FakeS3> {
  const objects = new Map<string, StoredObject>();
  const unfinished = new Map<string, Unfinished>();
  const calls: string[] = [];

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://fake");
    const [bucket = "", ...rest] = url.pathname.slice(1).split("/");
    const key = decodeURIComponent(rest.join("/"));
    const query = url.searchParams;
    const method = request.method ?? "GET";
    const body = await bodyOf(request);
    if (!(request.headers.authorization ?? "").includes(`Credential=${accessKeyId}/`)) {
      calls.push(`${method} refused`);
      failure(response, 403, "InvalidAccessKeyId");
      return;
    }
    const name = `${bucket}/${key}`;
    if (method === "POST" && query.has("uploads")) {
      const uploadId = randomBytes(8).toString("hex");
      unfinished.set(uploadId, { key, initiated: new Date(), parts: new Map() });
      calls.push("POST CreateMultipartUpload");
      reply(
        response,
        200,
        xml(
          `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`,
        ),
      );
      return;
    }
    const uploadId = query.get("uploadId");
    if (uploadId !== null) {
      const upload = unfinished.get(uploadId);
      if (upload === undefined) return failure(response, 404, "NoSuchUpload");
      if (method === "PUT") {
        upload.parts.set(Number(query.get("partNumber")), body);
        calls.push("PUT UploadPart");
        return reply(response, 200, "", { etag: `"part${query.get("partNumber")}"` });
      }
      unfinished.delete(uploadId);
      if (method === "DELETE") {
        calls.push("DELETE AbortMultipartUpload");
        return reply(response, 204);
      }
      const numbers = [...upload.parts.keys()].sort((a, b) => a - b);
      objects.set(name, {
        bytes: Buffer.concat(numbers.map((n) => upload.parts.get(n)!)),
        modified: new Date(),
      });
      calls.push("POST CompleteMultipartUpload");
      return reply(
        response,
        200,
        xml(
          `<CompleteMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><ETag>"whole"</ETag></CompleteMultipartUploadResult>`,
        ),
      );
    }
    if (method === "PUT") {
      objects.set(name, { bytes: body, modified: new Date() });
      calls.push("PUT PutObject");
      return reply(response, 200, "", { etag: '"object"' });
    }
    if (method === "DELETE") {
      objects.delete(name);
      calls.push("DELETE DeleteObject");
      return reply(response, 204);
    }
    if (key === "" && query.has("uploads")) {
      calls.push("GET ListMultipartUploads");
      const prefix = query.get("prefix") ?? "";
      const listed = [...unfinished].filter(([, u]) => u.key.startsWith(prefix));
      const entries = listed.map(
        ([id, u]) =>
          `<Upload><Key>${u.key}</Key><UploadId>${id}</UploadId><Initiated>${u.initiated.toISOString()}</Initiated></Upload>`,
      );
      return reply(
        response,
        200,
        xml(
          `<ListMultipartUploadsResult><Bucket>${bucket}</Bucket><IsTruncated>false</IsTruncated>${entries.join("")}</ListMultipartUploadsResult>`,
        ),
      );
    }
    if (key === "") {
      calls.push("GET ListObjectsV2");
      const prefix = query.get("prefix") ?? "";
      const entries = [...objects]
        .filter(([stored]) => stored.startsWith(`${bucket}/${prefix}`))
        .map(
          ([stored, o]) =>
            `<Contents><Key>${stored.slice(bucket.length + 1)}</Key><LastModified>${o.modified.toISOString()}</LastModified><Size>${o.bytes.byteLength}</Size></Contents>`,
        );
      return reply(
        response,
        200,
        xml(
          `<ListBucketResult><Name>${bucket}</Name><IsTruncated>false</IsTruncated><KeyCount>${entries.length}</KeyCount>${entries.join("")}</ListBucketResult>`,
        ),
      );
    }
    const found = objects.get(name);
    calls.push("GET GetObject");
    if (found === undefined) return failure(response, 404, "NoSuchKey");
    response.writeHead(200, {
      "content-type": "application/octet-stream",
      "content-length": String(found.bytes.byteLength),
      "last-modified": found.modified.toUTCString(),
      etag: '"object"',
    });
    response.end(found.bytes);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.destroy(error as Error);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    objects,
    unfinished,
    calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
