import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { launchBrowser, screenshot } from "../support/browser";
import { arrive, reload, restCall, signIn, visit } from "../support/console-pages";
import { startRunCommand, type RunningService } from "../support/run-command";
import type { UntypedJson } from "../support/untyped-json";

/**
 * The staff console in a real browser (Debian's Chromium through playwright-core), against the
 * service as the run command starts it: the API on an embedded PostgreSQL plus the console.
 * One staff member's day, in order: sign in, create an organization, configure its tenant,
 * create an integration and a key (copied once), find a user provisioned through the REST API,
 * disable them, and read it all back in the audit log; then invite a colleague, who joins
 * through the link, and disable them again. Only the first account comes from the CLI.
 */
let service: RunningService;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const ADMIN = { email: "ana@example.com", password: "admin password 1" };
const VIEWER = { email: "vic@example.com", password: "viewer password 1" };
const state: { orgId?: string; key?: string; readKey?: string; integrationPath?: string; viewer?: Page } = {};

const rest = (path: string, init: RequestInit & { key?: string } = {}) => restCall(service.apiUrl, path, init);

beforeAll(async () => {
  service = await startRunCommand();
  await service.cli("staff:create", "--email", ADMIN.email, "--password", ADMIN.password, "--role", "admin");
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: service.consoleUrl });
  page = await context.newPage();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

describe("staff console", () => {
  it("the run command prints the console's URL and how to create the first staff account", () => {
    expect(service.output()).toContain(`Staff console is up: ${service.consoleUrl}`);
    expect(service.output()).toContain("pnpm cli staff:create --email");
    expect(service.output()).toContain("invited from the console's Staff page");
  });

  it("sends signed-out visitors to sign in, refuses a wrong password in place, and signs in", async () => {
    await visit(page, `${service.consoleUrl}/organizations`);
    await arrive(page, /\/sign-in/);
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator("p.form-error").textContent()).resolves.toBe("Wrong email or password.");
    // The form keeps what was typed (React would otherwise reset it after the action).
    expect(await page.getByLabel("Email").inputValue()).toBe(ADMIN.email);
    await screenshot(page, "01-sign-in");
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await arrive(page, /\/organizations$/);
    expect(await page.locator(".who").textContent()).toContain(ADMIN.email);
    const cookies = await context.cookies(service.consoleUrl);
    expect(cookies.find((cookie) => cookie.name === "mga_console_session")).toMatchObject({
      httpOnly: true,
      sameSite: "Strict",
    });
  });

  it("cannot be framed by another site, and says when to try again after repeated wrong passwords", async () => {
    const headers = (await fetch(`${service.consoleUrl}/sign-in`)).headers;
    expect(headers.get("x-frame-options")).toBe("DENY");
    expect(headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    const stranger = await browser.newContext();
    const framing = await stranger.newPage();
    await framing.setContent(`<iframe id="console" src="${service.consoleUrl}/sign-in"></iframe>`);
    const frame = await (await framing.waitForSelector("#console")).contentFrame();
    await framing.waitForTimeout(500);
    expect(await frame?.locator("form").count()).toBe(0);

    const guesser = await stranger.newPage();
    await visit(guesser, `${service.consoleUrl}/sign-in`);
    for (let attempt = 0; attempt < 6; attempt += 1) {
      await guesser.getByLabel("Email").fill("somebody@example.com");
      await guesser.getByLabel("Password").fill(`guess number ${attempt}`);
      // Each attempt is one server action: wait for its answer, not for a message already on screen.
      await Promise.all([
        guesser.waitForResponse((response) => response.request().method() === "POST"),
        guesser.getByRole("button", { name: "Sign in" }).click(),
      ]);
      // The response arrives before React renders it: the button leaves "Signing in…" in the
      // same render that shows the answer, so the message read after that is this attempt's.
      await guesser.getByRole("button", { name: "Sign in", exact: true }).waitFor();
      await guesser.locator("p.form-error").waitFor();
      if (attempt < 5)
        await expect(guesser.locator("p.form-error").textContent()).resolves.toBe("Wrong email or password.");
    }
    await expect(guesser.locator("p.form-error").textContent()).resolves.toMatch(
      /^Too many failed attempts; try again in 1[45] minutes\.$/,
    );
    await stranger.close();
  });

  it("creates an organization", async () => {
    await expect(page.locator("p.empty").first().textContent()).resolves.toContain("No organizations yet");
    await page.getByLabel("Name", { exact: true }).fill("Acme Lending");
    await page.getByRole("button", { name: "Create organization" }).click();
    await arrive(page, /\/organizations\/org_[A-Za-z0-9]+$/);
    state.orgId = page.url().split("/").pop();
    expect(await page.locator("h1").textContent()).toBe("Acme Lending");
    await visit(page, `${service.consoleUrl}/organizations`);
    expect(await page.getByRole("link", { name: "Acme Lending" }).count()).toBe(1);
    await screenshot(page, "02-organizations");
  });

  it("shows tenant configuration errors beside their fields and saves a valid configuration", async () => {
    await visit(page, `${service.consoleUrl}/organizations/${state.orgId}`);
    await page.getByLabel("Client name").fill("Acme Lending");
    await page.getByLabel("Enabled agency sources").fill("fha, va");
    await page.getByLabel("Base sources (default selection)").fill("fha, usda");
    // Sources are rows of inputs: a tenant source whose label is missing...
    const tenantRows = page.locator('[data-source-rows="tenantSources"]');
    await tenantRows.getByRole("button", { name: "Add a tenant source" }).click();
    const tenantRow = tenantRows.getByRole("group", { name: "Tenant sources: row 1" });
    await tenantRow.getByLabel("Key", { exact: true }).fill("acme_overlays");
    // ...and a secondary source naming a shared source type the tenant is not assigned.
    const secondaryRows = page.locator('[data-source-rows="secondarySources"]');
    await secondaryRows.getByRole("button", { name: "Add a secondary source" }).click();
    const secondaryRow = secondaryRows.getByRole("group", { name: "Secondary sources: row 1" });
    await secondaryRow.getByLabel("Type", { exact: true }).selectOption("shared_source");
    await secondaryRow.getByLabel("Source type").fill("state_regulations");
    await secondaryRow.getByLabel("Label", { exact: true }).fill("State regulations");
    await page.getByRole("button", { name: "Save configuration" }).click();
    await expect(page.locator('[data-field-error="baseSources"]').textContent()).resolves.toBe(
      "usda is not one of the enabled agency sources.",
    );
    expect(await page.getByLabel("Base sources (default selection)").getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator('[data-field-error="tenantSources.0.label"]').textContent()).toBe("Required.");
    expect(await tenantRow.getByLabel("Label", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator('[data-field-error="secondarySources"]').textContent()).toBe(
      "Shared source state_regulations is not one of the assigned shared source types.",
    );
    expect(await page.locator("p.form-error").textContent()).toBe("Nothing was saved: fix the fields marked above.");

    await tenantRow.getByLabel("Label", { exact: true }).fill("Acme overlays");
    await tenantRow.getByLabel("On by default").check();
    await page.getByLabel("Assigned shared source types").fill("state_regulations");
    await page.getByLabel("Base sources (default selection)").fill("fha");
    await page.getByRole("button", { name: "Save configuration" }).click();
    await expect(page.locator("p.form-ok").textContent()).resolves.toBe("Tenant configuration saved.");
    await reload(page);
    expect(await page.getByLabel("Enabled agency sources").inputValue()).toBe("fha, va");
    expect(await page.getByLabel("Base sources (default selection)").inputValue()).toBe("fha");
    expect(await tenantRow.getByLabel("Key", { exact: true }).inputValue()).toBe("acme_overlays");
    expect(await tenantRow.getByLabel("On by default").isChecked()).toBe(true);
    expect(await secondaryRow.getByLabel("Source type").inputValue()).toBe("state_regulations");
    // Stored in the spec's shape (section 2.4): what GET /v1/me shows partners.
    const stored = (await service.cli("tenant:show", "--org", state.orgId as string)) as Record<string, unknown>;
    expect(stored).toMatchObject({
      tenantSources: [{ key: "acme_overlays", label: "Acme overlays", defaultOn: true }],
      secondarySources: [
        { type: "shared_source", sourceType: "state_regulations", label: "State regulations", defaultOn: false },
      ],
      assignedSharedSourceTypes: ["state_regulations"],
    });
    await screenshot(page, "03-tenant-configuration");
  });

  it("creates an integration with an alias", async () => {
    await page.getByRole("link", { name: "Integrations" }).first().click();
    await arrive(page, /\/integrations$/);
    await page.getByLabel("Slug").fill("acme-los");
    await page.getByLabel("Aliases (optional)").fill("acme");
    await page.getByRole("button", { name: "Create integration" }).click();
    await expect(page.locator("p.form-ok").textContent()).resolves.toBe("Integration acme-los created.");
    await page.getByRole("link", { name: "acme-los" }).waitFor();
    expect(await page.locator("table.table tbody tr").first().textContent()).toContain("acme");
    state.integrationPath = (await page.getByRole("link", { name: "acme-los" }).getAttribute("href")) ?? undefined;
    expect(state.integrationPath).toMatch(/^\/integrations\/int_/);
    await screenshot(page, "04-integrations");
  });

  it("creates a key, shows its plaintext once with a copy button, and never again", async () => {
    await page.getByRole("link", { name: "API keys" }).click();
    await arrive(page, /\/keys$/);
    expect(await page.locator(".advice").textContent()).toContain("separate server-only key with only embed:launch");
    await page.getByLabel("Name", { exact: true }).fill("directory");
    for (const scope of ["embed:users:read", "embed:users:write", "embed:launch"])
      await page.locator(`input[name="scopes"][value="${scope}"]`).check();
    // The separation advice applies before the key exists, while the scopes are chosen.
    expect(await page.locator("[data-scope-warnings]").textContent()).toContain(
      "Keep embed:launch on a key of its own",
    );
    await page.getByRole("button", { name: "Create key" }).click();
    const secret = page.locator("[data-secret]");
    await secret.waitFor();
    const plaintext = (await secret.textContent()) ?? "";
    expect(plaintext).toMatch(/^mga_sk_/);
    await page.getByRole("button", { name: "Copy key" }).click();
    await page.locator(".copy-status", { hasText: "Copied to the clipboard." }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(plaintext);
    state.key = plaintext;
    expect((await rest("/v1/me", { key: plaintext })).status).toBe(200);
    await screenshot(page, "05-key-created");
    await reload(page);
    expect(await page.locator("[data-secret]").count()).toBe(0);
    expect(await page.content()).not.toContain(plaintext);
    expect(await page.locator("table.table").textContent()).toContain(`…${plaintext.slice(-4)}`);
  });

  it("finds a user provisioned through the REST API, with filters kept in the URL", async () => {
    for (const id of ["lo-1001", "lo-1002", "uw-2001"]) {
      const put = await rest(`/v1/integrations/acme-los/users/${id}`, {
        method: "PUT",
        key: state.key,
        body: JSON.stringify({ email: `${id}@example.test` }),
      });
      expect([201, 202]).toContain(put.status);
    }
    await visit(page, `${service.consoleUrl}${state.integrationPath}`);
    expect(await page.locator("ul.counts").textContent()).toContain("3 total");
    await page.getByLabel("External user id contains").fill("lo-10");
    await page.getByRole("button", { name: "Filter" }).click();
    await arrive(page, /\?q=lo-10/);
    await expect(page.locator("table.table tbody tr").count()).resolves.toBe(2);
    await reload(page);
    expect(await page.getByLabel("External user id contains").inputValue()).toBe("lo-10");
    await expect(page.locator("table.table tbody tr").count()).resolves.toBe(2);
    await screenshot(page, "06-users");
    await page.getByLabel("External user id contains").fill("someone@example.test");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page.locator("p.form-error").textContent()).resolves.toBe(
      "Email searches are not accepted: search by external user id.",
    );
  });

  it("searches teams and opens a team's users", async () => {
    const teamsKey = (await service.cli(
      "key:create",
      "--org",
      state.orgId as string,
      "--name",
      "teams",
      "--scopes",
      "embed:teams:write,embed:users:write",
    )) as { key: string };
    for (const [id, name] of [
      ["loan-officers", "Loan officers"],
      ["uw", "Underwriting"],
    ]) {
      expect(
        (
          await rest(`/v1/integrations/acme-los/teams/${id}`, {
            method: "PUT",
            key: teamsKey.key,
            body: JSON.stringify({ name }),
          })
        ).status,
      ).toBe(201);
    }
    const assigned = await rest("/v1/integrations/acme-los/users/lo-1002", {
      method: "PUT",
      key: teamsKey.key,
      body: JSON.stringify({ email: "lo-1002@example.test", team_external_id: "loan-officers" }),
    });
    expect(assigned.status).toBe(200);
    await visit(page, `${service.consoleUrl}${state.integrationPath}/teams`);
    await page.getByLabel("External id or name contains").fill("OFFICER");
    await page.getByRole("button", { name: "Filter" }).click();
    await arrive(page, /\/teams\?q=OFFICER&/);
    const rows = await page.locator("table.table tbody tr").allTextContents();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain("Loan officers");
    await page.getByRole("link", { name: "loan-officers" }).click();
    await arrive(page, /\?team=loan-officers$/);
    expect(await page.getByLabel("Team (external id)").inputValue()).toBe("loan-officers");
    const users = await page.locator("table.table tbody tr").allTextContents();
    expect(users).toHaveLength(1);
    expect(users[0]).toContain("lo-1002");
  });

  it("disables a user after a confirmation; the REST API sees it at once", async () => {
    await visit(page, `${service.consoleUrl}${state.integrationPath}/users/lo-1001`);
    expect(await page.locator(".facts").textContent()).toContain("lo-1001@example.test");
    await page.getByRole("button", { name: "Disable…" }).click();
    // The confirmation takes focus (Escape backs out) and nothing has changed yet.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Cancel");
    expect((await rest("/v1/integrations/acme-los/users/lo-1001", { key: state.key })).body.user.status).toBe("active");
    await page.getByRole("button", { name: "Disable user" }).click();
    // The question closes and its outcome stays beside the button that now offers the way back.
    await page.locator(".form-ok", { hasText: "User disabled" }).waitFor();
    expect(await page.locator(".confirm").count()).toBe(0);
    // Focus is back on the button, relabelled once the re-rendered page arrives.
    await page.getByRole("button", { name: "Reactivate…" }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Reactivate…");
    await reload(page);
    expect(await page.locator(".facts").textContent()).toContain("Blocked: the user is disabled.");
    expect((await rest("/v1/integrations/acme-los/users/lo-1001", { key: state.key })).body.user.status).toBe(
      "disabled",
    );
    await screenshot(page, "07-user-disabled");
  });

  it("shows an import's per-row results and the site-account outbox", async () => {
    const users = [
      { external_user_id: "imp-1", email: "imp-1@example.test" },
      { external_user_id: "imp-2", email: "imp-2@example.test", team_external_id: "no-such-team" },
    ];
    const started = await rest("/v1/integrations/acme-los/user-imports", {
      method: "POST",
      key: state.key,
      headers: { "Idempotency-Key": "console-e2e-import" },
      body: JSON.stringify({ users }),
    });
    expect(started.status).toBe(202);
    const jobId = started.body.import.job_id as string;
    for (let i = 0; i < 100; i += 1) {
      if (
        (await rest(`/v1/integrations/acme-los/user-imports/${jobId}`, { key: state.key })).body.import.status ===
        "completed"
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await visit(page, `${service.consoleUrl}${state.integrationPath}/imports`);
    expect(await page.locator("table.table tbody tr").first().textContent()).toContain("2 of 2");
    await page.getByRole("link", { name: jobId }).click();
    await arrive(page, new RegExp(`/imports/${jobId}$`));
    const rows = await page.locator("table.table tbody tr").allTextContents();
    expect(rows[0]).toContain("imp-1");
    expect(rows[0]).toContain("Created");
    expect(rows[1]).toContain("imp-2");
    expect(rows[1]).toContain("Team not found");
    // The API's message is the reason, in the row itself; its code beside it, for an engineer.
    expect(rows[1]).toMatch(/Team not found: team no-such-team not found.*team_not_found/);
    await screenshot(page, "08-import");

    await page.getByRole("link", { name: "Notification outbox" }).click();
    await page.getByLabel("Recipient email").fill("lo-1002@example.test");
    await page.getByRole("button", { name: "Filter" }).click();
    await arrive(page, /\/outbox\?email=lo-1002%40example\.test$/);
    const outbox = await page.locator("table.table tbody tr").allTextContents();
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toContain("Password setup");
    expect(await page.getByRole("link", { name: "Password setup link" }).getAttribute("href")).toMatch(
      new RegExp(`^${service.apiUrl}/site/password-setup#token=`),
    );
    await screenshot(page, "09-outbox");
  });

  it("shows a key's conversations and their messages to support, read only", async () => {
    const chat = (await service.cli(
      "key:create",
      "--org",
      state.orgId as string,
      "--name",
      "lender chat",
      "--scopes",
      "chat:read,chat:write",
    )) as { id: string; key: string };
    const asked = await rest("/v1/messages", {
      method: "POST",
      key: chat.key,
      body: JSON.stringify({
        message: "What is the minimum down payment for an FHA loan?",
        user: { external_user_id: "lo-17" },
      }),
    });
    expect(asked.status).toBe(200);
    await visit(page, `${service.consoleUrl}/keys/${chat.id}`);
    expect(await page.locator("section", { hasText: "Conversations" }).last().textContent()).toContain(
      "1 conversation (0 in the embedded chat), 2 messages",
    );
    await page.getByRole("link", { name: asked.body.conversation_id }).click();
    await arrive(page, /\/conversations\/conv_/);
    const messages = await page.locator("ol.messages li").allTextContents();
    expect(messages).toHaveLength(2);
    expect(messages[0]).toContain("What is the minimum down payment for an FHA loan?");
    expect(messages[1]).toContain(asked.body.response.slice(0, 40));
    // The excerpts the answer cites, under its number; an API conversation has no loan or launch.
    expect(await page.getByTestId("conversation-sources").locator("li").first().textContent()).toContain(
      "Message 2, [1]",
    );
    expect(await page.locator("section", { hasText: "Loan and launch" }).last().textContent()).toContain(
      "Started through the API",
    );
    await screenshot(page, "10-conversation");
  });

  it("shows every change in the audit log, filterable by action in the URL", async () => {
    await page.getByRole("link", { name: "Audit log" }).click();
    await arrive(page, /\/audit$/);
    const log = (await page.locator("table.audit").textContent()) ?? "";
    for (const action of [
      "organization.create",
      "tenant.configure",
      "integration.create",
      "key.create",
      "partner_user.disable",
      "staff.sign_in",
    ])
      expect(log).toContain(action);
    expect(log).toContain(ADMIN.email);
    expect(log).not.toContain(state.key);
    await page.getByLabel("Action starts with").fill("partner_user.");
    await page.getByRole("button", { name: "Filter" }).click();
    await arrive(page, /action=partner_user\./);
    const rows = await page.locator("table.audit tbody tr").allTextContents();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain("acme-los/lo-1001");
    await screenshot(page, "11-audit-log");
  });

  it("revokes a key after a confirmation", async () => {
    await visit(page, `${service.consoleUrl}/organizations/${state.orgId}/keys`);
    await page.getByRole("link", { name: "directory" }).click();
    await arrive(page, /\/keys\/key_/);
    await screenshot(page, "12-key");
    await page.getByRole("button", { name: "Revoke key…" }).click();
    await page.getByRole("button", { name: "Revoke key", exact: true }).click();
    await page.locator(".form-ok", { hasText: "Key revoked" }).waitFor();
    // The page re-renders as a revoked key: no more actions, the status says so.
    await page.locator(".facts .badge", { hasText: "revoked" }).waitFor();
    expect(await page.getByRole("button", { name: "Revoke key…" }).count()).toBe(0);
    expect((await rest("/v1/me", { key: state.key })).status).toBe(401);
  });

  it("operates a lifecycle action from the keyboard alone", async () => {
    // The directory key is revoked by now: the REST checks use a read-only key of their own.
    const reader = (await service.cli(
      "key:create",
      "--org",
      state.orgId as string,
      "--name",
      "reader",
      "--scopes",
      "embed:users:read",
    )) as { key: string };
    state.readKey = reader.key;
    const statusOf = async () =>
      (await rest("/v1/integrations/acme-los/users/uw-2001", { key: reader.key })).body.user.status;
    await visit(page, `${service.consoleUrl}${state.integrationPath}/users/uw-2001`);
    // Tab from the top of the page until the action's button has focus.
    let reached = false;
    for (let presses = 0; presses < 40 && !reached; presses += 1) {
      await page.keyboard.press("Tab");
      reached = (await page.evaluate(() => document.activeElement?.textContent)) === "Disable…";
    }
    expect(reached).toBe(true);
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Cancel");
    await page.keyboard.press("Escape");
    expect(await page.getByRole("button", { name: "Disable user" }).count()).toBe(0);
    expect(await statusOf()).toBe("active");
    await page.getByRole("button", { name: "Disable…" }).focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Shift+Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Disable user");
    await page.keyboard.press("Enter");
    await page.locator(".form-ok", { hasText: "User disabled" }).waitFor();
    expect(await statusOf()).toBe("disabled");
  });

  it("deletes a user and reprovisions them as a new account generation, each after a confirmation", async () => {
    const userOf = async () =>
      (await rest("/v1/integrations/acme-los/users/uw-2001", { key: state.readKey })).body.user;
    const until = async (done: (user: UntypedJson) => boolean) => {
      for (let i = 0; i < 100 && !done(await userOf()); i += 1)
        await new Promise((resolve) => setTimeout(resolve, 150));
      expect(done(await userOf())).toBe(true);
    };
    await visit(page, `${service.consoleUrl}${state.integrationPath}/users/uw-2001`);
    await page.getByRole("button", { name: "Delete…" }).click();
    await page.getByLabel("Note (optional)").fill("left the lender");
    await page.getByRole("button", { name: "Delete user" }).click();
    await page.locator(".form-ok", { hasText: "Deletion started" }).waitFor();
    await until((user) => user.status === "deleted");
    await reload(page);
    await page.getByRole("button", { name: "Reprovision…" }).click();
    await page.getByLabel("Email").fill("uw-2001.back@example.test");
    await page.getByRole("button", { name: "Reprovision", exact: true }).click();
    // The outcome stays on screen although the section now offers other actions.
    await page.locator(".form-ok", { hasText: "Reprovision started" }).waitFor();
    await until((user) => user.status === "active" && user.account_generation === 2);
    await reload(page);
    expect(await page.locator(".facts").textContent()).toContain("Account generation 2");
    const operations = await page
      .locator("section", { hasText: "Lifecycle operations" })
      .last()
      .locator("tbody tr")
      .allTextContents();
    expect(operations.map((row) => /Reprovision|Deletion/.exec(row)?.[0])).toEqual(["Reprovision", "Deletion"]);
  });

  it("fits a laptop screen: no page scrolls sideways at 1280 pixels", async () => {
    const laptop = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const view = await laptop.newPage();
    await signIn(view, service.consoleUrl, ADMIN);
    await visit(view, `${service.consoleUrl}/organizations/${state.orgId}/keys`);
    const keyPath = await view.getByRole("link", { name: "directory" }).getAttribute("href");
    for (const path of [
      "/organizations",
      `/organizations/${state.orgId}`,
      `/organizations/${state.orgId}/integrations`,
      `/organizations/${state.orgId}/keys`,
      `${state.integrationPath}`,
      `${state.integrationPath}/users/lo-1001`,
      `${state.integrationPath}/teams`,
      `${state.integrationPath}/imports`,
      `${state.integrationPath}/settings`,
      `${keyPath}`,
      "/outbox",
      "/audit",
      "/staff",
      "/status",
    ]) {
      await visit(view, `${service.consoleUrl}${path}`);
      const width = await view.evaluate(() => document.documentElement.scrollWidth);
      expect(width, path).toBeLessThanOrEqual(1280);
    }
    await laptop.close();
  });

  it("invites a colleague with a link that works once; they choose a password and are signed in", async () => {
    await page.getByRole("link", { name: "Staff", exact: true }).click();
    await arrive(page, /\/staff$/);
    expect(await page.locator(`tr[data-staff="${ADMIN.email}"]`).textContent()).toContain("you");
    await page.getByLabel("Email").fill(VIEWER.email);
    await page.getByLabel("Role", { exact: true }).selectOption("viewer");
    await page.getByRole("button", { name: "Create invitation link" }).click();
    const secret = page.locator("[data-secret]");
    await secret.waitFor();
    const link = (await secret.textContent()) ?? "";
    expect(link).toMatch(new RegExp(`^${service.consoleUrl}/invite#token=[A-Za-z0-9_-]{40,}$`));
    await page.getByRole("button", { name: "Copy link" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await screenshot(page, "13-staff-invite");
    await reload(page);
    expect(await page.locator("[data-secret]").count()).toBe(0);
    expect(await page.locator("section", { hasText: "Pending invitations" }).textContent()).toContain(VIEWER.email);

    const colleagueContext = await browser.newContext();
    const colleague = await colleagueContext.newPage();
    await colleague.goto(link);
    await colleague.getByLabel("Password", { exact: true }).waitFor();
    // The token leaves the address bar as soon as the page has read it.
    expect(colleague.url()).toBe(`${service.consoleUrl}/invite`);
    expect(await colleague.getByLabel("Email").inputValue()).toBe(VIEWER.email);
    await colleague.getByLabel("Password", { exact: true }).fill("short");
    await colleague.getByLabel("Password again").fill("short");
    await colleague.getByRole("button", { name: "Create account and sign in" }).click();
    await expect(colleague.locator('[data-field-error="password"]').textContent()).resolves.toBe(
      "At least 12 characters.",
    );
    // Long enough is not enough: a common password is refused with the reason.
    await colleague.getByLabel("Password", { exact: true }).fill("qwertyuiop123");
    await colleague.getByLabel("Password again").fill("qwertyuiop123");
    await colleague.getByRole("button", { name: "Create account and sign in" }).click();
    await expect
      .poll(() => colleague.locator('[data-field-error="password"]').textContent())
      .toMatch(/^Too easy to guess \(this is similar to a commonly used password\)/);
    await colleague.getByLabel("Password", { exact: true }).fill(VIEWER.password);
    await colleague.getByLabel("Password again").fill("something else 1");
    await colleague.getByRole("button", { name: "Create account and sign in" }).click();
    await expect(colleague.locator('[data-field-error="confirm"]').textContent()).resolves.toBe(
      "The two passwords differ.",
    );
    expect(await colleague.locator("p.form-error").textContent()).toBe("Check the fields marked above.");
    await screenshot(colleague, "14-accept-invite");
    await colleague.getByLabel("Password again").fill(VIEWER.password);
    await colleague.getByRole("button", { name: "Create account and sign in" }).click();
    await arrive(colleague, /\/organizations$/);
    expect(await colleague.locator(".who").textContent()).toContain(`${VIEWER.email} Viewer`);

    const replay = await colleagueContext.newPage();
    await replay.goto(link);
    await expect(replay.locator("p.form-error").textContent()).resolves.toBe(
      "This invitation was already used; sign in instead.",
    );
    await replay.close();
    state.viewer = colleague;
  });

  it("gives viewers a read-only console", async () => {
    const viewer = state.viewer as Page;
    await visit(viewer, `${service.consoleUrl}/organizations`);
    await viewer.getByRole("link", { name: "Acme Lending" }).waitFor();
    expect(await viewer.getByRole("button", { name: "Create organization" }).count()).toBe(0);
    expect(await viewer.locator(".hint", { hasText: "read-only" }).count()).toBeGreaterThan(0);
    await visit(viewer, `${service.consoleUrl}${state.integrationPath}/users/lo-1002`);
    expect(await viewer.getByRole("button", { name: "Disable…" }).count()).toBe(0);
    await visit(viewer, `${service.consoleUrl}/staff`);
    expect(await viewer.getByRole("button", { name: "Create invitation link" }).count()).toBe(0);
  });

  it("disables a colleague after a confirmation: their session ends at once and they cannot sign in", async () => {
    await visit(page, `${service.consoleUrl}/staff`);
    const row = page.locator(`tr[data-staff="${VIEWER.email}"]`);
    await row.getByRole("button", { name: "Disable…" }).click();
    await row.getByRole("button", { name: "Disable account" }).click();
    await page.locator(".form-ok", { hasText: "signed out everywhere" }).waitFor();
    await reload(page);
    expect(await page.locator(`tr[data-staff="${VIEWER.email}"]`).textContent()).toContain("Disabled");
    await screenshot(page, "15-staff");

    const viewer = state.viewer as Page;
    await visit(viewer, `${service.consoleUrl}/organizations`);
    await arrive(viewer, /\/sign-in\?expired=1$/);
    await viewer.getByLabel("Email").fill(VIEWER.email);
    await viewer.getByLabel("Password").fill(VIEWER.password);
    await viewer.getByRole("button", { name: "Sign in" }).click();
    await expect(viewer.locator("p.form-error").textContent()).resolves.toBe(
      "This staff account is disabled; ask an admin.",
    );
    await viewer.context().close();

    await visit(page, `${service.consoleUrl}/audit`);
    const log = (await page.locator("table.audit").textContent()) ?? "";
    for (const action of ["staff.invite", "staff.invite_accept", "staff.disable"]) expect(log).toContain(action);
  });

  it("signs out", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await arrive(page, /\/sign-in$/);
    await visit(page, `${service.consoleUrl}/audit`);
    await arrive(page, /\/sign-in/);
  });

  // Last: it spends this address's sign-in budget for the rest of the window.
  it("a browser cannot pick its own address: a forged X-Forwarded-For does not escape the per-address limit", async () => {
    const forger = await browser.newContext();
    const page = await forger.newPage();
    let refused = false;
    for (let attempt = 0; attempt < 21 && !refused; attempt += 1) {
      await page.setExtraHTTPHeaders({ "X-Forwarded-For": `203.0.113.${attempt + 1}` });
      await visit(page, `${service.consoleUrl}/sign-in`);
      await page.getByLabel("Email").fill(`forger-${attempt}@example.com`);
      await page.getByLabel("Password").fill("a guess of mine");
      await Promise.all([
        page.waitForResponse((response) => response.request().method() === "POST"),
        page.getByRole("button", { name: "Sign in" }).click(),
      ]);
      await page.locator("p.form-error").waitFor();
      refused = /^Too many failed attempts/.test((await page.locator("p.form-error").textContent()) ?? "");
    }
    expect(refused).toBe(true);
    await forger.close();
  });
});
