import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";

/** Debian's Chromium (installed by scripts/test.sh when missing), driven by playwright-core. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}: scripts/test.sh installs Debian's chromium package`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
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
  await page.waitForFunction(
    () => !document.querySelector(".loading") && !document.querySelector('div[hidden][id^="S:"]'),
  );
}

/** Screenshots of the main pages, for people reviewing a change (git-ignored). */
export const SCREENSHOTS = path.resolve(import.meta.dirname, "../../test-results/screenshots");

export async function screenshot(page: Page, name: string): Promise<void> {
  await settled(page);
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** The widths every console page must fit: a laptop and a phone (issue 24, item 12). */
export const LAYOUT_WIDTHS = [1280, 390] as const;

// One check per kind of page and test file: ids in a path make no new kind of page.
const checkedLayouts = new Set<string>();

/** `/integrations/int_4f…/users/lo-1` → `integrations-id-users-id`. */
export function pageKind(pathname: string): string {
  const parts = pathname
    .split("/")
    .filter(Boolean)
    .map((part) => (/\d|_|%/.test(part) ? "id" : part));
  return parts.join("-") || "home";
}

/**
 * At each of LAYOUT_WIDTHS: a full-page screenshot (`layout-<kind>-<width>.png`) and a failure
 * naming the elements that stick out when the page is wider than the window, so nothing on a
 * console page scrolls sideways on a phone (tables scroll inside their own box). The page's own
 * viewport is put back afterwards.
 */
export async function checkLayout(page: Page): Promise<void> {
  const kind = pageKind(new URL(page.url()).pathname);
  if (checkedLayouts.has(kind)) return;
  checkedLayouts.add(kind);
  const original = page.viewportSize();
  try {
    for (const width of LAYOUT_WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await settled(page);
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SCREENSHOTS, `layout-${kind}-${width}.png`), fullPage: true });
      const overflow = await page.evaluate(() => {
        const limit = document.documentElement.clientWidth;
        if (document.documentElement.scrollWidth <= limit) return null;
        // Inside a box that scrolls or clips (a table's, the header's tabs), nothing reaches the page.
        const clipped = (element: Element): boolean => {
          for (let parent = element.parentElement; parent; parent = parent.parentElement) {
            if (getComputedStyle(parent).overflowX !== "visible") return true;
          }
          return false;
        };
        // How far right an element reaches, counting its own text that runs past its box.
        const reach = (element: Element): number => {
          const box = element.getBoundingClientRect();
          if (getComputedStyle(element).overflowX !== "visible") return box.right;
          return Math.max(box.right, box.left + element.scrollWidth);
        };
        const past = (element: Element): boolean => reach(element) > limit + 1 && !clipped(element);
        // The innermost elements past the window's edge: what makes the page scroll sideways.
        const culprits = [...document.querySelectorAll("body *")].filter(
          (element) => past(element) && ![...element.children].some(past),
        );
        return {
          width: document.documentElement.scrollWidth,
          culprits: culprits
            .slice(0, 5)
            .map(
              (element) =>
                `${element.tagName.toLowerCase()}${[...element.classList].map((name) => `.${name}`).join("")}`,
            ),
        };
      });
      if (overflow)
        throw new Error(
          `${page.url()} at ${width} px scrolls sideways (${overflow.width} px wide): ${overflow.culprits.join(", ")}`,
        );
      if (width === LAYOUT_WIDTHS[0]) {
        // On a laptop the console's header is one row of one-line parts, every tab in sight (sign-in pages have none).
        const header = await page.evaluate(() => {
          const parts = [...document.querySelectorAll(".site-header > *")];
          if (parts.length === 0) return null;
          // One row: every part starts above the point where the first of them ends.
          const boxes = parts.map((part) => part.getBoundingClientRect());
          const oneRow = Math.max(...boxes.map((box) => box.top)) < Math.min(...boxes.map((box) => box.bottom));
          const line = (element: Element | null) =>
            element ? parseFloat(getComputedStyle(element).lineHeight) || 24 : 0;
          const wrapped = [".brand", ".who .button"].filter((selector) => {
            const element = document.querySelector(`.site-header ${selector}`);
            return element !== null && element.getBoundingClientRect().height > line(element) * 1.5 + 16;
          });
          // Every section's tab in sight: the strip may scroll, but not hide a section on a laptop.
          const strip = document.querySelector(".site-header .tabs")?.getBoundingClientRect();
          const hidden = strip
            ? [...document.querySelectorAll(".site-header .tabs a")]
                .filter((tab) => {
                  const box = tab.getBoundingClientRect();
                  return box.left < strip.left - 1 || box.right > strip.right + 1;
                })
                .map((tab) => tab.textContent ?? "")
            : [];
          return { oneRow, wrapped, hidden };
        });
        if (header && (!header.oneRow || header.wrapped.length > 0 || header.hidden.length > 0)) {
          throw new Error(
            `${page.url()} at ${width} px: the header is ${header.oneRow ? "one row" : "more than one row"}${header.wrapped.length ? `; wrapped: ${header.wrapped.join(", ")}` : ""}${header.hidden.length ? `; tabs out of sight: ${header.hidden.join(", ")}` : ""}`,
          );
        }
      }
    }
  } finally {
    if (original) await page.setViewportSize(original);
  }
}
