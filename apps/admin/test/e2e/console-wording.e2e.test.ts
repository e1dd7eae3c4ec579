import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { launchBrowser, screenshot } from "../support/browser";
import { restCall, visit as visitPage } from "../support/console-pages";
import { startRunCommand, type RunningService } from "../support/run-command";

/**
 * Plain words and one way to show errors in the staff console (issue 12): no raw API text on
 * any page, every form's problems beside their fields at once with focus on the first, one
 * outcome message per section (never inside a table row), only the lifecycle actions that
 * fit the user's state, and warnings before an action rather than after it.
 */
let service: RunningService;
let browser: Browser;
let page: Page;
const ADMIN = { email: "wendy@example.com", password: "admin password 1" };
const fixture: { orgId?: string; integrationId?: string; key?: string; keyId?: string } = {};

const rest = (path: string, init: RequestInit & { key?: string } = {}) => restCall(service.apiUrl, path, init);
const visit = (target: Page, url: string) => visitPage(target, `${service.consoleUrl}${url}`);

/** Visible text outside <code> (ids and slugs are shown as code on purpose), one entry per text node. */
async function visibleWords(target: Page): Promise<string[]> {
  return target.evaluate(() => {
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest("code, script, style, template") || !parent.checkVisibility()) continue;
      const text = node.textContent?.trim();
      if (text) texts.push(text);
    }
    return texts;
  });
}

/** API tokens staff should never read as text: field paths, snake_case values, the former product word, spec references. */
const RAW = [
  /wordpress/i,
  /existing_mg|partner_created/,
  /mapping (mapped|pending|failed|unmapped)/,
  /spec section/i,
  /\b[a-z]+_[a-z]+\b/,
  /\b[a-z]+[A-Z][a-z]+\b/,
];

beforeAll(async () => {
  service = await startRunCommand();
  await service.cli("staff:create", "--email", ADMIN.email, "--password", ADMIN.password, "--role", "admin");
  const org = (await service.cli("org:create", "--name", "Wording Lending")) as { id: string };
  fixture.orgId = org.id;
  const integration = (await service.cli(
    "integration:create",
    "--org",
    org.id,
    "--slug",
    "words-los",
    "--alias",
    "words",
  )) as { id: string };
  fixture.integrationId = integration.id;
  const key = (await service.cli(
    "key:create",
    "--org",
    org.id,
    "--name",
    "directory",
    "--scopes",
    "embed:users:read,embed:users:write,embed:users:delete",
  )) as { id: string; key: string };
  fixture.key = key.key;
  fixture.keyId = key.id;
  for (const id of ["lo-1", "lo-2", "lo-3"]) {
    const put = await rest(`/v1/integrations/words-los/users/${id}`, {
      method: "PUT",
      key: key.key,
      body: JSON.stringify({ email: `${id}@example.test` }),
    });
    expect([201, 202]).toContain(put.status);
  }
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
  await visit(page, "/sign-in");
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/organizations$/);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

describe("console wording", () => {
  it("a search the API refuses (a NUL character) is a message on the search page, not the error page", async () => {
    await visit(page, "/search?q=%00");
    const alert = page.locator("p.form-error[role=alert]");
    await expect.poll(() => alert.textContent()).toMatch(/^This search could not be run\. \S/);
    expect(await page.getByText("This page could not be loaded").count()).toBe(0);
    // The header's search box still works from here.
    expect(await page.getByRole("searchbox").count()).toBeGreaterThan(0);
  });

  it("a form with several bad fields shows every message beside its field at once and focuses the first", async () => {
    await visit(page, `/organizations/${fixture.orgId}/keys`);
    await page.getByLabel("Rate limit (requests per minute)").fill("0");
    await page.getByRole("button", { name: "Create key" }).click();
    await page.locator('[data-field-error="name"]').waitFor();
    expect(await page.locator('[data-field-error="scopes"]').textContent()).toBe("Choose at least one scope.");
    expect(await page.locator('[data-field-error="rateLimit"]').textContent()).toBe(
      "Enter at least 1 request per minute, or leave it empty for the service default.",
    );
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe("name");
    // One sentence for the section, beneath the form, not one per field.
    const section = page.locator("section", { has: page.getByRole("heading", { name: "Create an API key" }) });
    expect(await section.locator(".form-error").allTextContents()).toEqual(["Check the fields marked above."]);
    await screenshot(page, "words-key-form-errors");

    // What the API refuses lands beside the field too, in plain words.
    await visit(page, `/organizations/${fixture.orgId}/integrations`);
    await page.getByLabel("Slug").fill("Bad Slug!");
    await page.getByRole("button", { name: "Create integration" }).click();
    const slugError = page.locator('[data-field-error="slug"]');
    await slugError.waitFor();
    expect(await slugError.textContent()).toBe(
      "Use 3 to 64 lowercase letters or digits, starting with a letter, with single - or _ between them.",
    );
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe("slug");
    await page.getByLabel("Slug").fill("words");
    await page.getByRole("button", { name: "Create integration" }).click();
    await expect
      .poll(() => slugError.textContent())
      .toBe("This organization already has an integration or alias named words.");
    expect((await page.locator("main").textContent()) ?? "").not.toMatch(/slug:|already used in this organization/);
    await screenshot(page, "words-integration-slug-error");
  });

  it("reports a table row's action in the section's one message area, never inside the row", async () => {
    await visit(page, `/integrations/${fixture.integrationId}/settings`);
    const section = page.locator("section", { has: page.getByRole("heading", { name: "Aliases and grants" }) });
    await section.getByRole("button", { name: "Grant" }).click();
    await section.locator(".form-ok", { hasText: "Alias granted to the key." }).waitFor();
    expect(await section.locator("tr .form-ok, tr .form-error").count()).toBe(0);
    // Another form of the section replaces the message: one at a time.
    await section.getByLabel("New alias").fill("words-los");
    await section.getByRole("button", { name: "Add alias" }).click();
    await section.locator('[data-field-error="alias"]').waitFor();
    expect(await section.locator(".form-ok").count()).toBe(0);
    expect(await section.locator(".form-error").count()).toBe(1);
    expect(await section.locator('[data-field-error="alias"]').textContent()).toBe(
      "This organization already has an integration or alias named words-los.",
    );
    await screenshot(page, "words-alias-grant-outcome");
  });

  it("offers only the actions that fit: no Reactivate while a deletion is under way", async () => {
    await visit(page, `/integrations/${fixture.integrationId}/users/lo-2`);
    await page.getByRole("button", { name: "Delete…" }).click();
    await page.getByRole("button", { name: "Delete user" }).click();
    const actions = page.locator("section", { has: page.getByRole("heading", { name: "Actions" }) });
    await actions.locator(".form-ok", { hasText: "Deletion started" }).waitFor();
    await page.getByRole("button", { name: "Delete…" }).waitFor({ state: "detached" });
    expect(await page.getByRole("button", { name: "Reactivate…" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Disable…" }).count()).toBe(0);
    // Either the deletion was still running when the page was drawn (and the page says so) or it
    // was done (only Reprovision is left). The page's own state decides, not a later REST read,
    // which may already see the deletion finished after the page was drawn.
    const reprovision = page.getByRole("button", { name: "Reprovision…" });
    await actions.locator(".notice-box").or(reprovision).first().waitFor();
    if ((await reprovision.count()) === 1) expect(await actions.locator(".notice-box").count()).toBe(0);
    else
      expect(await actions.locator(".notice-box").textContent()).toBe(
        "A deletion is under way: no other action can be taken until it completes.",
      );
    await screenshot(page, "words-user-deletion-under-way");
  });

  it("confirms the profile override like every other lifecycle action, and clears its fields after it worked", async () => {
    await visit(page, `/integrations/${fixture.integrationId}/users/lo-3`);
    expect(await page.getByLabel("Reason", { exact: true }).count()).toBe(0);
    await page.getByRole("button", { name: "Override profile…" }).click();
    const question = page.getByRole("group", { name: /^Change the profile of lo-3 without email verification\?/ });
    await question.waitFor();
    // Two problems at once, each beside its field; focus on the first.
    await question.getByRole("button", { name: "Apply override" }).click();
    await question.locator('[data-field-error="reason"]').waitFor();
    expect(await question.locator('[data-field-error="email"]').textContent()).toBe(
      "Give a new email, a new name, or both.",
    );
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe("email");
    await screenshot(page, "words-override-confirm-errors");
    await question.getByLabel("New name").fill("Lou Three");
    await question.getByLabel("Reason", { exact: true }).fill("Ticket 4411: legal name change");
    await question.getByRole("button", { name: "Apply override" }).click();
    const actions = page.locator("section", { has: page.getByRole("heading", { name: "Actions" }) });
    await actions.locator(".form-ok", { hasText: /^Profile override/ }).waitFor();
    expect(await page.locator(".confirm").count()).toBe(0);
    await page.getByRole("button", { name: "Override profile…" }).click();
    expect(await page.getByLabel("New name").inputValue()).toBe("");
    expect(await page.getByLabel("Reason", { exact: true }).inputValue()).toBe("");
    await page.getByRole("button", { name: "Cancel" }).click();
    await screenshot(page, "words-override-done");
  });

  it("shows the key-separation advice while scopes are chosen, before the key exists", async () => {
    await visit(page, `/organizations/${fixture.orgId}/keys`);
    const warnings = page.locator("[data-scope-warnings]");
    expect(await warnings.count()).toBe(0);
    await page.locator('input[name="scopes"][value="embed:launch"]').check();
    expect(await warnings.count()).toBe(0);
    await page.locator('input[name="scopes"][value="embed:users:read"]').check();
    await warnings.waitFor();
    expect(await warnings.textContent()).toBe("Keep embed:launch on a key of its own (a launch key).");
    await screenshot(page, "words-key-advice-live");
    await page.locator('input[name="scopes"][value="embed:users:read"]').uncheck();
    await warnings.waitFor({ state: "detached" });
  });

  it("warns about an organization name that already exists while it is typed, and creates a second only when asked", async () => {
    await visit(page, "/organizations");
    await page.getByLabel("Name", { exact: true }).fill("wording  lending");
    const warning = page.locator("[data-duplicate-warning]");
    await warning.waitFor();
    expect(await warning.textContent()).toBe("An organization named wording  lending already exists.");
    await screenshot(page, "words-organization-duplicate-warning");
    await page.getByRole("button", { name: "Create organization" }).click();
    await page.locator('[data-field-error="name"]').waitFor();
    expect(((await service.cli("org:list")) as { organizations: unknown[] }).organizations).toHaveLength(1);
    await page.getByLabel("Create another with this name").check();
    await page.getByRole("button", { name: "Create organization" }).click();
    await page.waitForURL(/\/organizations\/org_[A-Za-z0-9]+$/);
    expect(((await service.cli("org:list")) as { organizations: unknown[] }).organizations).toHaveLength(2);
  });

  it("shows no raw API text on any page: statuses and reasons in words, the value on hover", async () => {
    await visit(page, `/integrations/${fixture.integrationId}/users/lo-1`);
    const identity = page.locator(".facts dd").filter({ has: page.locator('[title="partner_created"]') });
    expect(await identity.count()).toBe(1);
    await screenshot(page, "words-user-page");
    const pages = [
      "/organizations",
      `/organizations/${fixture.orgId}`,
      `/organizations/${fixture.orgId}/integrations`,
      `/organizations/${fixture.orgId}/keys`,
      `/integrations/${fixture.integrationId}`,
      `/integrations/${fixture.integrationId}/users/lo-1`,
      `/integrations/${fixture.integrationId}/users/lo-2`,
      `/integrations/${fixture.integrationId}/users/lo-3`,
      `/integrations/${fixture.integrationId}/teams`,
      `/integrations/${fixture.integrationId}/imports`,
      `/integrations/${fixture.integrationId}/settings`,
      `/keys/${fixture.keyId}`,
      "/outbox",
      "/staff",
    ];
    for (const path of pages) {
      await visit(page, path);
      for (const text of await visibleWords(page)) {
        for (const pattern of RAW) expect(text, `${path}: "${text}"`).not.toMatch(pattern);
      }
    }
    await visit(page, `/integrations/${fixture.integrationId}`);
    await screenshot(page, "words-users-list");
  });
});
