import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { launchBrowser, screenshot } from "../support/browser";
import { restCall, signedInPage, visit } from "../support/console-pages";
import { startRunCommand, type RunningService } from "../support/run-command";
import type { UntypedJson } from "../support/untyped-json";

/**
 * One user per email (issue 12): an address that already has a site account (another
 * integration's user, or the hosted product, uses it) links the user to that account instead
 * of creating one. The user page's confirmations say so before the staff member confirms.
 */
let service: RunningService;
let browser: Browser;
let page: Page;
const ADMIN = { email: "ida@example.com", password: "identity admin 1" };
const keys = { directory: "", deletions: "", otherDirectory: "" };
let integrationId = "";

const rest = (path: string, init: RequestInit & { key?: string } = {}) => restCall(service.apiUrl, path, init);
const cli = async <T = UntypedJson>(...args: string[]) => (await service.cli(...args)) as T;
const user = async (id: string) =>
  (await rest(`/v1/integrations/acme-los/users/${id}`, { key: keys.directory })).body.user;

async function provision(slug: string, key: string, externalUserId: string, email: string) {
  const put = await rest(`/v1/integrations/${slug}/users/${externalUserId}`, {
    method: "PUT",
    key,
    body: JSON.stringify({ email }),
  });
  expect([201, 202]).toContain(put.status);
}

const SHARED_WARNING =
  "This address already has a site account, used by 1 other integration: the user will sign in with that account's password, and it is not created anew.";
const CHANGE_REFUSED_WARNING =
  "This address already has a site account, used by 1 other integration: the user's own account cannot take it, so this change would be refused. Ask the user for an address of their own.";

beforeAll(async () => {
  service = await startRunCommand();
  await service.cli("staff:create", "--email", ADMIN.email, "--password", ADMIN.password, "--role", "admin");
  const orgId = (await cli<{ id: string }>("org:create", "--name", "Identity Lending")).id;
  integrationId = (await cli<{ id: string }>("integration:create", "--org", orgId, "--slug", "acme-los")).id;
  keys.directory = (
    await cli<{ key: string }>(
      "key:create",
      "--org",
      orgId,
      "--name",
      "directory",
      "--scopes",
      "embed:users:read,embed:users:write",
    )
  ).key;
  keys.deletions = (
    await cli<{ key: string }>("key:create", "--org", orgId, "--name", "deletions", "--scopes", "embed:users:delete")
  ).key;
  // Another lender whose loan officer already has a site account at the shared address.
  const otherOrgId = (await cli<{ id: string }>("org:create", "--name", "Other Lending")).id;
  await cli("integration:create", "--org", otherOrgId, "--slug", "other-los");
  keys.otherDirectory = (
    await cli<{ key: string }>(
      "key:create",
      "--org",
      otherOrgId,
      "--name",
      "directory",
      "--scopes",
      "embed:users:read,embed:users:write",
    )
  ).key;
  await provision("other-los", keys.otherDirectory, "b-1", "shared.person@example.test");
  browser = await launchBrowser();
  page = await signedInPage(browser, service.consoleUrl, ADMIN);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

describe("the console warns before linking a user to an existing site account", () => {
  it("reprovisioning with an address another integration's user has says so before confirming, and then links that account", async () => {
    await provision("acme-los", keys.directory, "lo-1", "lo-1@example.test");
    await expect.poll(async () => (await user("lo-1")).provisioning_status, { timeout: 20_000 }).toBe("active");
    const deletion = await rest("/v1/integrations/acme-los/users/lo-1/deletions", {
      method: "POST",
      key: keys.deletions,
      headers: { "Idempotency-Key": "identity-delete-1" },
      body: "{}",
    });
    expect(deletion.status).toBe(202);
    await expect.poll(async () => (await user("lo-1")).status, { timeout: 20_000 }).toBe("deleted");

    await visit(page, `${service.consoleUrl}/integrations/${integrationId}/users/lo-1`);
    await page.getByRole("button", { name: "Reprovision…" }).click();
    const question = page.getByRole("group", { name: /^Reprovision lo-1/ });
    const warning = question.locator("[data-site-account-warning]");
    await question.getByLabel("Email").fill("Shared.Person@example.test");
    await expect.poll(() => warning.textContent()).toBe(SHARED_WARNING);
    await screenshot(page, "identity-reprovision-existing-account-warning");
    // An address without an account: no warning (and the earlier one goes away).
    await question.getByLabel("Email").fill("brand.new@example.test");
    await expect.poll(() => warning.count()).toBe(0);
    await screenshot(page, "identity-reprovision-new-address-no-warning");

    await question.getByLabel("Email").fill("shared.person@example.test");
    await expect.poll(() => warning.textContent()).toBe(SHARED_WARNING);
    await question.getByRole("button", { name: "Reprovision", exact: true }).click();
    await page.locator(".form-ok", { hasText: "Reprovision started" }).waitFor();
    // As the warning said: linked to the existing account, not a new one.
    await expect.poll(async () => (await user("lo-1")).identity_origin, { timeout: 20_000 }).toBe("existing_mg");
    await screenshot(page, "identity-reprovision-linked");
  });

  it("the profile override's new email warns that the change would be refused, and it is, with nothing changed; a name-only override shows nothing", async () => {
    await provision("acme-los", keys.directory, "lo-2", "lo-2@example.test");
    // Another lender's user with an address of their own (lo-1 of this integration now has the first one).
    await provision("other-los", keys.otherDirectory, "b-2", "second.person@example.test");
    await expect.poll(async () => (await user("lo-2")).provisioning_status, { timeout: 20_000 }).toBe("active");
    await visit(page, `${service.consoleUrl}/integrations/${integrationId}/users/lo-2`);
    await page.getByRole("button", { name: "Override profile…" }).click();
    const question = page.getByRole("group", { name: /^Change the profile of lo-2/ });
    const warning = question.locator("[data-site-account-warning]");
    await question.getByLabel("New name").fill("Lee Two");
    expect(await warning.count()).toBe(0);
    await question.getByLabel("New email").fill("second.person@example.test");
    await expect.poll(() => warning.textContent()).toBe(CHANGE_REFUSED_WARNING);
    await screenshot(page, "identity-override-existing-account-warning");
    // Confirmed anyway: the change fails as the warning said, and the user keeps their account.
    await question.getByLabel("Reason", { exact: true }).fill("Support ticket 42");
    await question.getByRole("button", { name: "Apply override", exact: true }).click();
    const outcome = page.locator(".form-ok, .form-error").first();
    await outcome.waitFor();
    expect(await outcome.textContent()).toMatch(/^Profile override recorded/);
    await expect.poll(async () => (await user("lo-2")).lifecycle_operation?.status, { timeout: 20_000 }).toBe("failed");
    expect((await user("lo-2")).lifecycle_operation?.error_code).toBe("identity_conflict");
    expect((await user("lo-2")).identity_origin).toBe("partner_created");
  });
});
