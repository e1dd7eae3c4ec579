import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { launchBrowser, screenshot, settled } from "../support/browser";
import { arrive, visit } from "../support/console-pages";
import { ROOT, startRunCommand, type RunningService } from "../support/run-command";
import type { UntypedJson } from "../support/untyped-json";

/**
 * The README's walkthrough, the parts a newcomer does in a browser (scripts/readme-smoke.sh runs
 * its shell blocks): the provisioned user's password-setup link found on the console's
 * Notification outbox page (signed in as an admin), the password chosen there, then the sample
 * partner page on localhost framing a launch URL of 127.0.0.1, whose Sign in button opens the
 * site login popup that takes the provisioned email and that password; the chat then answers.
 * Staff then find that conversation on the user's console page and read its sources, loan and launch.
 */
let service: RunningService;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const ADMIN = { email: "readme-admin@example.com", password: "readme admin password 1" };
const USER = { externalId: "lo-2001", email: "lo2001@example.test", password: "a newcomer's passphrase 42" };
const state: {
  orgId?: string;
  integrationId?: string;
  directoryKey?: string;
  launchKey?: string;
  launchKeyId?: string;
} = {};

async function rest(path: string, key: string, init: { method: string; body: unknown }) {
  const response = await fetch(`${service.apiUrl}${path}`, {
    method: init.method,
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` },
    body: JSON.stringify(init.body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, UntypedJson> };
}

beforeAll(async () => {
  service = await startRunCommand();
  // The README's CLI steps: an organization, its tenant, the integration, a directory key and a bound launch key.
  const org = (await service.cli("org:create", "--name", "Acme Lending")) as { id: string };
  state.orgId = org.id;
  await service.cli("tenant:configure", "--org", org.id, "--file", path.join(ROOT, "examples/tenant.json"));
  state.integrationId = (
    (await service.cli("integration:create", "--org", org.id, "--slug", "acme-los")) as { id: string }
  ).id;
  const directory = (await service.cli(
    "key:create",
    "--org",
    org.id,
    "--name",
    "directory",
    "--scopes",
    "embed:users:read,embed:users:write",
  )) as { key: string };
  state.directoryKey = directory.key;
  const launcher = (await service.cli(
    "key:create",
    "--org",
    org.id,
    "--name",
    "launcher",
    "--scopes",
    "embed:launch",
  )) as { id: string; key: string };
  state.launchKey = launcher.key;
  state.launchKeyId = launcher.id;
  await service.cli("key:bind-launch", "--id", launcher.id, "--integration", "acme-los");
  await service.cli("staff:create", "--email", ADMIN.email, "--password", ADMIN.password, "--role", "admin");
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

describe("the README's walkthrough in a browser", () => {
  it("finds the provisioned user's password-setup link on the console's outbox page, and the user chooses a password with it", async () => {
    const created = await rest(`/v1/integrations/acme-los/users/${USER.externalId}`, state.directoryKey ?? "", {
      method: "PUT",
      body: { email: USER.email },
    });
    expect(created.status).toBe(201);

    await page.goto(`${service.consoleUrl}/sign-in`);
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/organizations$/);
    await page.getByRole("link", { name: "Notification outbox" }).click();
    await page.getByLabel("Recipient email").fill(USER.email);
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/\/outbox\?email=/);
    await settled(page);
    const link = page.getByRole("link", { name: "password setup link" });
    expect(await link.count()).toBe(1);
    await screenshot(page, "readme-01-outbox");

    await link.click();
    await page.waitForURL(new RegExp(`^${service.apiUrl}/site/password-setup`));
    await page.getByLabel("New password").fill(USER.password);
    await screenshot(page, "readme-02-password-setup");
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByRole("heading", { name: "Password set" }).waitFor();
    await screenshot(page, "readme-03-password-set");
  });

  it("opens the sample partner page on localhost with the encoded launch URL, signs in through the popup with the README's credentials, and gets an answer", async () => {
    const launch = await rest("/v1/embed-sessions", state.launchKey ?? "", {
      method: "POST",
      body: {
        integration: "acme-los",
        user: { external_user_id: USER.externalId },
        loan_context: { external_loan_id: "LN-1", program: "fha" },
      },
    });
    expect(launch.status).toBe(201);
    // The README's DEMO_URL: another origin (localhost) than the launch URL's (127.0.0.1).
    const demoUrl = `${service.apiUrl.replace("127.0.0.1", "localhost")}/embed/demo-partner?launch=${encodeURIComponent(launch.body.launch_url)}`;
    await page.goto(demoUrl);
    await page.getByRole("heading", { name: "Sample partner LOS: loan file" }).waitFor();
    const frame = page.frameLocator("iframe[title='Guideline assistant']");
    await frame.getByRole("button", { name: "Sign in" }).waitFor();
    await screenshot(page, "readme-04-demo-partner-sign-in");

    const [popup] = await Promise.all([
      context.waitForEvent("page"),
      frame.getByRole("button", { name: "Sign in" }).click(),
    ]);
    await popup.getByLabel("Email").fill(USER.email);
    await popup.getByLabel("Password").fill(USER.password);
    await screenshot(popup, "readme-05-site-login");
    await popup.getByRole("button", { name: "Sign in" }).click();
    await popup.waitForEvent("close", { timeout: 10_000 });

    await frame.getByPlaceholder("Ask about a guideline…").fill("What is the minimum down payment for an FHA loan?");
    await frame.getByRole("button", { name: "Send" }).click();
    const answer = frame.locator(".msg.assistant[data-complete='1']");
    await answer.waitFor({ timeout: 20_000 });
    expect(await answer.textContent()).toContain("3.5 percent");
    await screenshot(page, "readme-06-chat-answer");
  });

  it("shows staff that conversation on the user's page, and its sources, loan and launch in the conversation view", async () => {
    await visit(page, `${service.consoleUrl}/integrations/${state.integrationId}/users/${USER.externalId}`);
    const conversations = page.locator("section", { hasText: "Conversations" }).last();
    const rows = await conversations.locator("table.table tbody tr").allTextContents();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain("LN-1");
    expect(rows[0]).toContain("launcher");
    expect(await conversations.textContent()).toContain("1–1 of 1");
    await screenshot(page, "readme-07-user-conversations");

    await conversations.locator("table.table tbody tr a").first().click();
    await arrive(page, new RegExp(`/keys/${state.launchKeyId}/conversations/conv_`));
    const loan = (await page.getByTestId("conversation-loan").textContent()) ?? "";
    expect(loan).toContain("LN-1");
    expect(loan).toContain("fha");
    const launch = (await page.getByTestId("conversation-launch").textContent()) ?? "";
    expect(launch).toMatch(/lch_/);
    expect(launch).toContain("acme-los");
    expect(launch).toContain(USER.externalId);
    const sources = await page.getByTestId("conversation-sources").locator("li").allTextContents();
    expect(sources.length).toBeGreaterThan(0);
    expect(sources[0]).toContain("Message 2, [1]");
    expect(sources.join(" ")).toContain("3.5 percent");
    await screenshot(page, "readme-08-conversation-origin");
  });
});
