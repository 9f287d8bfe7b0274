// A fake command-line program for the tests (the yt-dlp stand-ins): a Node script written into a folder
// of its own under an executable name, which records each command line it is run with in calls.jsonl
// beside it (the script's own job: `fs.appendFileSync(path.join(__dirname, "calls.jsonl"), ...)`).
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface FakeExecutable {
  /** The folder the program lives in, where tests put the files it reads. */
  readonly folder: string;
  /** The program's path, to hand to the code under test. */
  readonly path: string;
  /** Every command line it was run with, in order. */
  calls(): string[][];
  remove(): void;
}

/** Writes `program` (CommonJS, run by this Node) as `<temp folder>/<name>`, executable. */
export function createFakeExecutable(folderPrefix: string, program: string, name = "yt-dlp"): FakeExecutable {
  const folder = mkdtempSync(join(tmpdir(), folderPrefix));
  const path = join(folder, name);
  writeFileSync(path, `#!${process.execPath}\n${program}`);
  chmodSync(path, 0o755);
  return {
    folder,
    path,
    calls: () => {
      const file = join(folder, "calls.jsonl");
      if (!existsSync(file)) return [];
      return readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as string[]);
    },
    remove: () => rmSync(folder, { recursive: true, force: true }),
  };
}
