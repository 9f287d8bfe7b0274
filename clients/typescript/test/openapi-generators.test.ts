// The served OpenAPI document through a stock generator: openapi-typescript's output, type-checked with a
// small client scenario, keeps every nullable property, the one-of-two submit body and the error codes.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../test/support/test-server.js";

/**
 * What a program written against the generated types relies on. Each `@ts-expect-error` must find its
 * error: a property the generator dropped, or a code that became a plain string, makes it unused, which
 * fails the check as surely as a type error does.
 */
const scenario = `
import type { components, paths } from "./openapi.js";

type Json<T> = T extends { content: { "application/json": infer Body } } ? Body : never;
type Schemas = components["schemas"];
type SubmitBody = Json<NonNullable<paths["/v1"]["post"]["requestBody"]>>;
type JobRead = Json<paths["/v1/{job_id}"]["get"]["responses"][200]>;
type VideoList = Json<paths["/v1/{job_id}/videos"]["get"]["responses"][200]>;

// Nullable properties are kept, required, and admit null.
export const runningResults: Schemas["RunningJob"]["results"] = null;
export const failedRows: Schemas["FailedVideo"]["rows"] = null;
export const notTaken: Schemas["JobSummary"]["handed_over_at"] = null;
export const notAdmitted: Schemas["WaitingVideoProgress"]["id"] = null;
export const listTaken: VideoList["handed_over_at"] = null;
// @ts-expect-error a running job's results are required, even though always null
export const withoutResults: Schemas["RunningJob"] = {
  job_id: "job_1",
  status: "processing",
  videos: 1,
  counts: { queued: 1, processing: 0, done: 0, failed: 0 },
};
// @ts-expect-error a failed video's rows are required, even though always null
export const withoutRows: Schemas["FailedVideo"] = {
  id: "vid_1",
  video_id: "dQw4w9WgXcQ",
  status: "failed",
  credits_charged: 0,
  error: { code: "no_captions", message: "none", retryable: false },
};

// The submit body is one of two: an inline schema, or a saved one with an optional version. (TypeScript
// checks an object literal's extra keys against the union as a whole, so a body with both is not caught
// here; the server answers it 400.)
export const inline: SubmitBody = { videos: ["dQw4w9WgXcQ"], schema: { columns: ["product"] }, language: "en" };
export const saved: SubmitBody = { videos: ["dQw4w9WgXcQ"], schema_id: "sch_1", schema_version: 2 };
// @ts-expect-error neither a schema nor a schema id
export const neither: SubmitBody = { videos: ["dQw4w9WgXcQ"] };

// Per-video error codes are a closed list a program can switch over exhaustively.
export function advice(code: Schemas["VideoError"]["code"]): string {
  switch (code) {
    case "no_captions":
    case "captions_unavailable":
    case "transcription_failed":
      return "try another language or transcription";
    case "video_unavailable":
      return "check the video";
    case "extraction_failed":
      return "retry";
    case "insufficient_credits":
    case "hard_cap_reached":
      return "add credits or raise the hard cap";
    case "cancelled":
      return "submit again";
    default: {
      const unknown: never = code;
      return unknown;
    }
  }
}
// @ts-expect-error a code the API never sends
export const madeUp: Schemas["VideoError"]["code"] = "made_up";

// A read branches on status; each video on its own status.
export function rowCount(read: JobRead): number {
  if (read.status === "processing") return 0;
  return read.results.reduce((sum, video) => sum + (video.status === "done" ? video.usage.row_count : 0), 0);
}
export function creditsOf(videos: VideoList): number {
  return videos.data.reduce(
    (sum, video) => sum + (video.status === "done" || video.status === "failed" ? video.credits_charged : 0),
    0,
  );
}
`;

describe("the OpenAPI document through openapi-typescript", () => {
  let server: TestServer;
  let folder: string;
  beforeAll(async () => {
    server = await startTestServer("sqlite", {}, { work: false });
    folder = mkdtempSync(join(tmpdir(), "vidrows-generated-"));
  });
  afterAll(async () => {
    await server?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it("generates types that a client scenario type-checks against", async () => {
    const document = await server.call("GET", "/v1/openapi.json");
    expect(document.status).toBe(200);
    // The generator's defaults, as someone generating their own client would run it.
    writeFileSync(join(folder, "openapi.ts"), astToString(await openapiTS(document.body)));
    writeFileSync(join(folder, "scenario.ts"), scenario);
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    const args = [
      ...["--noEmit", "--strict", "--exactOptionalPropertyTypes", "--skipLibCheck"],
      ...["--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler"],
      join(folder, "scenario.ts"),
    ];
    let output = "";
    try {
      execFileSync(process.execPath, [tsc, ...args], { encoding: "utf8", stdio: "pipe" });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe("");
  }, 60_000);
});
