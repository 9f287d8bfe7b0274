// PostgreSQL's key check, shared by the requests of a key that arrive together: it answers none that arrived
// after it was sent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresKeyCheck } from "../../src/access/postgres-access-check.js";
import { hashApiKey } from "../../src/domain/api-key-material.js";
import type { Store } from "../../src/store/database.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { HeldAnswers } from "../support/held-answers.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const postgres = dialects.find((d) => d.name === "postgres");

describe.skipIf(!postgres || postgres.skipReason !== null)(
  `the key check shared by concurrent requests on ${postgres ? dialectTitle(postgres) : "postgres"}`,
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

    it("refuses a request that arrived after its key was revoked, though a check sent before comes back live", async () => {
      const key = await usedKey();
      answers.hold();
      const before = keyCheck.check(key, Date.now());
      // The check above has read the key, live; its answer is still on its way when the key is revoked.
      await answers.answerHeld();
      await server.app.store.db
        .updateTable("api_keys")
        .set({ revoked_at: Date.now() })
        .where("key_hash", "=", hashApiKey(key))
        .execute();
      const after = keyCheck.check(key, Date.now());
      answers.release();
      expect((await before)?.caller).toBeDefined();
      expect(await after).toBeNull();
    });
  },
);
