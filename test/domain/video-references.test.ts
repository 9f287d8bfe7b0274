// Reading a submitted video: every accepted YouTube URL form and bare id, and what is refused; the
// address that opens a video at a moment.
import { describe, expect, it } from "vitest";
import { parseVideoReference, watchUrlAt } from "../../src/domain/video-references.js";
import { ApiError } from "../../src/http/api-errors.js";
import { readVideoReferences } from "../../src/jobs/job-submission.js";

const id = "aqz-KE-bpKQ";

describe("parseVideoReference", () => {
  const accepted: [string, string][] = [
    ["a bare id", id],
    ["a bare id with _ and -", "a_b-C_d-E_f"],
    ["watch?v=", `https://www.youtube.com/watch?v=${id}`],
    ["watch?v= without www", `https://youtube.com/watch?v=${id}`],
    ["watch?v= over http", `http://www.youtube.com/watch?v=${id}`],
    ["watch?v= without a scheme", `www.youtube.com/watch?v=${id}`],
    [
      "watch?v= with other query parameters before and after",
      `https://www.youtube.com/watch?feature=share&v=${id}&t=42s&list=PL123`,
    ],
    ["watch?v= with a fragment", `https://www.youtube.com/watch?v=${id}#t=10`],
    ["watch?v= followed by a time", `https://www.youtube.com/watch?v=${id}&t=42s`],
    ["watch?v= given twice (the first counts)", `https://www.youtube.com/watch?v=${id}&v=zzzzzzzzzzz`],
    ["an upper-case host", `https://WWW.YOUTUBE.COM/watch?v=${id}`],
    ["youtu.be/", `https://youtu.be/${id}`],
    ["youtu.be/ with ?si= and ?t=", `https://youtu.be/${id}?si=abcDEF123&t=30`],
    ["shorts/", `https://www.youtube.com/shorts/${id}`],
    ["shorts/ with a query", `https://youtube.com/shorts/${id}?feature=share`],
    ["embed/", `https://www.youtube.com/embed/${id}`],
    ["embed/ on youtube-nocookie.com", `https://www.youtube-nocookie.com/embed/${id}`],
    ["live/", `https://www.youtube.com/live/${id}?si=x`],
    ["the m. host", `https://m.youtube.com/watch?v=${id}`],
    ["the music. host", `https://music.youtube.com/watch?v=${id}&list=RDAMVM`],
  ];
  for (const [title, reference] of accepted) {
    it(`accepts ${title}`, () => {
      expect(parseVideoReference(reference)).toBe(reference === "a_b-C_d-E_f" ? reference : id);
    });
  }

  const refused: [string, string][] = [
    ["an empty string", ""],
    ["a 10-character id", "aqz-KE-bpK"],
    ["a 12-character id", "aqz-KE-bpKQx"],
    ["an id with a character outside the alphabet", "aqz-KE-bp+Q"],
    ["another video site", `https://vimeo.com/${id}`],
    ["a look-alike host", `https://youtube.com.example.com/watch?v=${id}`],
    ["a host that merely ends in youtube.com", `https://notyoutube.com/watch?v=${id}`],
    ["a channel URL", "https://www.youtube.com/channel/UCuAXFkgsw1L7xaCfnd5JJOw"],
    ["a handle URL", "https://www.youtube.com/@somechannel"],
    ["a custom channel URL", "https://www.youtube.com/c/SomeChannel"],
    ["a playlist URL", "https://www.youtube.com/playlist?list=PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf"],
    ["watch without v", "https://www.youtube.com/watch?list=PL123"],
    ["watch?v= with a 10-character id", "https://www.youtube.com/watch?v=aqz-KE-bpK"],
    ["watch?v= with a 12-character id", "https://www.youtube.com/watch?v=aqz-KE-bpKQx"],
    ["youtu.be/ without an id", "https://youtu.be/"],
    ["shorts/ without an id", "https://www.youtube.com/shorts/"],
    ["the home page", "https://www.youtube.com/"],
    ["another scheme", `ftp://www.youtube.com/watch?v=${id}`],
    ["a javascript: URL", "javascript:alert(1)"],
    ["a search results page", "https://www.youtube.com/results?search_query=widgets"],
    // Whitespace and invisible characters are never read past, around an id or a URL or inside one.
    ["an id with a leading space", ` ${id}`],
    ["an id with a trailing space", `${id} `],
    ["an id with a leading tab", `\t${id}`],
    ["an id with a trailing line break", `${id}\n`],
    ["an id with a trailing CRLF", `${id}\r\n`],
    ["an id with a no-break space", `${id}\u00a0`],
    ["an id with a zero-width space", `\u200b${id}`],
    ["an id with a byte-order mark", `\ufeff${id}`],
    ["a URL with a leading space", ` https://youtu.be/${id}`],
    ["a URL with a trailing line break", `https://www.youtube.com/watch?v=${id}\n`],
    ["a URL with a trailing space after a parameter", `https://www.youtube.com/watch?v=${id}&t=4 `],
    ["a URL with a tab inside the id", `https://youtu.be/aqz-KE\t-bpKQ`],
    ["a URL with a line break inside the host", `https://www.you\ntube.com/watch?v=${id}`],
  ];
  for (const [title, reference] of refused) {
    it(`refuses ${title}`, () => {
      expect(parseVideoReference(reference)).toBeNull();
    });
  }
});

describe("readVideoReferences", () => {
  it("answers the platform ids in order", () => {
    expect(readVideoReferences([id, "https://youtu.be/dQw4w9WgXcQ"])).toEqual([id, "dQw4w9WgXcQ"]);
  });

  it("names the first element that is not a video", () => {
    try {
      readVideoReferences([id, "dQw4w9WgXcQ", "https://vimeo.com/1", "nope"]);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe("invalid_request");
      expect((error as ApiError).param).toBe("videos[2]");
    }
  });

  it("says which stray character an element has, and where", () => {
    const cases: [string, string][] = [
      [` ${id}`, "a space at position 1"],
      [`${id}\t`, "a tab at position 12"],
      [`${id}\n`, "a line break (LF) at position 12"],
      [`\r\n${id}`, "a line break (CR) at position 1"],
      [`https://youtu.be/${id}\u200b`, "an invisible character (U+200B) at position 29"],
    ];
    for (const [reference, stray] of cases) {
      try {
        readVideoReferences(["dQw4w9WgXcQ", reference]);
        expect.unreachable();
      } catch (error) {
        expect((error as ApiError).code).toBe("invalid_request");
        expect((error as ApiError).param).toBe("videos[1]");
        expect((error as ApiError).message).toBe(
          `\`videos[1]\` has ${stray}; send the video's URL or 11-character id alone, with no spaces, tabs, line breaks or invisible characters around or inside it.`,
        );
      }
    }
  });

  it("names the second mention of a video given twice in two forms, and the first in its message", () => {
    try {
      readVideoReferences(["dQw4w9WgXcQ", `https://www.youtube.com/watch?v=${id}`, `https://youtu.be/${id}`]);
      expect.unreachable();
    } catch (error) {
      expect((error as ApiError).param).toBe("videos[2]");
      expect((error as ApiError).message).toContain("videos[1]");
    }
  });
});

describe("watchUrlAt", () => {
  it("opens the video at the moment rounded down to whole seconds", () => {
    expect(watchUrlAt(id, 65.999)).toBe(`https://www.youtube.com/watch?v=${id}&t=65s`);
    expect(watchUrlAt(id, 0)).toBe(`https://www.youtube.com/watch?v=${id}&t=0s`);
    expect(watchUrlAt(id, 3725)).toBe(`https://www.youtube.com/watch?v=${id}&t=3725s`);
    // And reads back as the same video.
    expect(parseVideoReference(watchUrlAt(id, 12.5))).toBe(id);
  });
});
