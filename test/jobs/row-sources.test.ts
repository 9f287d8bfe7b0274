// Where each row came from, end to end: captions from a folder, a fake model that names each row's lines,
// and the sources a done video's rows carry in the one read that hands them over, with their quotes and the
// values those do not hold.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import {
  type FakeModelRequest,
  promptLines,
  spannedRowsReply,
  type FakeModelBehaviour,
} from "../support/fake-model.js";
import { handoverRecorded, newVideoId, waitFor } from "../support/jobs-api.js";
import { type PipelineServer, startPipelineServer } from "../support/pipeline.js";

/** 12 caption lines over 100 seconds: each 8.333 s long, so starts fall between whole seconds. */
const lineCount = 12;
const durationSeconds = 100;

/** The text of line `i` (0-based) of video `videoId`: says which video and which line it is. */
const lineText = (videoId: string, i: number) => `Line ${i} of ${videoId} sells item ${i}.`;

/** Where line `i` starts and ends, in seconds to the millisecond, as `webVtt` wrote its cues. */
function lineTimes(i: number): { start: number; end: number } {
  const step = durationSeconds / lineCount;
  return { start: Math.round(i * step * 1000) / 1000, end: Math.round((i + 1) * step * 1000) / 1000 };
}

/** Which line (0-based) a prompt line's text is, by the `Line <i> of` it starts with. */
const lineIndexOf = (text: string) => Number(/^Line (\d+) of /.exec(text)?.[1]);

/**
 * The model: for each line of the chunk, a row naming that line's text and the request that asked
 * (`price`), drawn from that line and the next one (the chunk's last line alone). For a video whose
 * captions say WILD, the spans are outside the chunk on both sides, so they must be clamped to it.
 */
function nameEachLine(request: FakeModelRequest) {
  const lines = promptLines(request);
  const wild = lines.some((line) => line.text.includes("WILD"));
  return spannedRowsReply(
    lines.map((line) => ({
      row: { product: line.text, price: request.number },
      first_line: wild ? 0 : line.number,
      last_line: wild ? lines.length + 40 : Math.min(line.number + 1, lines.length),
    })),
  );
}

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`row sources on ${dialectTitle(dialect)}`, () => {
    let server: PipelineServer;
    beforeAll(async () => {
      server = await startPipelineServer(dialect.name, {
        respond: nameEachLine,
        // About three lines a chunk and one line of overlap, so that a video is read in several parts.
        app: { extraction: { chunking: { chunkTokens: 45, overlapTokens: 16 } } },
      });
    });
    afterAll(async () => {
      await server?.close();
    });

    /** A video whose 12 lines say which line they are (and WILD, for the out-of-range model). */
    function videoWithLines(extra = ""): string {
      const videoId = newVideoId();
      const lines = Array.from({ length: lineCount }, (_, i) => `${lineText(videoId, i)}${extra}`);
      server.addCaptions(videoId, durationSeconds, lines);
      return videoId;
    }

    /** Submits the videos and waits, by listing (which takes nothing), until the job has settled. */
    async function settledJob(
      key: string,
      videos: string[],
      schema: unknown = { columns: ["product", "price"] },
    ): Promise<string> {
      const submitted = await server.call("POST", "/v1", { key, body: { videos, schema } });
      expect(submitted.status, submitted.text).toBe(202);
      const jobId: string = submitted.body.job_id;
      await waitFor(`job ${jobId} to settle`, async () => {
        const list = await server.call("GET", `/v1?search=${jobId}`, { key });
        const item = list.body.data?.[0];
        return item && item.status !== "processing" ? item : undefined;
      });
      return jobId;
    }

    /** The span, in seconds, of the chunk a request asked about: from its first line's start to its last's end. */
    function chunkSpan(request: FakeModelRequest | undefined): { start: number; end: number } {
      const lines = promptLines(request as FakeModelRequest).map((line) => lineIndexOf(line.text));
      expect(lines.length).toBeGreaterThan(0);
      return { start: lineTimes(Math.min(...lines)).start, end: lineTimes(Math.max(...lines)).end };
    }

    it("gives every row a source inside the video and inside its chunk, the lines the model named, and a URL at its start", async () => {
      const { key } = await server.workspace();
      const videoIds = [videoWithLines(), videoWithLines()];
      const jobId = await settledJob(key, videoIds);
      const read = await server.call("GET", `/v1/${jobId}`, { key });
      expect(read.status).toBe(200);
      expect(read.body.status).toBe("done");

      for (const video of read.body.results) {
        expect(video.usage.chunk_count).toBeGreaterThan(2);
        expect(video.usage.duration_seconds).toBe(durationSeconds);
        const { results, sources } = video.rows;
        expect(Object.keys(video.rows)).toEqual(["results", "sources"]);
        expect(sources).toHaveLength(results.length);
        // Every line was read; a line the chunks overlap on was read twice, by two requests, so it gives
        // two rows (their prices differ), each with the one source of its own chunk.
        const linesSeen = new Set(results.map((row: any) => lineIndexOf(row.product)));
        expect(linesSeen.size).toBe(lineCount);
        results.forEach((row: any, i: number) => {
          const source = sources[i];
          expect(Object.keys(row)).toEqual(["product", "price"]);
          expect(Object.keys(source)).toEqual(["start_seconds", "end_seconds", "url", "quote", "unverified"]);
          // The quote is the text of the lines named, and holds the row's text value.
          expect(source.quote).toContain(row.product);
          expect(source.unverified).not.toContain("product");
          // Inside the video.
          expect(source.start_seconds).toBeGreaterThanOrEqual(0);
          expect(source.end_seconds).toBeGreaterThanOrEqual(source.start_seconds);
          expect(source.end_seconds).toBeLessThanOrEqual(video.usage.duration_seconds);
          // Inside the chunk it came from: the request named by its price.
          const request = server.model.requests[row.price - 1];
          expect(request?.number).toBe(row.price);
          const chunk = chunkSpan(request);
          expect(source.start_seconds).toBeGreaterThanOrEqual(chunk.start);
          expect(source.end_seconds).toBeLessThanOrEqual(chunk.end);
          // Exactly the lines the model named: this line, to the next one unless this was the chunk's last.
          const line = lineIndexOf(row.product);
          expect(source.start_seconds).toBe(lineTimes(line).start);
          const lastOfChunk = lineTimes(line).end === chunk.end;
          expect(source.end_seconds).toBe(lineTimes(lastOfChunk ? line : line + 1).end);
          // The link opens the video at the start, in whole seconds rounded down.
          expect(source.url).toBe(
            `https://www.youtube.com/watch?v=${video.video_id}&t=${Math.floor(source.start_seconds)}s`,
          );
        });
        // Starts between whole seconds were rounded down in the link (line 1 starts at 8.333 s).
        expect(sources.some((source: any) => source.url.endsWith("&t=8s"))).toBe(true);
      }
    });

    it("clamps a span the model gives outside the chunk to the whole chunk, starting where the row is said", async () => {
      const { key } = await server.workspace();
      const videoId = videoWithLines(" WILD");
      const jobId = await settledJob(key, [videoId]);
      const read = await server.call("GET", `/v1/${jobId}`, { key });
      const [video] = read.body.results;
      expect(video.rows.results.length).toBeGreaterThan(0);
      video.rows.results.forEach((row: any, i: number) => {
        const chunk = chunkSpan(server.model.requests[row.price - 1]);
        const source = video.rows.sources[i];
        expect(source).toMatchObject({
          end_seconds: chunk.end,
          url: `https://www.youtube.com/watch?v=${videoId}&t=${Math.floor(source.start_seconds)}s`,
        });
        // The span is the whole chunk, and it starts at the moment the row's values begin: at the latest
        // the start of the line that says the product, at the earliest the chunk's start.
        expect(source.start_seconds).toBeGreaterThanOrEqual(chunk.start);
        expect(source.start_seconds).toBeLessThanOrEqual(lineTimes(lineIndexOf(row.product)).start);
        // The whole chunk's text is quoted.
        const chunkText = promptLines(server.model.requests[row.price - 1] as FakeModelRequest)
          .map((line) => line.text)
          .join(" ");
        expect(video.rows.sources[i].quote).toBe(chunkText);
      });
    });

    it("keeps the sources with the rows until the handover (sealed on PostgreSQL), then deletes them with the rows", async () => {
      const { key } = await server.workspace();
      const videoId = videoWithLines();
      const jobId = await settledJob(key, [videoId]);
      const db = server.app.store.db;
      const storedRows = async () =>
        (await db.selectFrom("videos").select("rows").where("job_id", "=", jobId).executeTakeFirst())?.rows;

      const before = await storedRows();
      if (dialect.name === "postgres") {
        expect(before).toMatch(/^sealed1:/);
        expect(before).not.toContain("start_seconds");
        expect(before).not.toContain(lineText(videoId, 0));
      } else {
        const stored = JSON.parse(before ?? "null");
        expect(stored.sources).toHaveLength(stored.results.length);
        expect(stored.sources[0]).toMatchObject({
          start_seconds: 0,
          end_seconds: lineTimes(1).end,
          quote: `${lineText(videoId, 0)} ${lineText(videoId, 1)}`,
        });
      }

      const first = await server.call("GET", `/v1/${jobId}`, { key });
      expect(first.body.results[0].rows.sources.length).toBeGreaterThan(0);
      await handoverRecorded(db, jobId);
      expect(await storedRows()).toBeNull();
      const second = await server.call("GET", `/v1/${jobId}`, { key });
      expect(second.status).toBe(200);
      expect(second.body.results[0].rows).toBeNull();
      expect(JSON.stringify(second.body)).not.toContain("start_seconds");
      expect(JSON.stringify(second.body)).not.toContain(lineText(videoId, 0));
    });

    it("flags in `unverified` a value the transcript never says, and nothing else", async () => {
      // Each line's own text as the product, a price no line says, and a boolean and an enum value no
      // line says either, which are never checked.
      const inventPrice: FakeModelBehaviour = (request) =>
        spannedRowsReply(
          promptLines(request).map((line) => ({
            row: { product: line.text, price: 987654, in_stock: true, size: "large" },
            first_line: line.number,
            last_line: line.number,
          })),
        );
      server.model.respondWith(inventPrice);
      try {
        const { key } = await server.workspace();
        const videoId = videoWithLines();
        const jobId = await settledJob(key, [videoId], {
          template: {
            product: "The product",
            price: { description: "Its price", type: "number" },
            in_stock: { description: "Whether it is in stock", type: "boolean" },
            size: { description: "Its size", type: "string", enum: ["small", "large"] },
          },
        });
        const read = await server.call("GET", `/v1/${jobId}`, { key });
        const { results, sources } = read.body.results[0].rows;
        expect(results.length).toBeGreaterThanOrEqual(lineCount);
        results.forEach((row: any, i: number) => {
          expect(sources[i].quote).toBe(row.product);
          expect(sources[i].unverified).toEqual(["price"]);
        });
      } finally {
        server.model.respondWith(nameEachLine);
      }
    });
  });
}
