// What `/docs` hands a browser: the submit body it shows (the document's example) is one the server
// accepts and runs, and Scalar's 4 MB script goes compressed, brotli or gzip, to a browser that accepts it.
import { get } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { preferredCoding } from "../../src/http/compressed-variants.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { type PipelineServer, startPipelineServer } from "../support/pipeline.js";

/** A GET whose body is kept as the bytes sent (fetch would decode them). */
function getBytes(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on("error", reject);
    }).on("error", reject);
  });
}

describe("choosing the script's coding from Accept-Encoding", () => {
  it("takes the accepted coding of the highest weight, brotli on a tie, none when none is accepted", () => {
    expect(preferredCoding(undefined)).toBeUndefined();
    expect(preferredCoding("")).toBeUndefined();
    expect(preferredCoding("identity")).toBeUndefined();
    expect(preferredCoding("deflate")).toBeUndefined();
    expect(preferredCoding("gzip, deflate, br, zstd")).toBe("br"); // Chromium's
    expect(preferredCoding("gzip")).toBe("gzip");
    expect(preferredCoding("GZIP")).toBe("gzip");
    expect(preferredCoding("br;q=0.5, gzip")).toBe("gzip");
    expect(preferredCoding("br;q=0, gzip;q=0")).toBeUndefined();
    expect(preferredCoding("*")).toBe("br");
    expect(preferredCoding("*, br;q=0")).toBe("gzip");
    expect(preferredCoding("br;q=nonsense, gzip;q=0.1")).toBe("gzip");
    expect(preferredCoding(",,; ;q=1,")).toBeUndefined();
  });
});

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(
    `/docs as a browser gets it, on ${dialectTitle(dialect)}`,
    () => {
      let server: PipelineServer;
      beforeAll(async () => {
        server = await startPipelineServer(dialect.name);
      });
      afterAll(async () => {
        await server?.close();
      });

      it("shows a submit body the server accepts as it is, and runs", async () => {
        const document = (await server.call("GET", "/v1/openapi.json")).body;
        const media = document.paths["/v1"].post.requestBody.content["application/json"];
        // Scalar shows the media type's example (and sends it with "Test request"); without one it makes
        // a body up from the schema.
        const example = media.example;
        expect(example).toBeDefined();
        for (const video of example.videos as string[]) {
          const id = /[?&]v=([\w-]{11})/.exec(video)?.[1] ?? video;
          server.addCaptions(id, 30);
        }
        const { key } = await server.workspace();
        const submitted = await server.call("POST", "/v1", { key, body: example });
        expect(submitted.status, submitted.text).toBe(202);
        const settled = await server.waitForSettled(key, submitted.body.job_id);
        expect(settled.status).toBe("done");
        expect(settled.results).toHaveLength(example.videos.length);
      });

      it("sends Scalar's script as brotli or gzip when the browser accepts it, the same script decoded", async () => {
        const url = `${server.url}/docs/scalar.js`;
        const plain = await getBytes(url, {});
        expect(plain.status).toBe(200);
        expect(plain.headers["content-encoding"]).toBeUndefined();
        expect(plain.body.length).toBeGreaterThan(1_000_000);

        const brotli = await getBytes(url, { "accept-encoding": "gzip, deflate, br, zstd" });
        expect(brotli.status).toBe(200);
        expect(brotli.headers["content-encoding"]).toBe("br");
        expect(brotli.headers.vary).toMatch(/accept-encoding/i);
        expect(brotli.body.length).toBeLessThan(plain.body.length / 3);
        expect(brotliDecompressSync(brotli.body).equals(plain.body)).toBe(true);

        const gzip = await getBytes(url, { "accept-encoding": "gzip" });
        expect(gzip.headers["content-encoding"]).toBe("gzip");
        expect(gzip.body.length).toBeLessThan(plain.body.length / 3);
        expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);

        // Each coding is its own representation: its own ETag, answered 304 for that tag only.
        const tags = [plain, brotli, gzip].map((answer) => answer.headers.etag as string);
        expect(new Set(tags).size).toBe(3);
        const again = await getBytes(url, { "accept-encoding": "br", "if-none-match": tags[1] as string });
        expect(again.status).toBe(304);
        expect(again.headers["content-encoding"]).toBeUndefined();
        expect(again.body.length).toBe(0);
        const otherTag = await getBytes(url, { "accept-encoding": "br", "if-none-match": tags[0] as string });
        expect(otherTag.status).toBe(200);
      });
    },
  );
}
