// Only src/credits writes balances, the ledger and the usage counters, and it imports no feature.
// A textual scan of the source: it sees Kysely builder calls and raw SQL that name the table and the column,
// not a statement whose columns arrive in a variable or SQL assembled at run time.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const src = join(import.meta.dirname, "../../src");
const credits = join(src, "credits");
// Migrations create and alter these tables; they are the schema's history, not writes of money.
const migrations = join(src, "store", "migrations");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The workspace columns of tables.ts that are not credits or usage: everything else is guarded. */
const unguardedWorkspaceColumns = new Set(["id", "name", "plan_id", "created_at", "next_video_priority"]);

function guardedWorkspaceColumns(): string[] {
  const tables = readFileSync(join(src, "store", "tables.ts"), "utf8");
  const body = /export interface WorkspacesTable \{([\s\S]*?)\n\}/.exec(tables)?.[1];
  if (!body) throw new Error("WorkspacesTable not found in src/store/tables.ts");
  const columns = [...body.matchAll(/^\s+(\w+)\??:/gm)].map((m) => m[1] as string);
  return columns.filter((column) => !unguardedWorkspaceColumns.has(column));
}

const guardedTables = ["credit_ledger", "daily_credits", "failure_counts"];
const columns = guardedWorkspaceColumns();

/** Each write the file makes to a guarded table, or to a guarded column of `workspaces`, as `file: excerpt`. */
function guardedWrites(path: string): string[] {
  const text = readFileSync(path, "utf8");
  const name = relative(src, path);
  const found: string[] = [];
  const tables = guardedTables.join("|");
  const builderWrite = new RegExp(
    `(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\\(\\s*["'\`](${tables})\\b`,
    "g",
  );
  const rawWrite = new RegExp(
    `(insert\\s+(or\\s+\\w+\\s+)?into|update|delete\\s+from)\\s+"?(${tables})\\b`,
    "gi",
  );
  for (const m of text.matchAll(builderWrite)) found.push(`${name}: ${m[0]}`);
  for (const m of text.matchAll(rawWrite)) found.push(`${name}: ${m[0]}`);
  // A statement on `workspaces`, to its end (the next `;`), that names a guarded column anywhere.
  const workspaceWrite = /(insertInto|updateTable)\(\s*["'`]workspaces\b|update\s+"?workspaces"?\s+set\b/gi;
  const column = new RegExp(`\\b(${columns.join("|")})\\b`);
  for (const m of text.matchAll(workspaceWrite)) {
    const end = text.indexOf(";", m.index);
    const statement = text.slice(m.index, end === -1 ? undefined : end);
    const named = column.exec(statement);
    if (named) found.push(`${name}: ${m[0]} ... ${named[0]}`);
  }
  return found;
}

describe("the credits module", () => {
  it("guards the credit and usage columns of workspaces, read from tables.ts", () => {
    expect(columns).toEqual(
      expect.arrayContaining([
        "balance",
        "used_this_cycle",
        "hard_cap",
        "cycle_started_at",
        "jobs_queued",
        "jobs_processing",
        "jobs_done",
        "jobs_failed",
        "jobs_with_failures",
        "videos_processed",
      ]),
    );
  });

  it("is the only writer of balances, the ledger, daily credits, failure counts and the usage counters", () => {
    const outside = sourceFiles(src).filter(
      (path) => !path.startsWith(credits) && !path.startsWith(migrations),
    );
    expect(outside.flatMap(guardedWrites)).toEqual([]);
  });

  it("has its writes seen by the same scan (so that an empty answer above means something)", () => {
    const inside = sourceFiles(credits).flatMap(guardedWrites);
    for (const table of guardedTables) expect(inside.join("\n")).toContain(table);
    const writingWorkspaces = new Set(
      inside.filter((write) => /workspaces/.test(write)).map((write) => write.split(":")[0]),
    );
    // (balance-change.ts writes what grants, plan changes and renewals pass it, naming no column itself.)
    expect([...writingWorkspaces].sort()).toEqual([
      "credits/hard-cap.ts",
      "credits/reservation.ts",
      "credits/settlement-charges.ts",
      "credits/usage-counters.ts",
    ]);
  });

  it("imports only domain, store and http (never a feature)", () => {
    for (const path of sourceFiles(credits)) {
      const text = readFileSync(path, "utf8");
      for (const m of text.matchAll(/from\s+["']([^"']+)["']/g)) {
        const specifier = m[1] as string;
        if (!specifier.startsWith(".")) continue;
        expect(`${relative(src, path)} -> ${specifier}`).toMatch(/-> \.\.\/(domain|store|http)\/|-> \.\//);
      }
    }
  });
});
