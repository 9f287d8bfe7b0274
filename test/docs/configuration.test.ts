// docs/configuration.md is the list of every setting: a variable the server reads that the page does not
// name (or a name on the page that nothing reads any more) fails here, and so does one missing from
// .env.example, which the page points readers to.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repositoryRoot } from "./reader-setup.js";

const read = (path: string) => readFileSync(join(repositoryRoot, path), "utf8");

/** Every .ts file under `folder`. */
function sources(folder: string): string[] {
  return readdirSync(join(repositoryRoot, folder)).flatMap((name) => {
    const path = `${folder}/${name}`;
    if (statSync(join(repositoryRoot, path)).isDirectory()) return sources(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

// Set by `vidrows cluster` for the processes it starts, never by a person.
const internal = new Set(["VIDROWS_CLUSTER_ROLE"]);
const settingPattern = /\b(?:VIDROWS_[A-Z0-9_]*[A-Z0-9]|DATABASE_URL|OPENAI_API_KEY|LOG_LEVEL)\b/g;

const readBySource = new Set(
  sources("src")
    .flatMap((path) => read(path).match(settingPattern) ?? [])
    .filter((name) => !internal.has(name)),
);

describe("docs/configuration.md", () => {
  const page = read("docs/configuration.md");
  const named = new Set(page.match(settingPattern) ?? []);

  it("names every setting the server reads", () => {
    expect(readBySource.size).toBeGreaterThan(20);
    expect([...readBySource].filter((name) => !named.has(name))).toEqual([]);
  });

  it("names no setting the server does not read", () => {
    expect([...named].filter((name) => !readBySource.has(name))).toEqual([]);
  });

  it("lists HOST and PORT, which the pattern above cannot tell from other words", () => {
    expect(page).toMatch(/\| `HOST`, `PORT`\s+\|/);
  });

  it("has every setting in .env.example too", () => {
    const example = new Set(read(".env.example").match(settingPattern) ?? []);
    expect([...readBySource].filter((name) => !example.has(name))).toEqual([]);
  });
});
