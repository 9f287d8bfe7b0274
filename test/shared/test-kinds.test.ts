// The test files' naming rule of docs/development.md ("What a test guards"), checked over every test file:
// what measures statements or query plans is a cost test, and a cost test says so in its name and titles;
// a suite that starts processes waits for them on the budgets made for a busy machine.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const testDir = fileURLToPath(new URL("../", import.meta.url));

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "fixtures" ? [] : testFiles(path);
    return entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

const files = testFiles(testDir).map((path) => ({
  name: relative(testDir, path),
  text: readFileSync(path, "utf8"),
}));
const isCost = (name: string) => name.endsWith(".cost.test.ts");

/** What only a cost test does: records the SQL statements a store runs, or asks for a query's plan. */
const measuresStatements = /\bStatementLog\b|\bexplainPlan\b/;

describe("what a test file guards", () => {
  it("finds the test files, cost tests among them (so that the rules below look at something)", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((file) => isCost(file.name)).length).toBeGreaterThan(5);
  });

  it("measures statements and query plans only in *.cost.test.ts files", () => {
    const misplaced = files.filter((file) => !isCost(file.name) && measuresStatements.test(file.text));
    expect(misplaced.map((file) => file.name)).toEqual([]);
  });

  it("titles every top-level describe of a cost test 'Cost: ...', and starts its header so", () => {
    const untitled = files
      .filter((file) => isCost(file.name))
      .flatMap((file) => {
        const titles = [...file.text.matchAll(/^ {0,2}describe(?:\.\w+\([^)]*\))?\(\s*[`"']([^`"']*)/gm)];
        const problems = titles
          .map((match) => match[1] ?? "")
          .filter((title) => !title.startsWith("Cost: "))
          .map((title) => `${file.name}: describe "${title}"`);
        if (!file.text.startsWith("// Cost: ")) problems.push(`${file.name}: its first line`);
        return titles.length === 0 ? [`${file.name}: no describe found`] : problems;
      });
    expect(untitled).toEqual([]);
  });

  it("gives every suite that starts vidrows processes the budgets of test/support/time-budgets.ts", () => {
    const importsProcesses = /^import [^;]* from "\.\.\/support\/processes\.js";$/m;
    const startsProcesses = files.filter((file) => importsProcesses.test(file.text));
    expect(startsProcesses.length).toBeGreaterThan(5);
    const withoutBudgets = startsProcesses.filter((file) => !/^useWorkBudgets\(\);$/m.test(file.text));
    expect(withoutBudgets.map((file) => file.name)).toEqual([]);
  });

  it("keeps no test/unit/ folder: a test lives with the area it tests", () => {
    expect(files.filter((file) => file.name.startsWith("unit/")).map((file) => file.name)).toEqual([]);
  });
});
