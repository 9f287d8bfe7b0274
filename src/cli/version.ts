// The version of vidrows, read from its package.json at run time, wherever this module was built to.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Walks up from this module's folder to the package.json of the package named "vidrows": from
 * `dist/cli/` (the built CLI, installed or not) as from `src/cli/` (tests), whatever the working folder.
 */
export function packageVersion(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = readManifest(join(folder, "package.json"));
    if (manifest?.name === "vidrows" && typeof manifest.version === "string") return manifest.version;
    const parent = dirname(folder);
    if (parent === folder) throw new Error("Could not find the package.json of vidrows above its code.");
    folder = parent;
  }
}

function readManifest(path: string): { name?: unknown; version?: unknown } | null {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as { name?: unknown; version?: unknown };
  } catch {
    // No package.json here (or not one we can read): keep walking up.
    return null;
  }
}
