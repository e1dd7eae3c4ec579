import type { Browser, Page } from "playwright-core";

import { checkLayout, settled } from "./browser";
import type { UntypedJson } from "./untyped-json";

/**
 * Navigation that waits until the page's data is on screen (see settled), then checks the
 * page's layout at a laptop's and a phone's width (checkLayout: screenshots, and a failure when
 * the page scrolls sideways) the first time a suite reaches that kind of page.
 */
export async function visit(target: Page, url: string): Promise<void> {
  await target.goto(url);
  await settled(target);
  await checkLayout(target);
}

export async function arrive(target: Page, url: RegExp): Promise<void> {
  await target.waitForURL(url);
  await settled(target);
  await checkLayout(target);
}

export async function reload(target: Page): Promise<void> {
  await target.reload();
  await settled(target);
  await checkLayout(target);
}

export async function signIn(
  target: Page,
  consoleUrl: string,
  who: { email: string; password: string },
): Promise<void> {
  await visit(target, `${consoleUrl}/sign-in`);
  await target.getByLabel("Email").fill(who.email);
  await target.getByLabel("Password").fill(who.password);
  await target.getByRole("button", { name: "Sign in" }).click();
  await arrive(target, /\/organizations$/);
}

/** A call to the partner REST API (`/v1`) with a key, as a lender's backend makes it. */
export async function restCall(
  apiUrl: string,
  path: string,
  init: RequestInit & { key?: string } = {},
): Promise<{ status: number; body: UntypedJson }> {
  const { key, ...rest } = init;
  const response = await fetch(`${apiUrl}${path}`, {
    ...rest,
    headers: {
      "Content-Type": "application/json",
      ...(key ? { Authorization: `Bearer ${key}` } : {}),
      ...(init.headers ?? {}),
    },
  });
  return { status: response.status, body: (await response.json()) as UntypedJson };
}

/**
 * A page of its own in a laptop-sized window, signed in as `who`. Its default timeout is 10 s: a
 * message that never appears fails the test in seconds, not after the suite's timeout.
 */
export async function signedInPage(
  browser: Browser,
  consoleUrl: string,
  who: { email: string; password: string },
): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
  page.setDefaultTimeout(10_000);
  await signIn(page, consoleUrl, who);
  return page;
}
