import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";

/** Debian's Chromium (installed by scripts/test.sh when missing), driven by playwright-core. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: scripts/test.sh installs Debian's chromium package`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/**
 * Waits until the page shows what the staff member would read: no loading fallback on screen
 * and no streamed segment still hidden. Next streams a page's data after its shell, and React
 * reveals it a moment later; until then the content sits in a hidden element, where
 * `textContent()` and `count()` would find it although nobody can see it.
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForLoadState("load");
  await page.waitForFunction(() => !document.querySelector(".loading") && !document.querySelector('div[hidden][id^="S:"]'));
}

/** Screenshots of the main pages, for people reviewing a change (git-ignored). */
export const SCREENSHOTS = path.resolve(import.meta.dirname, "../../test-results/screenshots");

export async function screenshot(page: Page, name: string): Promise<void> {
  await settled(page);
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
