// The benchmark's switched-off rows (bench/support/switches.ts): each named mechanism measured again with
// its variable at 0, only on the databases it exists on, and only on the endpoints it changes.
import { describe, expect, it } from "vitest";
import { httpEndpoints } from "../../bench/http/http-endpoints.js";
import { mechanismSwitches, switchesNamed } from "../../bench/support/switches.js";
import type { SeededHistory } from "../../bench/support/seed.js";
import { mechanismVariables } from "../../src/mechanism-switches.js";

const history = { handedOverJobId: "job_x", searchPrefix: "job_" } as SeededHistory;

describe("the benchmark's switches", () => {
  it("name every switch the server reads, and no other", () => {
    expect(mechanismSwitches.map((each) => each.variable).sort()).toEqual(
      Object.values(mechanismVariables).sort(),
    );
  });

  it("refuse an unknown name, naming the ones there are", () => {
    expect(() => switchesNamed(["grouped-commits", "faster"])).toThrow(
      /Unknown switch "faster"; the switches are shared-key-checks, named-statements, /,
    );
  });

  it("add a row per endpoint a switch changes, on its database only, served with the switch at 0", () => {
    const switches = switchesNamed(["grouped-commits", "grouped-submissions"]);
    const onSqlite = httpEndpoints("sqlite", history, "{}", switches).filter((e) => e.name.endsWith(" off"));
    expect(onSqlite.map((e) => [e.name, e.settings, e.targetRatio])).toEqual([
      ["POST /v1 (10 videos), grouped-commits off", { VIDROWS_GROUPED_COMMITS: "0" }, null],
    ]);
    const onPostgres = httpEndpoints("postgres", history, "{}", switches).filter((e) =>
      e.name.endsWith(" off"),
    );
    expect(onPostgres.map((e) => [e.name, e.method, e.settings])).toEqual([
      ["POST /v1 (10 videos), grouped-submissions off", "POST", { VIDROWS_GROUPED_SUBMISSIONS: "0" }],
    ]);
  });

  it("keep the default rows and the 'queries run' rows as they were", () => {
    const names = httpEndpoints("sqlite", history, "{}").map((e) => e.name);
    expect(names).toHaveLength(11);
    expect(names.filter((name) => name.endsWith(", queries run"))).toHaveLength(5);
    expect(names.at(-1)).toBe("POST /v1 (10 videos)");
  });
});
