// The URL-template captions source against a local server: formats, 404, other failures, timeouts, aborts.
import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { UrlTemplateCaptionSource } from "../../src/captions/url-template-source.js";
import { closedOrigin, type LocalServer, startLocalServer } from "./local-servers.js";
import { captionFailure, captionFixture } from "../support/captions.js";

function answer(response: ServerResponse, status: number, body: string, contentType?: string): void {
  response.writeHead(status, contentType ? { "content-type": contentType } : {}).end(body);
}

describe("Captions from a URL template", () => {
  let server: LocalServer;
  let source: UrlTemplateCaptionSource;

  beforeAll(async () => {
    server = await startLocalServer((_request, response) => answer(response, 404, "not found"));
    source = new UrlTemplateCaptionSource(`${server.origin}/captions/{video_id}?format=any`, {
      timeoutMs: 2000,
    });
  });
  afterAll(async () => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  it("asks for the video's own URL and reads WebVTT by its content type", async () => {
    server.handler = (_request, response) =>
      answer(response, 200, captionFixture("rolling-auto.en.vtt"), "text/vtt");
    const transcript = await source.fetchTranscript("aB3_-xYz012");
    expect(server.requests[0]?.url.pathname).toBe("/captions/aB3_-xYz012");
    expect(server.requests[0]?.url.searchParams.get("format")).toBe("any");
    expect(transcript.cues).toHaveLength(6);
    expect(transcript.durationSeconds).toBe(22.48);
  });

  it("recognises WebVTT, json3 and SubRip by their content when the type says nothing", async () => {
    const cases = [
      { file: "manual.en.vtt", first: "Welcome to the kitchen!" },
      { file: "auto.en.json3", first: "hey everyone welcome back to the kitchen" },
      { file: "manual.en.srt", first: "Hello there." },
    ];
    for (const { file, first } of cases) {
      server.handler = (_request, response) => answer(response, 200, captionFixture(file), "text/plain");
      const transcript = await source.fetchTranscript("aB3_-xYz012");
      expect(transcript.cues[0]?.text, file).toBe(first);
    }
  });

  it("says no_captions for a 404 and for an empty answer", async () => {
    server.handler = (_request, response) => answer(response, 404, "no such file");
    expect((await captionFailure(source.fetchTranscript("aB3_-xYz012"))).code).toBe("no_captions");
    server.handler = (_request, response) => answer(response, 200, "");
    expect((await captionFailure(source.fetchTranscript("aB3_-xYz012"))).code).toBe("no_captions");
  });

  it("says captions_unavailable for other statuses and for JSON that is not json3", async () => {
    for (const status of [500, 503, 429, 403, 401]) {
      server.handler = (_request, response) => answer(response, status, "nope");
      const error = await captionFailure(source.fetchTranscript("aB3_-xYz012"));
      expect(error.code, String(status)).toBe("captions_unavailable");
      expect(error.retryable).toBe(true);
    }
    server.handler = (_request, response) => answer(response, 200, "<html>oops", "application/json");
    expect((await captionFailure(source.fetchTranscript("aB3_-xYz012"))).code).toBe("captions_unavailable");
  });

  it("says captions_unavailable, not no_captions, for a 200 answer that is an HTML error page", async () => {
    const page =
      "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body>Try later</body></html>";
    for (const contentType of ["text/html; charset=utf-8", "text/plain", "application/octet-stream"]) {
      server.handler = (_request, response) => answer(response, 200, page, contentType);
      const error = await captionFailure(source.fetchTranscript("aB3_-xYz012"));
      expect(error.code, contentType).toBe("captions_unavailable");
      expect(error.retryable).toBe(true);
    }
  });

  it("says captions_unavailable when the server cannot be reached or does not answer in time", async () => {
    const nowhere = new UrlTemplateCaptionSource(`${await closedOrigin()}/{video_id}.vtt`);
    expect((await captionFailure(nowhere.fetchTranscript("aB3_-xYz012"))).code).toBe("captions_unavailable");

    server.handler = () => {}; // never answers
    const impatient = new UrlTemplateCaptionSource(`${server.origin}/{video_id}.vtt`, { timeoutMs: 200 });
    const error = await captionFailure(impatient.fetchTranscript("aB3_-xYz012"));
    expect(error.code).toBe("captions_unavailable");
    expect(error.message).toMatch(/no answer within/);
  });

  it("gives up as soon as the caller aborts, with the caller's reason", async () => {
    server.handler = () => {}; // never answers
    const controller = new AbortController();
    const pending = source.fetchTranscript("aB3_-xYz012", { signal: controller.signal });
    const reason = new Error("worker stopping");
    setTimeout(() => controller.abort(reason), 50);
    await expect(pending).rejects.toBe(reason);
  });

  it("refuses ids that are not video ids without asking the server", async () => {
    const error = await captionFailure(source.fetchTranscript("../../etc/x"));
    expect(error.code).toBe("video_unavailable");
    expect(server.requests).toHaveLength(0);
  });

  it("refuses templates without {video_id} or of another scheme", () => {
    expect(() => new UrlTemplateCaptionSource("https://captions.example/file.vtt")).toThrow(/\{video_id\}/);
    expect(() => new UrlTemplateCaptionSource("ftp://captions.example/{video_id}.vtt")).toThrow(/http/);
  });
});
