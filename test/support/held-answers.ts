// PostgreSQL's access check under a test's control: a plugin that counts the statements run through it
// and can hold their answers back, so that a test decides what happens while a statement is on its way.
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from "kysely";
import { afterAll, beforeAll, expect } from "vitest";
import { PostgresAccessCheck } from "../../src/access/postgres-access-check.js";
import { startTestServer, type TestServer } from "./test-server.js";

/** Counts the statements run through it, and while held keeps their answers back until released. */
export class HeldAnswers implements KyselyPlugin {
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

/** PostgreSQL's access check over a test server's store, its statements counted and held by `answers`. */
export interface HeldAccessCheck {
  readonly server: TestServer;
  readonly answers: HeldAnswers;
  readonly keyCheck: PostgresAccessCheck;
  /** A new key whose last use is recorded already, so that a check of it is its one statement. */
  usedKey(): Promise<string>;
}

/** Registers the hooks that start a PostgreSQL test server and the access check over it, and stop them. */
export function useHeldAccessCheck(): HeldAccessCheck {
  const rig = {
    async usedKey() {
      const { key } = await rig.server.workspace("pro");
      expect((await rig.keyCheck.admit(key, Date.now())).caller).not.toBeNull();
      return key;
    },
  } as { -readonly [Field in keyof HeldAccessCheck]: HeldAccessCheck[Field] };
  beforeAll(async () => {
    rig.server = await startTestServer("postgres");
    rig.answers = new HeldAnswers();
    const opened = rig.server.app.store;
    if (opened.dialect !== "postgres") throw new Error("The test server was asked for PostgreSQL.");
    const store = { ...opened, db: opened.db.withPlugin(rig.answers) };
    rig.keyCheck = new PostgresAccessCheck(store, rig.server.app.config.plans);
  });
  afterAll(async () => {
    await rig.server?.close();
  });
  return rig;
}
