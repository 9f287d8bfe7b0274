// docs/dependencies.md says why each dependency is there: a package added to any package.json of the
// repository without a line there fails here.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
const page = read("docs/dependencies.md");

const manifests = ["package.json", "clients/typescript/package.json", "dashboard/package.json"];

/** Every dependency a manifest names, of any kind, except the repository's own workspaces. */
function dependenciesOf(manifest: string): string[] {
  const json = JSON.parse(read(manifest)) as Record<string, Record<string, string> | undefined>;
  return ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"]
    .flatMap((kind) => Object.keys(json[kind] ?? {}))
    .filter((name) => name !== "@vidrows/client" || manifest === "package.json");
}

describe("docs/dependencies.md", () => {
  it.each(manifests)("names every dependency of %s", (manifest) => {
    const names = dependenciesOf(manifest);
    expect(names.length).toBeGreaterThan(manifest === "clients/typescript/package.json" ? 0 : 1);
    expect(names.filter((name) => !page.includes(`\`${name}\``))).toEqual([]);
  });

  it("says the client has no runtime dependency, as its package.json has none", () => {
    const client = JSON.parse(read("clients/typescript/package.json")) as { dependencies?: object };
    expect(Object.keys(client.dependencies ?? {})).toEqual([]);
    expect(page).toContain(
      "`@vidrows/client` (`clients/typescript/package.json`) has no runtime dependencies",
    );
  });
});
