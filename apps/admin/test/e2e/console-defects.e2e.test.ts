import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { launchBrowser, screenshot } from "../support/browser";
import { restCall, signIn, visit } from "../support/console-pages";
import { startRunCommand, type RunningService } from "../support/run-command";
import type { UntypedJson } from "../support/untyped-json";

/**
 * Defects found by trying the console end to end (issue 12), one test each, in a real
 * Chromium against the service as the run command starts it. Each test sets up what it needs
 * through the operator CLI or the partner REST API, then checks what the staff member sees.
 */
let service: RunningService;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const ADMIN = { email: "dee@example.com", password: "defects admin 1" };
const setup: { orgId: string; integrationId: string; directoryKey: string; deleteKey: string } = {
  orgId: "",
  integrationId: "",
  directoryKey: "",
  deleteKey: "",
};

const rest = (path: string, init: RequestInit & { key?: string } = {}) => restCall(service.apiUrl, path, init);
const cli = async <T = UntypedJson>(...args: string[]) => (await service.cli(...args)) as T;

async function launchKey(name: string): Promise<{ id: string; key: string }> {
  return cli("key:create", "--org", setup.orgId, "--name", name, "--scopes", "embed:launch");
}

async function provision(externalUserId: string, email: string) {
  const put = await rest(`/v1/integrations/acme-los/users/${externalUserId}`, {
    method: "PUT",
    key: setup.directoryKey,
    body: JSON.stringify({ email }),
  });
  expect([201, 202]).toContain(put.status);
  return put.body.user;
}

beforeAll(async () => {
  service = await startRunCommand();
  await service.cli("staff:create", "--email", ADMIN.email, "--password", ADMIN.password, "--role", "admin");
  setup.orgId = (await cli<{ id: string }>("org:create", "--name", "Defect Lending")).id;
  setup.integrationId = (
    await cli<{ id: string }>("integration:create", "--org", setup.orgId, "--slug", "acme-los", "--alias", "acme")
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
  // A defect shows as a message that never appears: fail in seconds, not after half a minute.
  page.setDefaultTimeout(10_000);
  await signIn(page, service.consoleUrl, ADMIN);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

describe("console defects (issue 12)", () => {
  it("1. a new key's secret box does not claim it was copied: the copied state belongs to one secret", async () => {
    await visit(page, `${service.consoleUrl}/organizations/${setup.orgId}/keys`);
    const secret = page.locator("[data-secret]");
    const status = page.locator(".secret .copy-status");
    await page.getByLabel("Name", { exact: true }).fill("first");
    await page.locator('input[name="scopes"][value="chat:read"]').check();
    await page.getByRole("button", { name: "Create key" }).click();
    await secret.waitFor();
    const first = (await secret.textContent()) ?? "";
    await page.getByRole("button", { name: "Copy key" }).click();
    await page.locator(".copy-status", { hasText: "Copied to the clipboard." }).waitFor();
    // The secret's dialog (issue 24 item 13) closes only through its explicit step.
    await page.getByRole("button", { name: "Done, I have stored it" }).click();

    await page.getByLabel("Name", { exact: true }).fill("second");
    await page.locator('input[name="scopes"][value="chat:read"]').check();
    await page.getByRole("button", { name: "Create key" }).click();
    await secret.waitFor();
    await expect.poll(() => secret.textContent()).not.toBe(first);
    const second = (await secret.textContent()) ?? "";
    expect(second).toMatch(/^mga_sk_/);
    // Nothing was copied yet: the box must not say so, or staff hand the partner the old key.
    expect(await status.textContent()).toBe("");
    await screenshot(page, "defects-01-new-key-not-copied-yet");
    await page.getByRole("button", { name: "Copy key" }).click();
    await page.locator(".copy-status", { hasText: "Copied to the clipboard." }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(second);
  });

  it("2. a bad page link on the audit log, the outbox, teams and imports says so in place, with a way back to the first page", async () => {
    for (const [path, name] of [
      ["/audit", "audit"],
      ["/outbox", "outbox"],
      [`/integrations/${setup.integrationId}/teams`, "teams"],
      [`/integrations/${setup.integrationId}/imports`, "imports"],
    ] as const) {
      await visit(page, `${service.consoleUrl}${path}?cursor=garbage`);
      expect(await page.getByRole("heading", { name: "This page could not be loaded" }).count(), path).toBe(0);
      const refusal = page.locator("p.form-error[role=alert]");
      await expect(refusal.textContent(), path).resolves.toBe(
        "This page link is not valid (it was changed, or made for other filters). Start again from the first page.",
      );
      expect(await refusal.getAttribute("title"), path).toMatch(/cursor/);
      await page.getByRole("link", { name: "First page" }).click();
      await page.waitForURL((url) => url.pathname === path && !url.search.includes("cursor"));
      if (name === "audit") await screenshot(page, "defects-02-audit-after-bad-link");
    }
    await visit(page, `${service.consoleUrl}/audit?cursor=garbage`);
    await screenshot(page, "defects-02-audit-bad-page-link");
  });

  it("3. a refused user search keeps the integration's counts on screen (spec 4.10: counts cover the whole integration)", async () => {
    await provision("lo-3001", "lo-3001@example.test");
    await provision("lo-3002", "lo-3002@example.test");
    await visit(page, `${service.consoleUrl}/integrations/${setup.integrationId}`);
    const total = page.locator("ul.counts li", { hasText: "total" });
    await expect(total.textContent()).resolves.toBe("2 total");
    await page.getByLabel("External user id contains").fill("lo-3001@example.test");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.locator("p.form-error", { hasText: "email searches are not accepted" }).waitFor();
    expect(await total.textContent()).toBe("2 total");
    expect(await page.locator("ul.counts li", { hasText: "active" }).first().textContent()).toBe("2 active");
    await screenshot(page, "defects-03-refused-search-keeps-counts");
  });

  it("4. binding a launch key with nothing chosen marks the field, says why beside it and focuses it", async () => {
    const key = await launchKey("launcher-unchosen");
    await visit(page, `${service.consoleUrl}/keys/${key.id}`);
    await page.getByRole("button", { name: "Bind" }).click();
    const error = page.locator('[data-field-error="integration"]');
    await expect(error.textContent()).resolves.toBe("Choose the public name this key launches for.");
    const select = page.getByLabel("Public name");
    expect(await select.getAttribute("aria-invalid")).toBe("true");
    expect(await select.evaluate((element) => element === document.activeElement)).toBe(true);
    await screenshot(page, "defects-04-launch-binding-nothing-chosen");
  });

  it("5. reprovisioning with another user's email of the same integration is refused beside the email field", async () => {
    await provision("lo-5001", "lo-5001@example.test");
    await provision("lo-5002", "lo-5002@example.test");
    const deletion = await rest("/v1/integrations/acme-los/users/lo-5002/deletions", {
      method: "POST",
      key: setup.deleteKey,
      headers: { "Idempotency-Key": "defects-5-delete" },
      body: JSON.stringify({}),
    });
    expect(deletion.status).toBe(202);
    const statusOf = async (id: string) =>
      (await rest(`/v1/integrations/acme-los/users/${id}`, { key: setup.directoryKey })).body.user;
    await expect.poll(async () => (await statusOf("lo-5002")).status, { timeout: 20_000 }).toBe("deleted");

    await visit(page, `${service.consoleUrl}/integrations/${setup.integrationId}/users/lo-5002`);
    await page.getByRole("button", { name: "Reprovision…" }).click();
    await page.getByLabel("Email").fill("LO-5001@example.test");
    await page.getByRole("button", { name: "Reprovision", exact: true }).click();
    const error = page.locator('[data-field-error="email"]');
    await expect(error.textContent()).resolves.toBe(
      "Another user of this integration already has this email. One person is one user per integration: use another address.",
    );
    expect(await page.getByLabel("Email").getAttribute("aria-invalid")).toBe("true");
    await screenshot(page, "defects-05-reprovision-email-of-another-user");
    // Nothing changed: still deleted, the same generation.
    const user = await statusOf("lo-5002");
    expect(user).toMatchObject({ status: "deleted", account_generation: 1 });
    // The REST route follows the same rule.
    const put = await rest("/v1/integrations/acme-los/users/lo-5003", {
      method: "PUT",
      key: setup.directoryKey,
      body: JSON.stringify({ email: "lo-5001@example.test" }),
    });
    expect(put.status).toBe(409);
    expect(put.body.error.code).toBe("identity_conflict");
  });

  it("6. adding an alias that already exists says so beside the field", async () => {
    await visit(page, `${service.consoleUrl}/integrations/${setup.integrationId}/settings`);
    await page.getByLabel("New alias").fill("acme");
    await page.getByRole("button", { name: "Add alias" }).click();
    const error = page.locator('[data-field-error="alias"]');
    await expect(error.textContent()).resolves.toBe("The name acme is already an alias of acme-los.");
    expect(await page.locator("p.form-ok").count()).toBe(0);
    expect(await page.getByLabel("New alias").inputValue()).toBe("acme");
    await page.getByLabel("New alias").fill("acme-los");
    await page.getByRole("button", { name: "Add alias" }).click();
    await expect
      .poll(() => error.textContent())
      .toBe("This organization already has an integration or alias named acme-los.");
    await screenshot(page, "defects-06-alias-exists");
  });

  it("7. a launch key can be bound to an alias only once the alias is granted to it; the settings page states the same rule", async () => {
    const key = await launchKey("launcher-alias");
    await visit(page, `${service.consoleUrl}/keys/${key.id}`);
    await page.getByLabel("Public name").selectOption("acme");
    await page.getByRole("button", { name: "Bind" }).click();
    const error = page.locator('[data-field-error="integration"]');
    await expect(error.textContent()).resolves.toBe(
      "The alias acme is not granted to this key; grant it to the key first, then bind it.",
    );
    await screenshot(page, "defects-07-bind-ungranted-alias");
    const rule =
      "An alias works only for the keys it is granted to: partner requests and launches through it are refused for any other key, and a launch key can be bound to it only once it is granted.";
    expect(await page.locator(".hint", { hasText: "An alias works only" }).textContent()).toBe(rule);

    await visit(page, `${service.consoleUrl}/integrations/${setup.integrationId}/settings`);
    expect(await page.locator(".hint", { hasText: "An alias works only" }).textContent()).toBe(rule);
    await page
      .getByRole("form", { name: "Grant acme for launcher-alias" })
      .getByRole("button", { name: "Grant" })
      .click();
    await page.getByRole("form", { name: "Revoke acme for launcher-alias" }).waitFor();
    await visit(page, `${service.consoleUrl}/keys/${key.id}`);
    await page.getByLabel("Public name").selectOption("acme");
    await page.getByRole("button", { name: "Bind" }).click();
    await page.locator("p.form-ok", { hasText: "Launch binding set to acme." }).waitFor();
    await screenshot(page, "defects-07-bind-granted-alias");
  });

  it("8. the tenant configuration refuses a blank label and an unknown agency source, beside their fields, and stores nothing", async () => {
    await visit(page, `${service.consoleUrl}/organizations/${setup.orgId}`);
    await page.getByLabel("Client name").fill("Defect Lending");
    await page.getByLabel("Enabled agency sources").fill("fha, conventional");
    await page.getByLabel("Base sources (default selection)").fill("fha");
    const tenantRows = page.locator('[data-source-rows="tenantSources"]');
    await tenantRows.getByRole("button", { name: "Add a tenant source" }).click();
    const row = tenantRows.getByRole("group", { name: "Tenant sources: row 1" });
    await row.getByLabel("Key", { exact: true }).fill("defect_overlays");
    await row.getByLabel("Label", { exact: true }).fill("   ");
    await page.getByRole("button", { name: "Save configuration" }).click();
    await expect(page.locator('[data-field-error="enabledSources"]').textContent()).resolves.toBe(
      'Unknown agency source "conventional": the service offers fannie_mae, freddie_mac, fha, va and usda.',
    );
    expect(await page.getByLabel("Enabled agency sources").getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator('[data-field-error="tenantSources.0.label"]').textContent()).toBe(
      "Enter a label: spaces alone are not one.",
    );
    expect(await row.getByLabel("Label", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("p.form-error").textContent()).toBe("Nothing was saved: fix the fields marked above.");
    await screenshot(page, "defects-08-tenant-blank-label-unknown-source");
    const stored = await cli<{ clientName: string; enabledSources: string[] }>("tenant:show", "--org", setup.orgId);
    expect(stored.enabledSources).toEqual([]);
  });
});
