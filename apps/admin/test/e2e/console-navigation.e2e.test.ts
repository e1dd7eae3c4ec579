import path from "node:path";
import pg from "pg";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startEmbeddedPostgres } from "@mga/core/db";

import { launchBrowser, screenshot, SCREENSHOTS } from "../support/browser";
import { arrive, restCall, signIn as signInAs, visit as visitPage } from "../support/console-pages";
import { ROOT, startRunCommand, type RunningService } from "../support/run-command";

/**
 * Finding one's way in the staff console, in a real browser against the run command's
 * service: the global search, breadcrumbs and copyable ids, renaming and deleting
 * organizations, one pagination everywhere, partial filters, a readable audit log, the
 * not-found and loading states inside the console's frame, and read-only fields for viewers.
 * Staff come from the CLI; the data comes through the REST API with a key.
 */
let service: RunningService;
/** The service's embedded PostgreSQL, joined through its data directory (as the CLI does). */
let databaseUrl: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const ADMIN = { email: "nadia@example.com", password: "admin password 1" };
const VIEWER = { email: "victor@example.com", password: "viewer password 1" };
const data = {} as {
  orgId: string;
  integrationId: string;
  key: string;
  keyId: string;
  lastFour: string;
  conversationId: string;
  operationId: string;
  jobId: string;
};

const rest = (url: string, init: RequestInit & { key?: string } = {}) => restCall(service.apiUrl, url, init);
const visit = (target: Page, url: string) => visitPage(target, `${service.consoleUrl}${url}`);
const signIn = (target: Page, who: { email: string; password: string }) => signInAs(target, service.consoleUrl, who);
const until = async (done: () => Promise<boolean>) => {
  for (let i = 0; i < 100 && !(await done()); i += 1) await new Promise((resolve) => setTimeout(resolve, 150));
};
const crumbs = (target: Page) => target.getByRole("navigation", { name: "Breadcrumb" }).locator("li").allTextContents();

beforeAll(async () => {
  service = await startRunCommand();
  databaseUrl = (await startEmbeddedPostgres({ dataDir: path.join(service.dataDir, "postgres"), database: "mga" })).url;
  await service.cli("staff:create", "--email", ADMIN.email, "--password", ADMIN.password, "--role", "admin");
  await service.cli("staff:create", "--email", VIEWER.email, "--password", VIEWER.password, "--role", "viewer");
  const org = (await service.cli("org:create", "--name", "Beacon Lending")) as { id: string };
  data.orgId = org.id;
  await service.cli("tenant:configure", "--org", org.id, "--file", path.join(ROOT, "examples/tenant.json"));
  data.integrationId = (
    (await service.cli("integration:create", "--org", org.id, "--slug", "beacon-los")) as { id: string }
  ).id;
  const key = (await service.cli(
    "key:create",
    "--org",
    org.id,
    "--name",
    "directory",
    "--scopes",
    "embed:users:read,embed:users:write,embed:users:delete,chat:read,chat:write",
  )) as {
    id: string;
    key: string;
    last_four: string;
  };
  Object.assign(data, { key: key.key, keyId: key.id, lastFour: key.last_four });
  // 27 users: more than one page of 25.
  for (let n = 1; n <= 27; n += 1) {
    const id = `lo-${String(n).padStart(3, "0")}`;
    expect(
      (
        await rest(`/v1/integrations/beacon-los/users/${id}`, {
          method: "PUT",
          key: key.key,
          body: JSON.stringify({ email: `${id}@Beacon.Example` }),
        })
      ).status,
    ).toBe(201);
  }
  const deletion = await rest("/v1/integrations/beacon-los/users/lo-027/deletions", {
    method: "POST",
    key: key.key,
    headers: { "Idempotency-Key": "nav-delete" },
    body: "{}",
  });
  expect(deletion.status).toBe(202);
  data.operationId = deletion.body.operation.operation_id;
  const started = await rest("/v1/integrations/beacon-los/user-imports", {
    method: "POST",
    key: key.key,
    headers: { "Idempotency-Key": "nav-import" },
    body: JSON.stringify({
      users: [
        { external_user_id: "imp-ok", email: "imp-ok@beacon.example" },
        { external_user_id: "imp-bad", email: "imp-bad@beacon.example", team_external_id: "no-such-team" },
      ],
    }),
  });
  expect(started.status).toBe(202);
  data.jobId = started.body.import.job_id;
  await until(
    async () =>
      (await rest(`/v1/integrations/beacon-los/user-imports/${data.jobId}`, { key: key.key })).body.import.status ===
      "completed",
  );
  const asked = await rest("/v1/messages", {
    method: "POST",
    key: key.key,
    body: JSON.stringify({
      message: "What is the minimum down payment for an FHA loan?",
      user: { external_user_id: "lo-001" },
    }),
  });
  expect(asked.status).toBe(200);
  data.conversationId = asked.body.conversation_id;

  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: service.consoleUrl });
  page = await context.newPage();
  await signIn(page, ADMIN);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

describe("console navigation", () => {
  it("searches from the header: a user by email in any case, a key by last four, a conversation and an operation by id", async () => {
    const search = page.getByRole("search", { name: "Search the console" });
    await search.getByLabel("Search").fill("LO-002@beacon.EXAMPLE");
    await search.getByRole("button", { name: "Search" }).click();
    await arrive(page, /\/search\?q=/);
    const users = page.getByRole("region", { name: "Users" });
    expect(await users.locator("tbody tr").allTextContents()).toEqual([expect.stringContaining("lo-002")]);
    expect(await users.getByRole("link", { name: "lo-002" }).getAttribute("href")).toBe(
      `/integrations/${data.integrationId}/users/lo-002`,
    );
    expect(await users.textContent()).toContain("Beacon Lending");
    expect(await page.getByRole("region", { name: "API keys" }).textContent()).toContain("No API keys match.");
    await screenshot(page, "nav-01-search-user");

    await visit(page, `/search?q=${encodeURIComponent(`…${data.lastFour}`)}`);
    expect(
      await page
        .getByRole("region", { name: "API keys" })
        .getByRole("link", { name: "directory" })
        .getAttribute("href"),
    ).toBe(`/keys/${data.keyId}`);
    await visit(page, `/search?q=${data.conversationId}`);
    expect(
      await page.getByRole("region", { name: "Conversations" }).getByRole("link").first().getAttribute("href"),
    ).toBe(`/keys/${data.keyId}/conversations/${data.conversationId}`);
    await visit(page, `/search?q=${data.operationId}`);
    const operations = page.getByRole("region", { name: "Lifecycle operations" });
    expect(await operations.textContent()).toContain("deletion");
    expect(await operations.getByRole("link", { name: "lo-027" }).getAttribute("href")).toBe(
      `/integrations/${data.integrationId}/users/lo-027`,
    );
    await screenshot(page, "nav-02-search-operation");

    await visit(page, "/search?q=nothing-like-this");
    expect(await page.locator("p.empty").first().textContent()).toBe("Nothing matches “nothing-like-this”.");
    await screenshot(page, "nav-03-search-no-match");
  });

  it("shows the organization in breadcrumbs below it, with a copy button beside every id", async () => {
    await visit(page, `/integrations/${data.integrationId}/users/lo-001`);
    expect(await crumbs(page)).toEqual([
      "Organizations",
      "Beacon Lending",
      "Integrations",
      "beacon-los",
      "Users",
      "lo-001",
    ]);
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Beacon Lending" }).click();
    await arrive(page, new RegExp(`/organizations/${data.orgId}$`));
    expect(await crumbs(page)).toEqual(["Organizations", "Beacon Lending"]);
    await page.getByRole("button", { name: `Copy ${data.orgId}` }).click();
    await page.locator(".copy-status", { hasText: "Copied to the clipboard." }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(data.orgId);
    await screenshot(page, "nav-04-organization");

    for (const [url, expected] of [
      [`/keys/${data.keyId}`, ["Organizations", "Beacon Lending", "API keys", "directory"]],
      [
        `/keys/${data.keyId}/conversations/${data.conversationId}`,
        ["Organizations", "Beacon Lending", "API keys", "directory", "Conversation"],
      ],
      [
        `/integrations/${data.integrationId}/imports/${data.jobId}`,
        ["Organizations", "Beacon Lending", "Integrations", "beacon-los", "Imports", `Import ${data.jobId}`],
      ],
      [`/organizations/${data.orgId}/keys`, ["Organizations", "Beacon Lending", "API keys"]],
    ] as const) {
      await visit(page, url);
      expect(await crumbs(page), url).toEqual(expected);
    }
    await visit(page, `/keys/${data.keyId}`);
    expect(await page.getByRole("button", { name: `Copy ${data.keyId}` }).count()).toBe(1);
    await screenshot(page, "nav-05-key");
    await visit(page, `/keys/${data.keyId}/conversations/${data.conversationId}`);
    expect(await page.getByRole("button", { name: `Copy ${data.conversationId}` }).count()).toBe(1);
    await visit(page, `/integrations/${data.integrationId}/users/lo-027`);
    expect(await page.getByRole("button", { name: `Copy ${data.operationId}` }).count()).toBe(1);
    expect(await page.getByRole("button", { name: `Copy ${data.integrationId}` }).count()).toBe(1);
  });

  it("renames an organization, says why one in use cannot be deleted, and deletes an empty one", async () => {
    await visit(page, `/organizations/${data.orgId}`);
    await page.getByLabel("Organization name").fill("Beacon Home Lending");
    await page.getByRole("button", { name: "Rename" }).click();
    await expect(page.locator("p.form-ok").first().textContent()).resolves.toBe("Organization renamed.");
    await page.locator("h1", { hasText: "Beacon Home Lending" }).waitFor();
    expect(await crumbs(page)).toEqual(["Organizations", "Beacon Home Lending"]);
    // Delete is offered only when it can succeed; otherwise the page says what blocks it (issue 24 item 3).
    expect(await page.getByRole("button", { name: "Delete organization…" }).count()).toBe(0);
    await expect(page.locator("[data-deletion-blocked]").textContent()).resolves.toContain(
      "Beacon Home Lending cannot be deleted yet.",
    );
    expect(await page.locator("[data-deletion-blocked] li").first().textContent()).toMatch(
      /^\d+ active API keys?: revoke/,
    );
    await screenshot(page, "nav-06-organization-delete-refused");

    const empty = (await service.cli("org:create", "--name", "Empty Lending")) as { id: string };
    await visit(page, `/organizations/${empty.id}`);
    await page.getByRole("button", { name: "Delete organization…" }).click();
    await page.getByRole("button", { name: "Delete organization", exact: true }).click();
    await arrive(page, /\/organizations\?deleted=/);
    expect(await page.getByRole("link", { name: "Empty Lending" }).count()).toBe(0);
    await visit(page, "/audit");
    const log = (await page.locator("table.audit").textContent()) ?? "";
    expect(log).toContain("Renamed the organization");
    expect(log).toContain("Deleted the organization");
  });

  it("pages every list with one pagination: 1–25 of N, Next, Previous", async () => {
    // Users not deleted, as the partner API counts them.
    const total = (await rest("/v1/integrations/beacon-los/users", { key: data.key })).body.counts.total as number;
    expect(total).toBeGreaterThan(25);
    await visit(page, `/integrations/${data.integrationId}`);
    const pager = page.getByRole("navigation", { name: "Pages" });
    expect(await pager.locator(".pager-range").textContent()).toBe(`1–25 of ${total}`);
    expect(await pager.getByText("Previous").getAttribute("aria-disabled")).toBe("true");
    await pager.getByRole("link", { name: "Next" }).click();
    await arrive(page, /cursor=/);
    expect(await pager.locator(".pager-range").textContent()).toBe(`26–${total} of ${total}`);
    expect(await page.locator("table.table tbody tr").count()).toBe(total - 25);
    await screenshot(page, "nav-07-users-page-2");
    await pager.getByRole("link", { name: "Previous" }).click();
    await arrive(page, new RegExp(`/integrations/${data.integrationId}$`));
    expect(await pager.locator(".pager-range").textContent()).toBe(`1–25 of ${total}`);
    // The same wording on the other lists.
    for (const url of [
      "/audit",
      "/outbox",
      `/integrations/${data.integrationId}/imports`,
      `/integrations/${data.integrationId}/teams`,
    ]) {
      await visit(page, url);
      expect(await page.getByRole("navigation", { name: "Pages" }).locator(".pager-range").textContent(), url).toMatch(
        /^(1–\d+ of \d+|0 of 0)$/,
      );
    }
  });

  it("filters the outbox by part of the email and the audit log by part of the actor, any case; shows an import's failed rows only", async () => {
    await visit(page, "/outbox");
    await page.getByLabel("Recipient email contains").fill("LO-00");
    await page.getByRole("button", { name: "Filter" }).click();
    await arrive(page, /\/outbox\?email=LO-00/);
    const recipients = await page.locator("table.table tbody tr td:first-child").allTextContents();
    expect(recipients).toHaveLength(9);
    expect(recipients.every((recipient) => recipient.startsWith("lo-00"))).toBe(true);
    expect(await page.locator(".pager-range").textContent()).toBe("1–9 of 9");
    await screenshot(page, "nav-08-outbox-filtered");

    await visit(page, "/audit");
    await page.getByLabel("Actor contains").fill("NADIA@");
    await page.getByRole("button", { name: "Filter" }).click();
    await arrive(page, /\/audit\?actor=NADIA/);
    const actors = await page.locator("table.audit tbody tr td:nth-child(2)").allTextContents();
    expect(actors.length).toBeGreaterThan(0);
    expect(actors.every((actor) => actor === ADMIN.email)).toBe(true);

    await visit(page, `/integrations/${data.integrationId}/imports/${data.jobId}`);
    expect(await page.locator("table.table tbody tr").count()).toBe(2);
    await page.getByRole("link", { name: "Failed only (1)" }).click();
    await arrive(page, /failed=1/);
    const rows = await page.locator("table.table tbody tr").allTextContents();
    expect(rows).toEqual([expect.stringContaining("imp-bad")]);
    await screenshot(page, "nav-09-import-failed-only");
  });

  it("makes the audit log readable: actions and sign-in failures in words, labelled details, targets as links, dates on one line", async () => {
    const stranger = await browser.newContext();
    const guesser = await stranger.newPage();
    await visit(guesser, "/sign-in");
    for (let attempt = 0; attempt < 6; attempt += 1) {
      await guesser.getByLabel("Email").fill("locked-out@example.com");
      await guesser.getByLabel("Password").fill(`guess number ${attempt}`);
      await Promise.all([
        guesser.waitForResponse((response) => response.request().method() === "POST"),
        guesser.getByRole("button", { name: "Sign in" }).click(),
      ]);
      await guesser.locator("p.form-error").waitFor();
    }
    await stranger.close();

    await visit(page, "/audit?actor=locked-out");
    const rows = await page.locator("table.audit tbody tr").allTextContents();
    expect(rows.some((row) => row.includes("Sign-in failed: wrong email or password"))).toBe(true);
    expect(rows.some((row) => row.includes("Sign-in locked after repeated failures"))).toBe(true);
    await screenshot(page, "nav-10-audit-sign-ins");

    await visit(page, "/audit?action=organization.rename");
    const entry = page.locator("table.audit tbody tr").first();
    expect(await entry.locator("dl.details dt").allTextContents()).toEqual(["From", "To"]);
    expect(await entry.locator("dl.details dd").allTextContents()).toEqual(["Beacon Lending", "Beacon Home Lending"]);
    expect(await entry.getByRole("link").first().getAttribute("href")).toBe(`/organizations/${data.orgId}`);
    const when = entry.locator("td").first();
    const lineHeight = Number.parseFloat(await when.evaluate((cell) => getComputedStyle(cell).lineHeight));
    expect((await when.boundingBox())?.height ?? 0).toBeLessThan(lineHeight * 2 + 16);
    expect(await when.evaluate((cell) => getComputedStyle(cell).whiteSpace)).toBe("nowrap");
    await screenshot(page, "nav-11-audit-readable");
  });

  it("renders not-found pages and loading skeletons inside the console's frame", async () => {
    for (const url of [
      "/organizations/org_doesnotexist",
      "/keys/key_doesnotexist",
      `/integrations/${data.integrationId}/users/nobody-here`,
      "/no-such-page",
    ]) {
      // A page that turns out not to exist stops streaming: wait for what it shows, not for settled().
      await page.goto(`${service.consoleUrl}${url}`);
      await page.getByRole("heading", { name: "Not found" }).waitFor();
      expect(await page.getByRole("search", { name: "Search the console" }).count(), url).toBe(1);
      expect(await page.getByRole("navigation", { name: "Sections" }).first().count(), url).toBe(1);
    }
    await screenshot(page, "nav-12-not-found");
    // While a page's data is on its way the frame stays, with a skeleton where the page will be.
    // The audit log's data is held back in the database: its table is locked until checked. (Held
    // back in the browser instead, the navigation showed no skeleton unless the router's prefetch
    // of the page had landed first, which a loaded machine does not promise.)
    await visit(page, "/organizations");
    const lock = new pg.Client({ connectionString: databaseUrl });
    await lock.connect();
    try {
      await lock.query("BEGIN");
      await lock.query("LOCK TABLE audit_log IN ACCESS EXCLUSIVE MODE");
      await page.getByRole("navigation", { name: "Sections" }).first().getByRole("link", { name: "Audit log" }).click();
      await page.locator(".loading.skeleton").waitFor();
      expect(await page.getByRole("search", { name: "Search the console" }).count()).toBe(1);
      expect(await page.locator("table.audit").count()).toBe(0);
      // Taken as is (screenshot() would wait for the page to settle, which is held back here).
      await page.screenshot({ path: path.join(SCREENSHOTS, "nav-14-loading-skeleton.png"), fullPage: true });
    } finally {
      await lock.query("ROLLBACK").catch(() => {});
      await lock.end();
    }
    await page.locator("table.audit").waitFor();
  });

  it("shows viewers read-only fields, not inputs that look editable", async () => {
    const viewerContext = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const viewer = await viewerContext.newPage();
    await signIn(viewer, VIEWER);
    await visit(viewer, `/organizations/${data.orgId}`);
    expect(await viewer.getByLabel("Organization name").count()).toBe(0);
    expect(await viewer.getByRole("button", { name: "Delete organization…" }).count()).toBe(0);
    const clientName = viewer.getByLabel("Client name");
    expect(await clientName.isEditable()).toBe(false);
    const look = await clientName.evaluate((input) => {
      const style = getComputedStyle(input);
      return { border: style.borderTopStyle, background: style.backgroundColor };
    });
    expect(look).toEqual({ border: "none", background: "rgba(0, 0, 0, 0)" });
    await screenshot(viewer, "nav-13-viewer-read-only");
    await viewerContext.close();
  });
});
