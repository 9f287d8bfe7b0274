// Debian's Chromium driven by playwright-core, for the dashboard's suites: found on this machine, never
// downloaded. Without it those suites skip and say why; with VIDROWS_REQUIRE_BROWSER=1 (CI) they fail.
import { existsSync } from "node:fs";
import { type Browser, type BrowserContext, chromium } from "playwright-core";

export const chromiumPath = process.env.VIDROWS_CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Why the browser suites skip, or null when they run. */
export const browserSkipReason: string | null = existsSync(chromiumPath)
  ? null
  : `no Chromium at ${chromiumPath} (install Debian's package: apt-get install chromium)`;

if (browserSkipReason !== null && process.env.VIDROWS_REQUIRE_BROWSER === "1") {
  throw new Error(`A browser is required (VIDROWS_REQUIRE_BROWSER=1) but there is ${browserSkipReason}.`);
}
if (browserSkipReason !== null) console.warn(`[vidrows tests] browser suites SKIPPED: ${browserSkipReason}`);

/** `describe` title that says when the browser suites are skipped and why. */
export function browserTitle(title: string): string {
  return browserSkipReason ? `${title} (skipped: ${browserSkipReason})` : title;
}

/** Headless Chromium with a fresh profile of its own (playwright-core makes one per launch). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  });
}

/** The settings every dashboard test browses with: a known locale and a time zone other than UTC. */
export const browsingSettings = { locale: "en-US", timezoneId: "Asia/Kolkata" } as const;

export function newBrowsing(browser: Browser, width = 1280): Promise<BrowserContext> {
  return browser.newContext({ ...browsingSettings, viewport: { width, height: 900 } });
}
