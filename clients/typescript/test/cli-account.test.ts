// The client CLI's usage, schemas, keys and webhooks commands against the real server (SQLite and
// PostgreSQL); help for every command; exit codes per kind of failure; and the built bin as a process.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../../../test/support/databases.js";
import { startTestServer, type TestServer } from "../../../test/support/test-server.js";
import { clientCommands } from "../src/cli/run-client-cli.js";
import { printed, runCli } from "./cli-support.js";

const run = promisify(execFile);

describe("vidrows-client help and usage errors", () => {
  it("gives every command its own --help with usage and examples", async () => {
    for (const command of clientCommands) {
      const help = await runCli("http://127.0.0.1:1", undefined, [...command.name.split(" "), "--help"]);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`Usage: vidrows-client ${command.name}`);
      expect(help.stdout).toContain(`Examples:\n  vidrows-client ${command.name.split(" ")[0]}`);
      const viaHelp = await runCli("http://127.0.0.1:1", undefined, ["help", ...command.name.split(" ")]);
      expect(viaHelp.stdout).toBe(help.stdout);
    }
    const top = await runCli("http://127.0.0.1:1", undefined, ["--help"]);
    expect(top.stdout).toContain("Exit codes:");
    expect((await runCli("http://127.0.0.1:1", undefined, ["webhooks", "-h"])).stdout).toContain(
      "webhooks enable",
    );
  });

  it("answers unknown commands and options with exit 2 and a message of its own", async () => {
    const unknown = await runCli("http://127.0.0.1:1", "k", ["jobs", "pause", "job_1"]);
    expect(unknown).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown command "jobs pause"'),
    });
    const option = await runCli("http://127.0.0.1:1", "k", ["usage", "--frobnicate"]);
    expect(option).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("Unknown option --frobnicate for usage"),
    });
    expect((await runCli("http://127.0.0.1:1", "k", [])).code).toBe(2);
  });

  it("exits 3 when the server cannot be reached", async () => {
    const unreachable = await runCli("http://127.0.0.1:9", "vr_test_x", ["usage"]);
    expect(unreachable.code).toBe(3);
    expect(unreachable.stderr).toMatch(/^error: network_error: Could not reach/);
  });
});

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(
    `vidrows-client account commands on ${dialectTitle(dialect)}`,
    () => {
      let server: TestServer;
      let folder: string;
      beforeAll(async () => {
        server = await startTestServer(dialect.name, {}, { work: false });
        folder = mkdtempSync(join(tmpdir(), "vidrows-cli-"));
      });
      afterAll(async () => {
        await server?.close();
        rmSync(folder, { recursive: true, force: true });
      });
      const cli = (key: string, ...argv: string[]) => runCli(server.url, key, argv);

      it("reads usage and sets the hard cap", async () => {
        const { key } = await server.workspace();
        expect(printed(await cli(key, "usage")).plan.id).toBe("pro");
        expect(printed(await cli(key, "usage", "--hard-cap", "40")).credits.hard_cap).toBe(40);
        expect(printed(await cli(key, "usage", "--hard-cap", "none")).credits.hard_cap).toBeNull();
        expect((await cli(key, "usage", "--hard-cap", "lots")).code).toBe(2);
      });

      it("creates, lists, reads and publishes schemas", async () => {
        const { key } = await server.workspace();
        const created = printed(
          await cli(key, "schemas", "create", "--name", "goods", "--columns", "product,price"),
        );
        const file = join(folder, `${dialect.name}-template.json`);
        writeFileSync(file, JSON.stringify({ template: { product: "what is sold" } }));
        expect(printed(await cli(key, "schemas", "publish", created.id, "--schema", file)).version).toBe(2);
        expect(printed(await cli(key, "schemas", "get", created.id)).versions).toHaveLength(2);
        expect(printed(await cli(key, "schemas", "list")).data[0].label).toBe("goods-v2");
        const taken = await cli(key, "schemas", "create", "--name", "goods", "--columns", "a");
        expect(taken).toMatchObject({
          code: 1,
          stderr: expect.stringContaining("error: schema_name_taken (name):"),
        });
        expect((await cli(key, "schemas", "create", "--name", "x")).code).toBe(2);
      });

      it("creates, lists and revokes keys", async () => {
        const { key } = await server.workspace();
        const created = printed(await cli(key, "keys", "create", "--label", "ci", "--environment", "test"));
        expect(created.key).toMatch(/^vr_test_/);
        expect(printed(await cli(key, "keys", "list")).data.map((k: any) => k.id)).toContain(created.id);
        expect(printed(await cli(key, "keys", "revoke", created.id))).toEqual({
          id: created.id,
          revoked: true,
        });
        const refused = await cli(created.key, "usage");
        expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining("error: unauthorized:") });
      });

      it("creates, disables, enables, lists and deletes webhook endpoints", async () => {
        const { key } = await server.workspace();
        const created = printed(
          await cli(key, "webhooks", "create", "--url", "https://example.com/h", "--events", "job.failed"),
        );
        expect(created.secret).toMatch(/^whsec_/);
        expect(printed(await cli(key, "webhooks", "disable", created.id)).disabled).toBe(true);
        expect(printed(await cli(key, "webhooks", "enable", created.id)).disabled).toBe(false);
        expect(printed(await cli(key, "webhooks", "list")).data[0]).toMatchObject({
          id: created.id,
          events: ["job.failed"],
        });
        expect(printed(await cli(key, "webhooks", "attempts", created.id)).data).toEqual([]);
        expect((await cli(key, "webhooks", "resend", created.id, "dlv_x")).code).toBe(1);
        expect(printed(await cli(key, "webhooks", "delete", created.id))).toEqual({
          id: created.id,
          deleted: true,
        });
        expect(printed(await cli(key, "webhooks", "list")).data).toEqual([]);
        expect(
          (await cli(key, "webhooks", "create", "--url", "https://e.com", "--events", "job.started")).code,
        ).toBe(2);
      });

      it("runs as the built vidrows-client bin, with the key and address from the environment", async () => {
        const { key } = await server.workspace();
        const bin = new URL("../bin/vidrows-client.js", import.meta.url).pathname;
        const env = { ...process.env, VIDROWS_API_KEY: key, VIDROWS_BASE_URL: server.url };
        const { stdout } = await run(process.execPath, [bin, "usage", "--json"], { env });
        expect(JSON.parse(stdout).plan.id).toBe("pro");
        const failed = await run(process.execPath, [bin, "schemas", "get", "sch_missing"], { env }).catch(
          (e: any) => e,
        );
        expect(failed.code).toBe(1);
        expect(failed.stderr).toMatch(/^error: schema_not_found/);
        const { stdout: viaFlags } = await run(
          process.execPath,
          [bin, "keys", "list", "--api-key", key, "--base-url", server.url, "--json"],
          { env: { ...process.env, VIDROWS_API_KEY: "", VIDROWS_BASE_URL: "" } },
        );
        expect(JSON.parse(viaFlags).data).toHaveLength(1);
      });
    },
  );
}
