// Every relative link in the README and docs/ leads somewhere: the file exists and, for a Markdown file,
// so does the heading the anchor names. A moved section or a renamed heading fails here, not for a reader.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { headingAnchors, linkTargets } from "./markdown.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

const documents = [
  "README.md",
  "ARCHITECTURE.md",
  "bench/README.md",
  "bench/latest-run.md",
  "clients/typescript/README.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

// Documents that other work adds: a link to one is allowed before it lands (see the README's list).
const announced = new Set(["docs/platforms.md"]);

/** What is wrong with `target` as linked from `document`, or null when it leads somewhere. */
function brokenReason(document: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // https:, mailto: and the like: not checked here
  const [path = "", anchor] = target.split("#", 2);
  const file = path === "" ? join(root, document) : resolve(dirname(join(root, document)), decodeURI(path));
  const fromRoot = relative(root, file);
  if (fromRoot.startsWith("..")) return `leaves the repository (${fromRoot})`;
  if (!existsSync(file)) return announced.has(fromRoot) ? null : `no file ${fromRoot}`;
  if (anchor === undefined || !file.endsWith(".md") || statSync(file).isDirectory()) return null;
  const anchors = headingAnchors(readFileSync(file, "utf8"));
  return anchors.has(anchor) ? null : `no heading #${anchor} in ${fromRoot}`;
}

describe("links in the documentation", () => {
  it("finds the documents it checks, each with links", () => {
    for (const document of ["README.md", "docs/api.md", "docs/configuration.md"]) {
      expect(documents).toContain(document);
      expect(linkTargets(readFileSync(join(root, document), "utf8")).length).toBeGreaterThan(0);
    }
  });

  it.each(documents)("every relative link in %s points at a file and heading that exist", (document) => {
    const broken = linkTargets(readFileSync(join(root, document), "utf8"))
      .map((target) => ({ target, reason: brokenReason(document, target) }))
      .filter((link) => link.reason !== null)
      .map((link) => `${link.target}: ${link.reason}`);
    expect(broken).toEqual([]);
  });

  it("tells a broken file, a broken anchor and a working link apart", () => {
    expect(brokenReason("README.md", "docs/no-such-file.md")).toBe("no file docs/no-such-file.md");
    expect(brokenReason("README.md", "docs/api.md#no-such-heading")).toBe(
      "no heading #no-such-heading in docs/api.md",
    );
    expect(brokenReason("docs/api.md", "#errors")).toBeNull();
    expect(brokenReason("docs/api.md", "../README.md")).toBeNull();
  });
});
