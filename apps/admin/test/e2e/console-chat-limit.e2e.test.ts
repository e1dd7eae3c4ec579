import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { launchBrowser, screenshot } from "../support/browser";
import { reload, signedInPage, signIn, visit } from "../support/console-pages";
import { startRunCommand, type RunningService } from "../support/run-command";
import type { UntypedJson } from "../support/untyped-json";

/**
 * The per-user chat limit on an integration's settings page (issue 21, item 4): shown to
 * everyone, set and reset by admins within its bounds, audited; the CLI reads the same value.
 */
let service: RunningService;
let browser: Browser;
let page: Page;
const ADMIN = { email: "cleo@example.com", password: "chat limit admin 1" };
const VIEWER = { email: "vic@example.com", password: "chat limit viewer 1" };
let orgId = "";
let integrationId = "";

const cli = async <T = UntypedJson>(...args: string[]) => (await service.cli(...args)) as T;
const shown = () => page.locator("[data-chat-answer-limit]").textContent();
const field = () => page.getByLabel("Answers per user per minute");
const save = () => page.getByRole("button", { name: "Save chat limit" }).click();

beforeAll(async () => {
  service = await startRunCommand();
  await service.cli("staff:create", "--email", ADMIN.email, "--password", ADMIN.password, "--role", "admin");
  await service.cli("staff:create", "--email", VIEWER.email, "--password", VIEWER.password, "--role", "viewer");
  orgId = (await cli<{ id: string }>("org:create", "--name", "Chat Limit Lending")).id;
  integrationId = (await cli<{ id: string }>("integration:create", "--org", orgId, "--slug", "acme-los")).id;
  browser = await launchBrowser();
  page = await signedInPage(browser, service.consoleUrl, ADMIN);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

describe("chat answers per user on the integration's settings page", () => {
  it("shows the default, refuses values out of bounds beside the field, saves one, and returns to the default; the audit log and the CLI agree", async () => {
    await visit(page, `${service.consoleUrl}/integrations/${integrationId}/settings`);
    expect(await shown()).toBe("20 answers per minute for each user (the service default).");
    expect(await field().inputValue()).toBe("");

    await field().fill("601");
    await save();
    await expect
      .poll(() => page.locator('[data-field-error="chatAnswersPerUser"]').textContent())
      .toBe("Enter a number of at most 600.");
    await field().fill("0");
    await save();
    await expect
      .poll(() => page.locator('[data-field-error="chatAnswersPerUser"]').textContent())
      .toBe("A whole number of answers per minute, or empty for the default.");
    expect(await shown()).toBe("20 answers per minute for each user (the service default).");

    await field().fill("12");
    await save();
    await page.locator(".form-ok", { hasText: "Chat limit saved: 12 answers per minute for each user." }).waitFor();
    await expect
      .poll(shown)
      .toBe("12 answers per minute for each user (set for this integration; the service default is 20).");
    await reload(page);
    expect(await field().inputValue()).toBe("12");
    await screenshot(page, "chat-limit-set");
    const listed = await cli<{ integrations: Array<{ chat_answers_per_user_per_minute: number | null }> }>(
      "integration:list",
      "--org",
      orgId,
    );
    expect(listed.integrations[0]?.chat_answers_per_user_per_minute).toBe(12);

    await field().fill("");
    await save();
    await page.locator(".form-ok", { hasText: "Chat limit saved: the service default applies." }).waitFor();
    await expect.poll(shown).toBe("20 answers per minute for each user (the service default).");

    await visit(page, `${service.consoleUrl}/audit?action=integration.chat_answer_limit`);
    const rows = await page.locator("table.audit tbody tr").allTextContents();
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toContain("Changed the chat answers per user");
    expect(rows[1]).toContain("12");
  });

  it("a viewer sees the limit but no form", async () => {
    await cli("integration:update", "--org", orgId, "--slug", "acme-los", "--chat-answers-per-user", "7");
    const viewer = await (await browser.newContext()).newPage();
    viewer.setDefaultTimeout(10_000);
    await signIn(viewer, service.consoleUrl, VIEWER);
    await visit(viewer, `${service.consoleUrl}/integrations/${integrationId}/settings`);
    expect(await viewer.locator("[data-chat-answer-limit]").textContent()).toBe(
      "7 answers per minute for each user (set for this integration; the service default is 20).",
    );
    expect(await viewer.getByRole("button", { name: "Save chat limit" }).count()).toBe(0);
  });
});
