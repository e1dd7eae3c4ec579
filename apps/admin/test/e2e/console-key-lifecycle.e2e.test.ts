import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { launchBrowser, screenshot } from "../support/browser";
import { restCall, signedInPage, visit } from "../support/console-pages";
import { startRunCommand, type RunningService } from "../support/run-command";
import type { UntypedJson } from "../support/untyped-json";

/**
 * Key lifecycle in the console (issue 25): an expiry chosen at creation, the keys list's
 * "Expires" column and "Expiring within 7 days" panel, editing a key's name and scopes and
 * rolling it on its page; each checked against the partner REST API and the audit log.
 */
let service: RunningService;
let browser: Browser;
let page: Page;
const ADMIN = { email: "kira@example.com", password: "key lifecycle admin 1" };
let orgId = "";

const cli = async <T = UntypedJson>(...args: string[]) => (await service.cli(...args)) as T;
const rest = (path: string, key: string) => restCall(service.apiUrl, path, { key });
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  service = await startRunCommand();
  await service.cli("staff:create", "--email", ADMIN.email, "--password", ADMIN.password, "--role", "admin");
  orgId = (await cli<{ id: string }>("org:create", "--name", "Lifecycle Lending")).id;
  browser = await launchBrowser();
  page = await signedInPage(browser, service.consoleUrl, ADMIN);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

describe("key lifecycle in the console", () => {
  it("creates a key with an expiry date (refusing a past one beside the field), lists it as expiring within 7 days", async () => {
    await visit(page, `${service.consoleUrl}/organizations/${orgId}/keys`);
    expect(await page.locator("[data-expiring-keys]").count()).toBe(0);
    await page.getByLabel("Name", { exact: true }).fill("expiring server");
    await page.locator('input[name="scopes"][value="chat:read"]').check();
    await page.getByLabel("Expires on (optional)").fill(day(-1));
    await page.getByRole("button", { name: "Create key" }).click();
    await expect
      .poll(() => page.locator('[data-field-error="expiresOn"]').textContent())
      .toBe("Choose a date after today.");

    await page.getByLabel("Expires on (optional)").fill(day(3));
    await page.getByRole("button", { name: "Create key" }).click();
    const plaintext = (await page.locator("[data-secret]").textContent()) ?? "";
    expect(plaintext).toMatch(/^mga_sk_/);
    const me = await rest("/v1/me", plaintext);
    expect(me.body.key.expires_at).toBe(`${day(3)}T00:00:00.000Z`);
    await expect
      .poll(() => page.locator("[data-expiring-keys]").textContent())
      .toContain(`expiring server (…${plaintext.slice(-4)}) expires ${day(3)} 00:00 UTC`);
    const row = page.locator("table tbody tr", { hasText: "expiring server" });
    expect(await row.textContent()).toContain(`${day(3)} 00:00 UTC`);
    await screenshot(page, "key-lifecycle-expiring");
  });

  it("edits a key's name and scopes on its page: the removed scope is refused (403) at once, and the edit is audited", async () => {
    const created = await cli<{ id: string; key: string }>(
      "key:create",
      "--org",
      orgId,
      "--name",
      "editable",
      "--scopes",
      "chat:read,sources:read",
    );
    expect((await rest("/v1/sources", created.key)).status).toBe(200);
    await visit(page, `${service.consoleUrl}/keys/${created.id}`);
    const form = page.getByRole("form", { name: "Edit key" });
    await form.getByLabel("Name", { exact: true }).fill("edited");
    await form.locator('input[name="scopes"][value="sources:read"]').uncheck();
    await form.getByRole("button", { name: "Save name and scopes" }).click();
    await page
      .locator(".form-ok", { hasText: "Name and scopes saved: they apply from the key's next request." })
      .waitFor();
    const refused = await rest("/v1/sources", created.key);
    expect(refused.status).toBe(403);
    expect((await rest("/v1/me", created.key)).body.key).toMatchObject({ name: "edited", scopes: ["chat:read"] });

    // Nothing ticked: refused beside the scopes, nothing saved.
    await form.locator('input[name="scopes"][value="chat:read"]').uncheck();
    await form.getByRole("button", { name: "Save name and scopes" }).click();
    await expect
      .poll(() => page.locator('[data-field-error="scopes"]').textContent())
      .toBe("Choose at least one scope.");

    await visit(page, `${service.consoleUrl}/audit?action=key.update`);
    const rows = await page.locator("table.audit tbody tr").allTextContents();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain("Edited the API key");
    expect(rows[0]).toContain("editable → edited");
  });

  it("rolls a key: the new key is shown once and works at once, the old one shows its end date and works until then", async () => {
    const created = await cli<{ id: string; key: string }>(
      "key:create",
      "--org",
      orgId,
      "--name",
      "rolling",
      "--scopes",
      "chat:read",
    );
    await visit(page, `${service.consoleUrl}/keys/${created.id}`);
    expect(await page.locator("[data-key-expiry]").textContent()).toBe("Never");
    const form = page.getByRole("form", { name: "Roll key" });
    await form.getByLabel("The old key stops working").selectOption({ label: "In 3 days" });
    await form.getByRole("button", { name: "Roll key" }).click();
    const successor = (await form.locator("[data-secret]").textContent()) ?? "";
    expect(successor).toMatch(/^mga_sk_/);
    await page.locator(".form-ok", { hasText: "Key rolled: the new key" }).waitFor();
    await screenshot(page, "key-lifecycle-rolled");

    const fresh = await rest("/v1/me", successor);
    expect(fresh.status).toBe(200);
    expect(fresh.body.key).toMatchObject({ name: "rolling", scopes: ["chat:read"] });
    const old = await rest("/v1/me", created.key);
    expect(old.status).toBe(200);
    const end = old.body.key.expires_at as string;
    expect(Math.abs(Date.parse(end) - (Date.now() + 3 * 86_400_000))).toBeLessThan(120_000);
    await expect
      .poll(() => page.locator("[data-key-expiry]").textContent())
      .toContain(`${end.slice(0, 10)} ${end.slice(11, 16)} UTC`);

    // The successor's page says where it came from.
    await visit(page, `${service.consoleUrl}/keys/${fresh.body.key.id}`);
    expect(await page.getByRole("link", { name: created.id }).count()).toBe(1);
  });
});
