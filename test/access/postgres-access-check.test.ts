// PostgreSQL's key check: one statement answers the requests of a key that arrived before it was sent, and no other.
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresKeyCheck } from "../../src/access/postgres-access-check.js";
import { hashApiKey } from "../../src/domain/api-key-material.js";
import type { Store } from "../../src/store/database.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

/** Counts the statements run through it, and while held keeps their answers back until released. */
class HeldAnswers implements KyselyPlugin {
  statements = 0;
  private held: (() => void)[] | undefined;
  private onHeld: (() => void) | undefined;

  hold(): void {
    this.held = [];
  }

  /** Resolves once an answer is being held back: its statement has run. */
  answerHeld(): Promise<void> {
    if (this.held?.length) return Promise.resolve();
    return new Promise((resolve) => {
      this.onHeld = resolve;
    });
  }

  release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const answer of held) answer();
  }

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.statements++;
    if (this.held) {
      const held = new Promise<void>((answer) => this.held?.push(answer));
      this.onHeld?.();
      await held;
    }
    return result;
  }
}

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
