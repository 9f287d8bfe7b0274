// The shape of src/: no file over 300 lines, and no import cycle among its modules.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const srcDir = fileURLToPath(new URL("../../src/", import.meta.url));

/** A file longer than this holds more than one concept: split it by concept, not by line count. */
const maxLines = 300;

/** Every TypeScript file under src/, as a path relative to it. */
function sourceFiles(): string[] {
  return (readdirSync(srcDir, { recursive: true }) as string[])
    .filter((path) => path.endsWith(".ts"))
    .map((path) => path.split("\\").join("/"))
    .sort();
}

function lineCount(text: string): number {
  return text.endsWith("\n") ? text.split("\n").length - 1 : text.split("\n").length;
}

/** The files of src/ a source text imports (types included: a cycle through types is a cycle to read). */
function importedFiles(pathInSrc: string, text: string): string[] {
  const pattern =
    /(?:^|\n)\s*(?:import|export)\b[^"'`;]*?from\s*["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/g;
  const found: string[] = [];
  for (const match of text.matchAll(pattern)) {
    const specifier = (match[1] ?? match[2]) as string;
    const target = relative(srcDir, resolve(srcDir, dirname(pathInSrc), specifier));
    found.push(target.split("\\").join("/").replace(/\.js$/, ".ts"));
  }
  return found;
}

/** The import cycles of a graph, each as the list of files around it, found by a depth-first walk. */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === "open") cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

describe("the files of src/", () => {
  const texts = new Map(sourceFiles().map((path) => [path, readFileSync(join(srcDir, path), "utf8")]));

  it(`keeps every file within ${maxLines} lines`, () => {
    const tooLong = [...texts]
      .filter(([, text]) => lineCount(text) > maxLines)
      .map(([path, text]) => `src/${path}: ${lineCount(text)} lines`);
    expect(tooLong).toEqual([]);
  });

  it("imports in no circle", () => {
    const graph = new Map([...texts].map(([path, text]) => [path, importedFiles(path, text)]));
    expect(cyclesOf(graph).map((cycle) => cycle.join(" -> "))).toEqual([]);
  });

  it("finds a file over the limit and a cycle when there is one", () => {
    expect(lineCount("a\n".repeat(maxLines + 1))).toBe(maxLines + 1);
    const graph = new Map([
      ["pipeline/settlement.ts", ["pipeline/settlement-locks.ts"]],
      ["pipeline/settlement-locks.ts", ["pipeline/settlement.ts"]],
      ["pipeline/claims.ts", ["pipeline/settlement.ts"]],
    ]);
    expect(cyclesOf(graph)).toEqual([
      ["pipeline/settlement.ts", "pipeline/settlement-locks.ts", "pipeline/settlement.ts"],
    ]);
    expect(importedFiles("pipeline/settlement.ts", 'import type { X } from "./video-outcomes.js";')).toEqual([
      "pipeline/video-outcomes.ts",
    ]);
  });
});
