// Cost: PostgreSQL's key check answers the requests of a key that arrive while it is on its way with one statement.
import { describe, expect, it } from "vitest";
import { PostgresAccessCheck } from "../../src/access/postgres-access-check.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { useHeldAccessCheck } from "../support/held-answers.js";

const postgres = dialects.find((d) => d.name === "postgres");

describe.skipIf(!postgres || postgres.skipReason !== null)(
  `Cost: the key check shared by concurrent requests on ${postgres ? dialectTitle(postgres) : "postgres"}`,
  () => {
    const rig = useHeldAccessCheck();

    it("answers the requests that arrived while a check was on its way with one more statement", async () => {
      const key = await rig.usedKey();
      rig.answers.statements = 0;
      // Ten requests of one key arrive together: the first is sent at once, the nine others wait for it.
      const first = rig.keyCheck.admit(key, Date.now());
      const later = Array.from({ length: 9 }, () => rig.keyCheck.admit(key, Date.now()));
      const checks = await Promise.all([first, ...later]);
      expect(checks.every((check) => check.caller?.plan.id === "pro")).toBe(true);
      expect(rig.answers.statements).toBe(2);
    });

    it("sends each request's check on its own with VIDROWS_SHARED_KEY_CHECKS=0, answering each alike", async () => {
      const key = await rig.usedKey();
      const opened = rig.server.app.store;
      if (opened.dialect !== "postgres") throw new Error("The test server was asked for PostgreSQL.");
      const store = { ...opened, db: opened.db.withPlugin(rig.answers) };
      const unshared = new PostgresAccessCheck(store, rig.server.app.config.plans, { shareChecks: false });
      rig.answers.statements = 0;
      const checks = await Promise.all(Array.from({ length: 10 }, () => unshared.admit(key, Date.now())));
      expect(checks.every((check) => check.caller?.plan.id === "pro")).toBe(true);
      expect(rig.answers.statements).toBe(10);
    });
  },
);
