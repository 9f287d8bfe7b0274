// A plugin for tests of concurrent statements: counts the statements run through it, and can hold their
// answers back, so that a test decides what happens while a statement is on its way.
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from "kysely";

export /** Counts the statements run through it, and while held keeps their answers back until released. */
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
