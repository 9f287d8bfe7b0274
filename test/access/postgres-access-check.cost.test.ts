// Cost: PostgreSQL's key check answers the requests of a key that arrive while it is on its way with one statement.
import { describe, expect, it } from "vitest";
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
  },
);
