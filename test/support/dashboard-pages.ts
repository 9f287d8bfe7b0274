// Helpers for driving the dashboard in a page: signing in, watching the console, screenshots at both
// widths, and the axe-core accessibility check.
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect } from "vitest";
import type { Page } from "playwright-core";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
export const screenshotFolder = new URL("../../test-output/dashboard/", import.meta.url);
mkdirSync(screenshotFolder, { recursive: true });

/** Bounded waits for anything the page must show (the worker and the browser share two cores). */
export const shows = { timeout: 20_000 } as const;

/**
 * What the page wrote to its console as errors, and its uncaught exceptions. Chromium also logs every
 * API answer of 4xx as "Failed to load resource"; those are kept apart, by status, for the tests that
 * provoke one to check.
 */
export function watchConsole(page: Page): { errors: string[]; refusedStatuses: number[] } {
  const watched = { errors: [] as string[], refusedStatuses: [] as number[] };
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const refused = /^Failed to load resource: the server responded with a status of (\d{3})/.exec(
      message.text(),
    );
    if (refused && message.location().url.includes("/v1")) watched.refusedStatuses.push(Number(refused[1]));
    else watched.errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on("pageerror", (error) => watched.errors.push(`uncaught: ${error.message}`));
  return watched;
}

export async function signIn(page: Page, baseUrl: string, key: string): Promise<void> {
  await page.goto(`${baseUrl}/dashboard`);
  await page.getByLabel("API key").fill(key);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Overview", level: 1 }).waitFor(shows);
}

/** Serious and critical axe-core violations on the page as it is now (none expected). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (a <script> would be refused).
  await page.evaluate(axeSource);
  const results: any = await page.evaluate(`axe.run(document, { resultTypes: ["violations"] })`);
  return (results.violations as any[])
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((n: any) => n.target).join("; ")})`,
    );
}

/**
 * Checks the page as people meet it: no serious accessibility violation, and at 390 px wide nothing
 * wider than the screen; saves a screenshot at 1280 and at 390 px (test-output/dashboard/<name>-<width>.png).
 */
export async function checkPage(page: Page, name: string): Promise<void> {
  expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
  await page.screenshot({ path: new URL(`${name}-1280.png`, screenshotFolder).pathname, fullPage: true });
  const wide = page.viewportSize() ?? { width: 1280, height: 900 };
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    // The elements reaching past the screen's right edge, named, so a failure says what to fix.
    const tooWide = await page.evaluate(`[...document.querySelectorAll("body *")]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
      .filter((element) => !element.closest(".table-scroll") || element.matches(".table-scroll"))
      .slice(0, 5)
      .map((element) => element.tagName.toLowerCase() + "." + element.className)`);
    expect(tooWide, `${name} is wider than a 390 px screen`).toEqual([]);
    const sideways = await page.evaluate("document.documentElement.scrollWidth - window.innerWidth");
    expect(sideways as number, `${name} scrolls sideways at 390 px`).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page), `axe on ${name} at 390 px`).toEqual([]);
    await page.screenshot({ path: new URL(`${name}-390.png`, screenshotFolder).pathname, fullPage: true });
  } finally {
    await page.setViewportSize(wide);
  }
}
