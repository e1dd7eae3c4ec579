import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { launchBrowser } from "../support/browser";
import { signIn, visit } from "../support/console-pages";
import { startRunCommand, type RunningService } from "../support/run-command";

/**
 * The run command hands the console its ADMIN_FORWARDING_KEY, so the API counts a sign-in
 * through the console under the visitor's address, which it believes only signed. Browser and
 * console share this machine's address, so the console is put behind a proxy on this machine
 * (TRUST_PROXY=127.0.0.1, which the API is given too) and the browser speaks as that proxy.
 */
let service: RunningService;
let browser: Browser;
const ADMIN = { email: "ava@example.com", password: "visitor admin 1" };

beforeAll(async () => {
  service = await startRunCommand({ TRUST_PROXY: "127.0.0.1" });
  await service.cli("staff:create", "--email", ADMIN.email, "--password", ADMIN.password, "--role", "admin");
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

describe("the visitor's address through the run command", () => {
  it("a sign-in through the console is audited under the visitor's address, not the console's", async () => {
    const context = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.50" } });
    const page = await context.newPage();
    await visit(page, `${service.consoleUrl}/sign-in`);
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator("p.form-error").textContent()).resolves.toBe("Wrong email or password.");
    await signIn(page, service.consoleUrl, ADMIN);
    await visit(page, `${service.consoleUrl}/audit`);
    const failed = page.locator("table.audit tr", { hasText: "staff.sign_in_failed" });
    await expect(failed.textContent()).resolves.toContain("203.0.113.50");
    await context.close();
  });
});
