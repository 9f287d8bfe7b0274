// The set-up every dashboard suite shares: one server and one Chromium for the file; for each test a fresh
// browsing context and page, whose console must end the test without an error.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import type { Config } from "../../src/config.js";
import { launchChromium, newBrowsing } from "./browser.js";
import { watchConsole } from "./dashboard-pages.js";
import { type DashboardServer, startDashboardServer } from "./dashboard-server.js";

export interface DashboardSuite {
  readonly server: DashboardServer;
  readonly browser: Browser;
  /** The current test's browsing context and page, new for each test. */
  readonly context: BrowserContext;
  readonly page: Page;
  /** What the current test's page wrote to its console as errors, and the API refusals it logged. */
  readonly console: ReturnType<typeof watchConsole>;
}

/**
 * Registers the suite's hooks; read the fields inside tests and hooks, once they have run. `config`:
 * settings beyond the suites' own, read when the server starts (after hooks registered before this call).
 */
export function useDashboardSuite(config: () => Partial<Config> = () => ({})): DashboardSuite {
  const suite = {} as { -readonly [Field in keyof DashboardSuite]: DashboardSuite[Field] };
  beforeAll(async () => {
    [suite.server, suite.browser] = await Promise.all([startDashboardServer(config()), launchChromium()]);
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.close();
  });
  beforeEach(async () => {
    suite.context = await newBrowsing(suite.browser);
    suite.page = await suite.context.newPage();
    suite.console = watchConsole(suite.page);
  });
  afterEach(async () => {
    expect(suite.console.errors, "console errors").toEqual([]);
    await suite.context.close();
  });
  return suite;
}
