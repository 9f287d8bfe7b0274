// The plan table: the built-in plans, and a replacement table whose every bad entry is refused by name.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadPlanTable, parsePlanTable } from "../../src/domain/plans.js";

const good = {
  name: "Team",
  requests_per_minute: 120,
  api_keys: 5,
  webhook_endpoints: 0,
  cycle_allowance: 500,
  videos_per_job: 20,
};

describe("parsePlanTable", () => {
  it("turns a file's entries into plans", () => {
    const table = parsePlanTable({ team: good, "big_co-2": { ...good, name: "Big" } }, "plans.json");
    expect([...table.keys()]).toEqual(["team", "big_co-2"]);
    expect(table.get("team")).toEqual({
      id: "team",
      name: "Team",
      requestsPerMinute: 120,
      apiKeys: 5,
      webhookEndpoints: 0,
      cycleAllowance: 500,
      videosPerJob: 20,
      transcriptionCreditsPerMinute: 2,
      longestVideoMinutes: 720,
      uploadBytes: 1024 * 1024 * 1024,
    });
    expect(Object.isFrozen(table.get("team"))).toBe(true);
  });

  it("takes a plan's upload limit in MiB (1024 when left out, 0 for none) and refuses a bad one", () => {
    const table = parsePlanTable(
      { team: good, none: { ...good, upload_megabytes: 0 }, big: { ...good, upload_megabytes: 5 } },
      "plans.json",
    );
    expect(table.get("team")?.uploadBytes).toBe(1024 * 1024 * 1024);
    expect(table.get("none")?.uploadBytes).toBe(0);
    expect(table.get("big")?.uploadBytes).toBe(5 * 1024 * 1024);
    for (const bad of [-1, 1.5, "5"]) {
      expect(() => parsePlanTable({ team: { ...good, upload_megabytes: bad } }, "plans.json")).toThrow(
        'plan "team" needs "upload_megabytes" as an integer >= 0',
      );
    }
  });

  it("takes a plan's transcription price per minute, 2 when the file leaves it out", () => {
    const table = parsePlanTable(
      { team: good, pricey: { ...good, transcription_credits_per_minute: 5 } },
      "plans.json",
    );
    expect(table.get("team")?.transcriptionCreditsPerMinute).toBe(2);
    expect(table.get("pricey")?.transcriptionCreditsPerMinute).toBe(5);
    for (const bad of [0, 1.5, "3", -1]) {
      expect(() =>
        parsePlanTable({ team: { ...good, transcription_credits_per_minute: bad } }, "plans.json"),
      ).toThrow('plan "team" needs "transcription_credits_per_minute" as an integer >= 1.');
    }
  });

  it("prices a transcribed minute at 2 credits in the built-in plans", () => {
    for (const plan of loadPlanTable(undefined).values()) expect(plan.transcriptionCreditsPerMinute).toBe(2);
  });

  it("refuses a table that is not an object keyed by plan id", () => {
    for (const raw of [null, [], "plans", 3]) {
      expect(() => parsePlanTable(raw, "plans.json")).toThrow(
        /^plans\.json: expected an object keyed by plan id/,
      );
    }
  });

  it("refuses an empty table", () => {
    expect(() => parsePlanTable({}, "plans.json")).toThrow("plans.json: the plan table is empty.");
  });

  it("refuses a plan id that is not lowercase letters, digits, - or _, naming it", () => {
    for (const id of ["Team", "my plan", "", "-lead", "x".repeat(65), "é"]) {
      expect(() => parsePlanTable({ [id]: good }, "plans.json")).toThrow(`plan id "${id}"`);
    }
  });

  it("refuses an entry that is not an object, naming the plan", () => {
    for (const value of [null, "Team", 5]) {
      expect(() => parsePlanTable({ team: value }, "plans.json")).toThrow('plan "team" must be an object');
    }
  });

  it("refuses a missing or empty name, naming the plan", () => {
    const { name: _, ...nameless } = good;
    for (const entry of [nameless, { ...good, name: "" }, { ...good, name: 7 }]) {
      expect(() => parsePlanTable({ team: entry }, "plans.json")).toThrow(
        'plan "team" needs a "name" string',
      );
    }
  });

  const numericFields = [
    "requests_per_minute",
    "api_keys",
    "webhook_endpoints",
    "cycle_allowance",
    "videos_per_job",
  ] as const;
  for (const field of numericFields) {
    it(`refuses a missing, negative, fractional or textual ${field}, naming the plan and the field`, () => {
      const { [field]: _, ...without } = good;
      for (const entry of [
        without,
        { ...good, [field]: -1 },
        { ...good, [field]: 1.5 },
        { ...good, [field]: "5" },
      ]) {
        const attempt = () => parsePlanTable({ ok: good, team: entry }, "plans.json");
        expect(attempt).toThrow(`plans.json: plan "team" needs "${field}" as an integer >= 0.`);
      }
    });
  }

  it("refuses a plan allowing no requests or no videos per job", () => {
    for (const field of ["requests_per_minute", "videos_per_job"]) {
      expect(() => parsePlanTable({ team: { ...good, [field]: 0 } }, "plans.json")).toThrow(
        'plan "team" needs requests_per_minute and videos_per_job of at least 1',
      );
    }
  });

  it("accepts 0 for the allowances that may be 0", () => {
    const table = parsePlanTable(
      { team: { ...good, api_keys: 0, webhook_endpoints: 0, cycle_allowance: 0 } },
      "plans.json",
    );
    expect(table.get("team")?.cycleAllowance).toBe(0);
  });
});

describe("loadPlanTable", () => {
  const dir = mkdtempSync(join(tmpdir(), "vidrows-plans-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("gives the contract's plans when no file is named", () => {
    const table = loadPlanTable(undefined);
    expect([...table.keys()]).toEqual(["free", "pro", "scale"]);
    expect(table.get("free")).toMatchObject({
      name: "Free",
      requestsPerMinute: 60,
      apiKeys: 2,
      webhookEndpoints: 0,
      cycleAllowance: 100,
      videosPerJob: 10,
    });
    expect(table.get("pro")).toMatchObject({ requestsPerMinute: 600, apiKeys: 10, webhookEndpoints: 10 });
    expect(table.get("pro")).toMatchObject({ cycleAllowance: 10_000, videosPerJob: 100 });
    expect(table.get("scale")).toMatchObject({ requestsPerMinute: 6000, apiKeys: 100, webhookEndpoints: 50 });
    expect(table.get("scale")).toMatchObject({ cycleAllowance: 100_000, videosPerJob: 1000 });
  });

  it("reads a file that replaces the table whole", () => {
    const path = join(dir, "plans.json");
    writeFileSync(path, JSON.stringify({ team: good }));
    expect([...loadPlanTable(path).keys()]).toEqual(["team"]);
  });

  it("names VIDROWS_PLANS and the path for a missing file, bad JSON, and a bad entry", () => {
    const missing = join(dir, "nope.json");
    expect(() => loadPlanTable(missing)).toThrow(`VIDROWS_PLANS: cannot read ${missing}`);
    const broken = join(dir, "broken.json");
    writeFileSync(broken, "{ not json");
    expect(() => loadPlanTable(broken)).toThrow(`VIDROWS_PLANS: ${broken} is not valid JSON`);
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ team: { ...good, api_keys: -2 } }));
    expect(() => loadPlanTable(bad)).toThrow(`VIDROWS_PLANS (${bad}): plan "team" needs "api_keys"`);
  });
});
