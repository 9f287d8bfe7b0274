// Cost: PostgreSQL's key check answers the requests of a key that arrive while it is on its way with one statement.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresKeyCheck } from "../../src/access/postgres-access-check.js";
import type { Store } from "../../src/store/database.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { HeldAnswers } from "../support/held-answers.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const postgres = dialects.find((d) => d.name === "postgres");

describe.skipIf(!postgres || postgres.skipReason !== null)(
  `Cost: the key check shared by concurrent requests on ${postgres ? dialectTitle(postgres) : "postgres"}`,
  () => {
    let server: TestServer;
    let answers: HeldAnswers;
    let keyCheck: PostgresKeyCheck;
    beforeAll(async () => {
      server = await startTestServer("postgres");
      answers = new HeldAnswers();
      const store: Store = { ...server.app.store, db: server.app.store.db.withPlugin(answers) };
      keyCheck = new PostgresKeyCheck(store, server.app.config.plans);
    });
    afterAll(async () => {
      await server?.close();
    });

    /** A key whose last use is recorded already, so that a check is its one statement. */
    async function usedKey(): Promise<string> {
      const { key } = await server.workspace("pro");
      expect(await keyCheck.check(key, Date.now())).not.toBeNull();
      return key;
    }

    it("answers the requests that arrived while a check was on its way with one more statement", async () => {
      const key = await usedKey();
      answers.statements = 0;
      // Ten requests of one key arrive together: the first is sent at once, the nine others wait for it.
      const first = keyCheck.check(key, Date.now());
      const later = Array.from({ length: 9 }, () => keyCheck.check(key, Date.now()));
      const checks = await Promise.all([first, ...later]);
      expect(checks.every((check) => check?.caller.plan.id === "pro")).toBe(true);
      expect(answers.statements).toBe(2);
    });

    it("sends each request's check on its own with VIDROWS_SHARED_KEY_CHECKS=0, answering each alike", async () => {
      const key = await usedKey();
      const store: Store = { ...server.app.store, db: server.app.store.db.withPlugin(answers) };
      const unshared = new PostgresKeyCheck(store, server.app.config.plans, { shareChecks: false });
      answers.statements = 0;
      const checks = await Promise.all(Array.from({ length: 10 }, () => unshared.check(key, Date.now())));
      expect(checks.every((check) => check?.caller.plan.id === "pro")).toBe(true);
      expect(answers.statements).toBe(10);
    });
  },
);
