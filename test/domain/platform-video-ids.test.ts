import { describe, expect, it } from "vitest";
import { parsePlatformVideoId, videoIdOf } from "../../src/domain/platform-video-ids.js";

describe("The video_id of a video on another platform", () => {
  it("is <platform>:<id> with the extractor lowercased, and YouTube's stays bare", () => {
    expect(videoIdOf("Vimeo", "76979871")).toBe("vimeo:76979871");
    expect(videoIdOf("TikTok", "7106594312292453675")).toBe("tiktok:7106594312292453675");
    expect(videoIdOf("Youtube", "dQw4w9WgXcQ")).toBe("dQw4w9WgXcQ");
  });

  it("reads back into platform and id", () => {
    expect(parsePlatformVideoId("vimeo:76979871")).toEqual({ platform: "vimeo", id: "76979871" });
    expect(parsePlatformVideoId("generic:clip-01.mp4")).toEqual({ platform: "generic", id: "clip-01.mp4" });
  });

  it("refuses a YouTube id, an empty part, whitespace or an uppercase platform", () => {
    for (const bad of [
      "dQw4w9WgXcQ",
      ":123",
      "vimeo:",
      "vimeo:12 3",
      "Vimeo:123",
      "youtube:dQw4w9WgXcQ",
      "vi meo:1",
    ]) {
      expect(parsePlatformVideoId(bad), bad).toBeNull();
    }
  });
});
