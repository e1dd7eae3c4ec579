import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { launchBrowser, screenshot } from "../support/browser";
import { arrive, restCall, signIn, visit } from "../support/console-pages";
import { startRunCommand, type RunningService } from "../support/run-command";
import type { UntypedJson } from "../support/untyped-json";

/**
 * The console's forms, second pass (issue 24, items 1, 2, 3, 7, 13 and 16), in a real Chromium
 * against the service as the run command starts it. Each test sets up what it needs through
 * the operator CLI or the partner REST API, then checks what the staff member sees.
 */
let service: RunningService;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const ADMIN = { email: "fay@example.com", password: "forms admin pass 1" };
const setup = { orgId: "", integrationId: "", directoryKey: "", deleteKey: "", adminId: "" };

const rest = (path: string, init: RequestInit & { key?: string } = {}) => restCall(service.apiUrl, path, init);
const cli = async <T = UntypedJson>(...args: string[]) => (await service.cli(...args)) as T;
const userOf = async (id: string) =>
  (await rest(`/v1/integrations/forms-los/users/${id}`, { key: setup.directoryKey })).body.user;

async function provisioned(externalUserId: string, email: string) {
  const put = await rest(`/v1/integrations/forms-los/users/${externalUserId}`, {
    method: "PUT",
    key: setup.directoryKey,
    body: JSON.stringify({ email }),
  });
  expect([201, 202]).toContain(put.status);
  await expect.poll(async () => (await userOf(externalUserId)).provisioning_status, { timeout: 20_000 }).toBe("active");
}

async function deleted(externalUserId: string) {
  const deletion = await rest(`/v1/integrations/forms-los/users/${externalUserId}/deletions`, {
    method: "POST",
    key: setup.deleteKey,
    headers: { "Idempotency-Key": `forms-delete-${externalUserId}` },
    body: JSON.stringify({}),
  });
  expect(deletion.status).toBe(202);
  await expect.poll(async () => (await userOf(externalUserId)).status, { timeout: 20_000 }).toBe("deleted");
}

/** The outbox rows (password-setup links and the like) sent to `recipient`. */
const outboxTo = async (recipient: string) =>
  ((await cli<UntypedJson>("site:outbox")).notifications as UntypedJson[]).filter(
    (entry) => entry.recipient === recipient,
  );

beforeAll(async () => {
  service = await startRunCommand();
  setup.adminId = (
    await cli<{ id: string }>("staff:create", "--email", ADMIN.email, "--password", ADMIN.password, "--role", "admin")
  ).id;
  setup.orgId = (await cli<{ id: string }>("org:create", "--name", "Forms Lending")).id;
  setup.integrationId = (
    await cli<{ id: string }>("integration:create", "--org", setup.orgId, "--slug", "forms-los")
  ).id;
  setup.directoryKey = (
    await cli<{ key: string }>(
      "key:create",
      "--org",
      setup.orgId,
      "--name",
      "directory",
      "--scopes",
      "embed:users:read,embed:users:write",
    )
  ).key;
  setup.deleteKey = (
    await cli<{ key: string }>(
      "key:create",
      "--org",
      setup.orgId,
      "--name",
      "deletions",
      "--scopes",
      "embed:users:delete",
    )
  ).key;
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: service.consoleUrl });
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
  await signIn(page, service.consoleUrl, ADMIN);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

describe("1. an email change accepts only an email address, on every path", () => {
  it("the profile override refuses `nope` beside the field, and a one-character reason with the minimum", async () => {
    await provisioned("lo-101", "lo-101@example.test");
    await visit(page, `${service.consoleUrl}/integrations/${setup.integrationId}/users/lo-101`);
    await page.getByRole("button", { name: "Override profile…" }).click();
    await page.getByLabel("New email").fill("nope");
    await page.getByLabel("Reason", { exact: true }).fill("ticket 4411: the lender asked");
    await page.getByRole("button", { name: "Apply override" }).click();
    const emailError = page.locator('[data-field-error="email"]');
    await expect(emailError.textContent()).resolves.toBe("Enter an email address, like name@example.com.");
    expect(await page.locator(".detail").count()).toBe(0);

    await page.getByLabel("New email").fill("");
    await page.getByLabel("New name").fill("Lo Renamed");
    await page.getByLabel("Reason", { exact: true }).fill("x");
    await page.getByRole("button", { name: "Apply override" }).click();
    await expect(page.locator('[data-field-error="reason"]').textContent()).resolves.toBe(
      "Give a reason of at least 10 characters: the audit log records why.",
    );
    await screenshot(page, "forms-01-override-refused");
    // Nothing changed, nothing was sent.
    expect(await userOf("lo-101")).toMatchObject({ status: "active" });
    expect(await outboxTo("nope")).toEqual([]);
  });

  it("the reprovision form refuses `not an email`, and so does the CLI's override", async () => {
    await provisioned("lo-102", "lo-102@example.test");
    await deleted("lo-102");
    await visit(page, `${service.consoleUrl}/integrations/${setup.integrationId}/users/lo-102`);
    await page.getByRole("button", { name: "Reprovision…" }).click();
    await page.getByLabel("Email").fill("not an email");
    await page.getByRole("button", { name: "Reprovision", exact: true }).click();
    await expect(page.locator('[data-field-error="email"]').textContent()).resolves.toBe(
      "Enter an email address, like name@example.com.",
    );
    expect(await userOf("lo-102")).toMatchObject({ status: "deleted", account_generation: 1 });
    expect(await outboxTo("not an email")).toEqual([]);

    await provisioned("lo-103", "lo-103@example.test");
    const args = [
      "user:override-profile",
      "--org",
      setup.orgId,
      "--integration",
      "forms-los",
      "--user",
      "lo-103",
      "--actor",
      ADMIN.email,
    ];
    await expect(cli(...args, "--email", "nope", "--reason", "support ticket 17")).rejects.toThrow(
      /email: must be an email address/,
    );
    await expect(cli(...args, "--name", "Lo Three", "--reason", "x")).rejects.toThrow(
      /reason: an override needs a reason of at least 10 characters/,
    );
    expect(await outboxTo("nope")).toEqual([]);
    // The partner API refuses the same value with the same rule.
    const put = await rest("/v1/integrations/forms-los/users/lo-104", {
      method: "PUT",
      key: setup.directoryKey,
      body: JSON.stringify({ email: "nope" }),
    });
    expect(put.status).toBe(400);
    expect(put.body.error.message).toBe("email: must be an email address, like name@example.com");
  });
});

describe("2. a field's error goes when the field changes; one problem, one message", () => {
  it("a key's scopes and name errors clear as they are fixed", async () => {
    await visit(page, `${service.consoleUrl}/organizations/${setup.orgId}/keys`);
    await page.getByRole("button", { name: "Create key" }).click();
    const scopes = page.locator('[data-field-error="scopes"]');
    const name = page.locator('[data-field-error="name"]');
    await expect(scopes.textContent()).resolves.toBe("Choose at least one scope.");
    await name.waitFor();
    for (const scope of ["chat:read", "chat:write", "embed:users:read"])
      await page.locator(`input[name="scopes"][value="${scope}"]`).check();
    await expect.poll(() => scopes.count()).toBe(0);
    expect(await name.count()).toBe(1);
    await page.getByLabel("Name", { exact: true }).fill("reader");
    await expect.poll(() => name.count()).toBe(0);
    await screenshot(page, "forms-02-key-errors-cleared");
  });

  it("renaming with an empty name: the error goes once a name is typed", async () => {
    await visit(page, `${service.consoleUrl}/organizations/${setup.orgId}`);
    await page.getByLabel("Organization name").fill("");
    await page.getByRole("button", { name: "Rename" }).click();
    const error = page.locator('[data-field-error="name"]');
    await expect(error.textContent()).resolves.toBe("Enter the organization's name.");
    await page.getByLabel("Organization name").fill("Forms Lending");
    await expect.poll(() => error.count()).toBe(0);
  });

  it("a duplicate organization name is said once: the refusal replaces the warning", async () => {
    await visit(page, `${service.consoleUrl}/organizations`);
    await page.getByLabel("Name", { exact: true }).fill("forms lending");
    await page.locator("[data-duplicate-warning]").waitFor();
    await page.getByRole("button", { name: "Create organization" }).click();
    await expect(page.locator('[data-field-error="name"]').textContent()).resolves.toBe(
      'An organization named forms lending already exists. Tick "Create another with this name" to go ahead.',
    );
    expect(await page.locator("[data-duplicate-warning]").count()).toBe(0);
    expect(await page.getByText("already exists").count()).toBe(1);
    await screenshot(page, "forms-02-duplicate-said-once");
  });

  it("reprovisioning with another user's email: the red refusal alone, not also the grey account hint", async () => {
    await provisioned("lo-201", "lo-201@example.test");
    await provisioned("lo-202", "lo-202@example.test");
    await deleted("lo-202");
    await visit(page, `${service.consoleUrl}/integrations/${setup.integrationId}/users/lo-202`);
    await page.getByRole("button", { name: "Reprovision…" }).click();
    await page.getByLabel("Email").fill("lo-201@example.test");
    await page.locator("[data-site-account-warning]").waitFor();
    await page.getByRole("button", { name: "Reprovision", exact: true }).click();
    await expect(page.locator('[data-field-error="email"]').textContent()).resolves.toMatch(
      /^Another user of this integration already has this email/,
    );
    expect(await page.locator("[data-site-account-warning]").count()).toBe(0);
    await screenshot(page, "forms-02-reprovision-one-message");
  });
});

describe("3. organization names and deletion", () => {
  it("renaming to another organization's name warns and takes the same tick as creating", async () => {
    const other = await cli<{ id: string }>("org:create", "--name", "Rename Target Lending");
    await visit(page, `${service.consoleUrl}/organizations/${other.id}`);
    await page.getByLabel("Organization name").fill("Forms Lending");
    await expect(page.locator("[data-duplicate-warning]").textContent()).resolves.toBe(
      "An organization named Forms Lending already exists.",
    );
    await page.getByRole("button", { name: "Rename" }).click();
    await expect(page.locator('[data-field-error="name"]').textContent()).resolves.toBe(
      'An organization named Forms Lending already exists. Tick "Rename it anyway" to go ahead.',
    );
    expect(
      (await cli<{ organizations: Array<{ id: string; name: string }> }>("org:list")).organizations.find(
        (org) => org.id === other.id,
      )?.name,
    ).toBe("Rename Target Lending");
    await page.getByLabel("Rename it anyway").check();
    await page.getByRole("button", { name: "Rename" }).click();
    await page.locator("p.form-ok", { hasText: "Organization renamed." }).waitFor();
    await screenshot(page, "forms-03-rename-duplicate");
  });

  it("an organization with an active key says what blocks Delete; once revoked and disabled, it is deleted with them, audited", async () => {
    const org = await cli<{ id: string }>("org:create", "--name", "Retired Lending");
    await cli("integration:create", "--org", org.id, "--slug", "retired-los");
    const key = await cli<{ id: string }>(
      "key:create",
      "--org",
      org.id,
      "--name",
      "old server",
      "--scopes",
      "chat:read,chat:write",
    );
    await visit(page, `${service.consoleUrl}/organizations/${org.id}`);
    expect(await page.getByRole("button", { name: "Delete organization…" }).count()).toBe(0);
    const blocked = page.locator("[data-deletion-blocked]");
    expect(await blocked.textContent()).toContain("Retired Lending cannot be deleted yet. It still has:");
    expect(await blocked.locator("li").allTextContents()).toEqual([
      "1 active API key: revoke it (API keys).",
      "1 active integration: disable it (Integrations).",
    ]);
    await screenshot(page, "forms-03-delete-blocked");

    await cli("key:revoke", "--id", key.id);
    await cli("integration:update", "--org", org.id, "--slug", "retired-los", "--status", "disabled");
    await visit(page, `${service.consoleUrl}/organizations`);
    const row = page.locator("tr", { hasText: "Retired Lending" });
    expect(await row.locator("td").nth(3).textContent()).toBe("0");
    await visit(page, `${service.consoleUrl}/organizations/${org.id}`);
    await page.getByRole("button", { name: "Delete organization…" }).click();
    await page.getByRole("button", { name: "Delete organization", exact: true }).click();
    await arrive(page, /\/organizations\?deleted=/);
    await expect(page.locator("p.form-ok").textContent()).resolves.toBe(
      "Organization Retired Lending deleted, with its revoked keys and disabled integrations.",
    );
    expect(await page.getByRole("link", { name: "Retired Lending" }).count()).toBe(0);
    await screenshot(page, "forms-03-deleted-notice");
    // Another organization's keys are untouched.
    expect((await cli<{ keys: UntypedJson[] }>("key:list", "--org", setup.orgId)).keys.length).toBeGreaterThanOrEqual(
      2,
    );
    await visit(page, `${service.consoleUrl}/audit`);
    expect(await page.locator("table.audit").textContent()).toContain("Deleted the organization");
  });
});

describe("13. a new key's secret", () => {
  it("opens in a dialog naming the key, with Copy and an explicit Done; the advice sits beside the scopes; no placeholder looks like a value", async () => {
    await visit(page, `${service.consoleUrl}/organizations/${setup.orgId}/keys`);
    expect(await page.locator("form[aria-label='Create an API key'] [placeholder]").count()).toBe(0);
    // The separation advice is part of the scopes' fieldset, beside the boxes.
    await page.locator("fieldset.scopes aside[aria-label='Key separation advice']").waitFor();
    await page.getByLabel("Name", { exact: true }).fill("acme server");
    await page.locator('input[name="scopes"][value="chat:read"]').check();
    await page.getByRole("button", { name: "Create key" }).click();
    const dialog = page.getByRole("dialog", { name: "New key “acme server”" });
    await dialog.waitFor();
    const secret = (await dialog.locator("[data-secret]").textContent()) ?? "";
    expect(secret).toMatch(/^mga_sk_/);
    await screenshot(page, "forms-13-new-key-dialog");
    // Escape does not lose the key: only the explicit step closes the dialog.
    await page.keyboard.press("Escape");
    expect(await dialog.isVisible()).toBe(true);
    await dialog.getByRole("button", { name: "Copy key" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await dialog.getByRole("button", { name: "Done, I have stored it" }).click();
    await expect.poll(() => page.getByRole("dialog").count()).toBe(0);
    expect(await page.locator("[data-secret]").count()).toBe(0);
    // The list shows when each key was created.
    expect(await page.locator("table thead").textContent()).toContain("Created");
  });

  it("a rate limit of 0 says it must be at least 1", async () => {
    await visit(page, `${service.consoleUrl}/organizations/${setup.orgId}/keys`);
    await page.getByLabel("Name", { exact: true }).fill("zero limit");
    await page.locator('input[name="scopes"][value="chat:read"]').check();
    await page.getByLabel("Rate limit (requests per minute)").fill("0");
    await page.getByRole("button", { name: "Create key" }).click();
    await expect(page.locator('[data-field-error="rateLimit"]').textContent()).resolves.toBe(
      "Enter at least 1 request per minute, or leave it empty for the service default.",
    );
  });
});

describe("7. invitations", () => {
  it("a second invitation keeps the first one's link on the page; an invalid email is said plainly", async () => {
    await visit(page, `${service.consoleUrl}/staff`);
    expect(await page.locator("form[aria-label='Invite a colleague'] [placeholder]").count()).toBe(0);
    await page.getByLabel("Email", { exact: true }).fill("not an email");
    await page.getByRole("button", { name: "Create invitation link" }).click();
    await expect(page.locator('[data-field-error="email"]').textContent()).resolves.toBe(
      "Enter an email address, like name@example.com.",
    );
    expect(await page.getByText("This value is not accepted.").count()).toBe(0);
    expect(await page.locator(".detail").count()).toBe(0);

    for (const email of ["first.colleague@example.com", "second.colleague@example.com"]) {
      await page.getByLabel("Email", { exact: true }).fill(email);
      await page.getByRole("button", { name: "Create invitation link" }).click();
      await page.getByRole("region", { name: `Invitation link for ${email}` }).waitFor();
    }
    expect(await page.locator("[data-secret]").count()).toBe(2);
    await screenshot(page, "forms-07-two-invitation-links");
  });

  it("the invitation page keeps its token on F5 and reads a link pasted again into the same tab", async () => {
    const tokens: string[] = [];
    await visit(page, `${service.consoleUrl}/staff`);
    for (const email of ["third.colleague@example.com", "fourth.colleague@example.com"]) {
      await page.getByLabel("Email", { exact: true }).fill(email);
      await page.getByRole("button", { name: "Create invitation link" }).click();
      const region = page.getByRole("region", { name: `Invitation link for ${email}` });
      await region.waitFor();
      tokens.push((await region.locator("[data-secret]").textContent()) ?? "");
    }
    const tab = await browser.newContext().then((fresh) => fresh.newPage());
    await tab.goto(tokens[0] as string);
    await tab.getByLabel("Password", { exact: true }).waitFor();
    expect(await tab.getByLabel("Email").inputValue()).toBe("third.colleague@example.com");
    expect(tab.url()).toBe(`${service.consoleUrl}/invite`);
    await tab.reload();
    await tab.getByLabel("Password", { exact: true }).waitFor();
    expect(await tab.getByLabel("Email").inputValue()).toBe("third.colleague@example.com");
    // The second link pasted into the same tab: only the fragment changes.
    await tab.goto(tokens[1] as string);
    await expect.poll(() => tab.getByLabel("Email").inputValue()).toBe("fourth.colleague@example.com");
    await tab.context().close();
  });
});

describe("16. smaller things", () => {
  it("the organizations list searches and pages by name", async () => {
    // Through the console's own form: quicker than starting the CLI 26 times.
    for (let index = 1; index <= 26; index += 1) {
      await visit(page, `${service.consoleUrl}/organizations`);
      await page.getByLabel("Name", { exact: true }).fill(`Paged Lending ${String(index).padStart(2, "0")}`);
      await page.getByRole("button", { name: "Create organization" }).click();
      await page.waitForURL(/\/organizations\/org_/);
    }
    await visit(page, `${service.consoleUrl}/organizations`);
    const search = page.getByRole("search", { name: "Search organizations" });
    await search.getByLabel("Name or id contains").fill("paged lending");
    await search.getByRole("button", { name: "Search" }).click();
    await arrive(page, /\/organizations\?q=paged\+lending$/);
    expect(await page.locator(".pager-range").textContent()).toBe("1–25 of 26");
    await page.getByRole("link", { name: "Next" }).click();
    await arrive(page, /page=2/);
    expect(await page.locator(".pager-range").textContent()).toBe("26–26 of 26");
    expect(await page.locator("tbody tr").count()).toBe(1);
    await page.getByRole("link", { name: "Previous" }).click();
    await arrive(page, /\/organizations\?q=paged\+lending$/);
    expect(await page.locator(".pager-range").textContent()).toBe("1–25 of 26");
  }, 300_000);

  it("pages forward and back with a URL that does not grow: Previous needs no stack of earlier pages", async () => {
    const users = Array.from({ length: 80 }, (_, index) => ({
      external_user_id: `pg-${String(index).padStart(3, "0")}`,
      email: `pg-${index}@example.test`,
    }));
    const started = await rest("/v1/integrations/forms-los/user-imports", {
      method: "POST",
      key: setup.directoryKey,
      headers: { "Idempotency-Key": "forms-paging-import" },
      body: JSON.stringify({ users }),
    });
    expect(started.status).toBe(202);
    const jobId = started.body.import.job_id as string;
    await expect
      .poll(
        async () =>
          (await rest(`/v1/integrations/forms-los/user-imports/${jobId}`, { key: setup.directoryKey })).body.import
            .status,
        { timeout: 30_000 },
      )
      .toBe("completed");
    await visit(page, `${service.consoleUrl}/integrations/${setup.integrationId}?q=pg-`);
    const pager = page.getByRole("navigation", { name: "Pages" });
    const firstRows = await page.locator("table.table tbody tr td:first-child").allTextContents();
    const lengths: number[] = [];
    for (const range of ["26–50 of 80", "51–75 of 80", "76–80 of 80"]) {
      await pager.getByRole("link", { name: "Next" }).click();
      await expect.poll(() => pager.locator(".pager-range").textContent()).toBe(range);
      lengths.push(page.url().length);
    }
    expect(page.url()).not.toContain("back=");
    // Page 4's address is no longer than page 2's, give or take a digit.
    expect((lengths[2] as number) - (lengths[0] as number)).toBeLessThanOrEqual(2);
    const pageFour = await page.locator("table.table tbody tr td:first-child").allTextContents();
    for (const range of ["51–75 of 80", "26–50 of 80", "1–25 of 80"]) {
      await pager.getByRole("link", { name: "Previous" }).click();
      await expect.poll(() => pager.locator(".pager-range").textContent()).toBe(range);
    }
    expect(await page.locator("table.table tbody tr td:first-child").allTextContents()).toEqual(firstRows);
    expect(page.url()).not.toContain("cursor=");
    expect(pageFour).toHaveLength(5);
  }, 120_000);

  it("an alias refusal names the alias", async () => {
    await visit(page, `${service.consoleUrl}/integrations/${setup.integrationId}/settings`);
    await page.getByLabel("New alias").fill("Bad Alias!");
    await page.getByRole("button", { name: "Add alias" }).click();
    await expect(page.locator('[data-field-error="alias"]').textContent()).resolves.toMatch(
      /^The alias Bad Alias! is not accepted: /,
    );
  });

  it("the status page names the admin listener as such", async () => {
    await visit(page, `${service.consoleUrl}/status`);
    expect(await page.locator("#status-title + p").textContent()).toMatch(
      /^The API's admin listener at http:\/\/127\.0\.0\.1:\d+ answered/,
    );
  });
});
