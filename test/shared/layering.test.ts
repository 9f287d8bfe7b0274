// The layering rule of ARCHITECTURE.md, checked over every import in src/: a failing case names the file,
// the import and the rule it breaks.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const srcDir = fileURLToPath(new URL("../../src/", import.meta.url));

/** Pure logic: imports nothing of ours but itself. */
const domain = ["domain"];
/**
 * The platform: settings, logging, the database, the HTTP server, concurrency helpers, and the one way to
 * video sites (platforms/). Never a feature.
 */
const platform = [
  "config",
  "model-settings",
  "mechanism-switches",
  "logger",
  "metrics",
  "store",
  "http",
  "concurrency",
  "platforms",
];
/** Features every other feature may use: who is calling (access) and money (credits). */
const shared = ["access", "credits"];
/** The features, one folder each. They use the layers below, and other features only as listed. */
const features = [
  "keys",
  "schemas",
  "usage",
  "workspaces",
  "jobs",
  "webhooks",
  "pipeline",
  "captions",
  "extraction",
  "transcription",
  "listings",
  "uploads",
];
/**
 * The composition root and the commands around it: they wire everything. `cli` is both `cli.ts` and
 * the folder `cli/` (the command table, help texts, the dispatcher); `app` both `app.ts` and `app/`.
 */
const roots = ["app", "cli", "cluster"];

/** The only imports from one feature into another, each for a reason ARCHITECTURE.md gives. */
const featureImports: Record<string, string[]> = {
  jobs: ["schemas", "extraction"], // a saved schema resolved at submission; the row type and stored rows of a result
  pipeline: ["captions", "extraction", "transcription", "webhooks"], // its ports; events recorded at settlement
  workspaces: ["keys"], // a new workspace's first key
  usage: ["workspaces"], // the workspace as of now (its cycle renewed if due) and its plan
};

/**
 * Single files of the platform that may import one file of a feature, each with its reason. Settings are
 * checked at start-up whatever the process runs, and VIDROWS_CAPTIONS is parsed by the captions source's
 * own parser so that the two can never disagree.
 */
const platformExceptions = new Set(["config/captions-settings.ts -> captions/create-caption-source.ts"]);

/**
 * Each database's own parts (store/sqlite/, store/postgres/) are chosen by the composition root and by
 * store/ itself; every other module works with the shared `Store` and never learns which database it
 * runs on. The one exception is each database's access check, a sibling pair in access/
 * (`<database>-access-check.ts`), which uses what only its own database offers.
 */
function breaksDatabaseFolders(pathInSrc: string, target: string): boolean {
  const folder = /^store\/(sqlite|postgres)\//.exec(target)?.[1];
  if (folder === undefined) return false;
  const from = moduleOf(pathInSrc);
  if (roots.includes(from) || pathInSrc === `access/${folder}-access-check.ts`) return false;
  if (from !== "store") return true;
  // Within store/: the shared files may pick either database's part; one database's, never the other's.
  const own = /^store\/(sqlite|postgres)\//.exec(pathInSrc)?.[1];
  return own !== undefined && own !== folder;
}

/** The modules a module of `layer` may import, besides its own. */
function allowedFor(module: string): Set<string> {
  if (domain.includes(module)) return new Set(domain);
  if (platform.includes(module)) return new Set([...domain, ...platform]);
  if (shared.includes(module)) return new Set([...domain, ...platform, ...shared]);
  if (features.includes(module)) {
    return new Set([...domain, ...platform, ...shared, ...(featureImports[module] ?? [])]);
  }
  if (roots.includes(module)) return new Set([...domain, ...platform, ...shared, ...features, ...roots]);
  throw new Error(
    `src/${module} belongs to no layer: add it to test/shared/layering.test.ts and ARCHITECTURE.md.`,
  );
}

/** The module a path under src/ belongs to: its top folder, or a top-level file's name without `.ts`. */
function moduleOf(pathInSrc: string): string {
  const [first, ...rest] = pathInSrc.split("/");
  return rest.length > 0 ? first! : first!.replace(/\.(ts|js)$/, "");
}

const importPattern =
  /(?:^|\n)\s*(?:import|export)\b[^"'`;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** Every relative import of a source text, as written. */
function relativeImports(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(importPattern)) {
    const specifier = match[1] ?? match[2];
    if (specifier?.startsWith(".")) found.push(specifier);
  }
  return found;
}

/** The imports of one file that break the rule, as `file: import (module -> module)`. */
function violationsOf(pathInSrc: string, text: string): string[] {
  const from = moduleOf(pathInSrc);
  const allowed = allowedFor(from);
  return relativeImports(text).flatMap((specifier) => {
    const target = relative(srcDir, resolve(join(srcDir, dirname(pathInSrc)), specifier));
    const to = moduleOf(target);
    if (breaksDatabaseFolders(pathInSrc, target)) {
      return [`src/${pathInSrc}: "${specifier}" (${from} -> ${dirname(target)}, one database's own part)`];
    }
    if (to === from || allowed.has(to)) return [];
    if (platformExceptions.has(`${pathInSrc} -> ${target.replace(/\.js$/, ".ts")}`)) return [];
    return [`src/${pathInSrc}: "${specifier}" (${from} -> ${to})`];
  });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(srcDir, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

describe("the layering rule", () => {
  it("holds for every import in src/", () => {
    const violations = sourceFiles("").flatMap((path) =>
      violationsOf(path, readFileSync(join(srcDir, path), "utf8")),
    );
    expect(violations).toEqual([]);
  });

  it("puts every folder and top-level file of src/ in a layer", () => {
    const modules = new Set(sourceFiles("").map(moduleOf));
    for (const module of modules) expect(() => allowedFor(module)).not.toThrow();
  });

  it("refuses the platform importing a feature, and a feature importing another unlisted", () => {
    expect(violationsOf("http/server.ts", 'import { jobRoutes } from "../jobs/job-routes.js";')).toEqual([
      'src/http/server.ts: "../jobs/job-routes.js" (http -> jobs)',
    ]);
    expect(violationsOf("keys/api-keys.ts", 'import type { X } from "../jobs/x.js";')).toHaveLength(1);
    expect(violationsOf("domain/pricing.ts", 'export { y } from "../store/tables.js";')).toHaveLength(1);
    expect(
      violationsOf("store/database.ts", 'const m = await import("../pipeline/worker.js");'),
    ).toHaveLength(1);
  });

  it("counts the CLI's folder as the composition root, which no feature may import", () => {
    expect(violationsOf("cli/admin-commands.ts", 'import { x } from "../workspaces/workspaces.js";')).toEqual(
      [],
    );
    expect(violationsOf("cli/dispatch.ts", 'const c = await import("../config.js");')).toEqual([]);
    expect(
      violationsOf("workspaces/workspaces.ts", 'import { UsageError } from "../cli/command.js";'),
    ).toEqual(['src/workspaces/workspaces.ts: "../cli/command.js" (workspaces -> cli)']);
  });

  it("lets a feature use the platform, the shared features and the features listed for it", () => {
    const text = [
      'import { ApiError } from "../http/api-errors.js";',
      'import type { Caller } from "../access/authentication.js";',
      'import {\n  resolveSchema,\n} from "../schemas/saved-schemas.js";',
      'import { x } from "./job-read.js";',
    ].join("\n");
    expect(violationsOf("jobs/job-submission.ts", text)).toEqual([]);
    expect(relativeImports(text)).toHaveLength(4);
  });

  it("keeps each database's own parts to the composition, store/ and that database's access check", () => {
    const sqliteOpener = 'import type { SqliteStore } from "../store/sqlite/open-sqlite.js";';
    expect(violationsOf("jobs/job-submission.ts", sqliteOpener)).toEqual([
      'src/jobs/job-submission.ts: "../store/sqlite/open-sqlite.js" (jobs -> store/sqlite, one database\'s own part)',
    ]);
    expect(violationsOf("access/rate-limiter.ts", sqliteOpener)).toHaveLength(1);
    expect(violationsOf("http/server.ts", sqliteOpener)).toHaveLength(1);
    expect(violationsOf("access/sqlite-access-check.ts", sqliteOpener)).toEqual([]);
    expect(
      violationsOf(
        "access/sqlite-access-check.ts",
        'import { x } from "../store/postgres/open-postgres.js";',
      ),
    ).toHaveLength(1);
    expect(violationsOf("app/services.ts", sqliteOpener)).toEqual([]);
    expect(
      violationsOf("store/database.ts", 'import { openSqlite } from "./sqlite/open-sqlite.js";'),
    ).toEqual([]);
    expect(
      violationsOf("store/sqlite/open-sqlite.ts", 'import { x } from "../postgres/named-statements.js";'),
    ).toHaveLength(1);
  });
});
