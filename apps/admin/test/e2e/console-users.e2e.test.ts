import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { launchBrowser, screenshot } from "../support/browser";
import { arrive, restCall, signIn as signInAs, visit as visitPage } from "../support/console-pages";
import { startRunCommand, type RunningService } from "../support/run-command";

/**
 * Who the users are, in the console (issue 24, items 4, 5, 6 and 15): their names and emails,
 * sorting, adding and importing them, an import's reasons, the global search and the audit
 * log's details. In a real Chromium against the service as the run command starts it; staff
 * come from the CLI, users through the partner REST API.
 */
let service: RunningService;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const ADMIN = { email: "uma@example.com", password: "users admin 1" };
const VIEWER = { email: "val@example.com", password: "users viewer 1" };
const data = {} as { orgId: string; integrationId: string; key: string; keyId: string };
const SLUG = "bayview-los";

const rest = (url: string, init: RequestInit & { key?: string } = {}) => restCall(service.apiUrl, url, init);
const visit = (target: Page, url: string) => visitPage(target, `${service.consoleUrl}${url}`);
const until = async (done: () => Promise<boolean>) => {
  for (let i = 0; i < 100 && !(await done()); i += 1) await new Promise((resolve) => setTimeout(resolve, 150));
};

async function provision(externalUserId: string, email: string, name?: string) {
  const put = await rest(`/v1/integrations/${SLUG}/users/${externalUserId}`, {
    method: "PUT",
    key: data.key,
    body: JSON.stringify({ email, ...(name ? { name } : {}) }),
  });
  expect([201, 202]).toContain(put.status);
}

/** The text of one column of the page's first table, row by row. */
const column = (target: Page, header: string) =>
  target.evaluate((name) => {
    const table = document.querySelector("table.table");
    if (!table) return [];
    const index = [...table.querySelectorAll("thead th")].findIndex((th) => th.textContent?.trim() === name);
    if (index < 0) return [];
    return [...table.querySelectorAll("tbody tr")].map((row) => row.children[index]?.textContent?.trim() ?? "");
  }, header);

beforeAll(async () => {
  service = await startRunCommand();
  await service.cli("staff:create", "--email", ADMIN.email, "--password", ADMIN.password, "--role", "admin");
  await service.cli("staff:create", "--email", VIEWER.email, "--password", VIEWER.password, "--role", "viewer");
  data.orgId = ((await service.cli("org:create", "--name", "Bayview Lending")) as { id: string }).id;
  data.integrationId = (
    (await service.cli("integration:create", "--org", data.orgId, "--slug", SLUG)) as { id: string }
  ).id;
  const key = (await service.cli(
    "key:create",
    "--org",
    data.orgId,
    "--name",
    "nightly-sync",
    "--scopes",
    "embed:users:read,embed:users:write,embed:users:delete",
  )) as { id: string; key: string };
  Object.assign(data, { key: key.key, keyId: key.id });
  await provision("lo-b", "zed@bayview.example", "Zed Adams");
  await provision("lo-a", "amy@bayview.example", "Amy Young");
  await provision("lo-c", "mia@bayview.example", "Mia Stone");
  // More users whose email says "bayview" than the search shows of one kind, in one import.
  const users = Array.from({ length: 21 }, (_, n) => ({
    external_user_id: `bv-${String(n + 1).padStart(2, "0")}`,
    email: `bv-${n + 1}@bayview.example`,
  }));
  const imported = await rest(`/v1/integrations/${SLUG}/user-imports`, {
    method: "POST",
    key: data.key,
    headers: { "Idempotency-Key": "users-setup" },
    body: JSON.stringify({ users }),
  });
  expect(imported.status).toBe(202);
  await until(
    async () =>
      (await rest(`/v1/integrations/${SLUG}/user-imports/${imported.body.import.job_id}`, { key: data.key })).body
        .import.status === "completed",
  );
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: service.consoleUrl });
  page = await context.newPage();
  // A shared CI machine can be slow to answer; a missing message still fails in seconds, not minutes.
  page.setDefaultTimeout(30_000);
  await signInAs(page, service.consoleUrl, ADMIN);
  // The run command, a dozen CLI calls and a browser: minutes on a loaded 2-core machine.
}, 400_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

describe("import results (issue 24, item 5)", () => {
  it("a failed row says why in the row, and only users that exist are links", async () => {
    const started = await rest(`/v1/integrations/${SLUG}/user-imports`, {
      method: "POST",
      key: data.key,
      headers: { "Idempotency-Key": "users-5-import" },
      body: JSON.stringify({
        users: [
          { external_user_id: "imp-ok", email: "imp-ok@bayview.example" },
          { external_user_id: "imp-bad", email: "imp-bad@bayview.example", team_external_id: "no-such-team" },
        ],
      }),
    });
    expect(started.status).toBe(202);
    const jobId = started.body.import.job_id as string;
    await until(
      async () =>
        (await rest(`/v1/integrations/${SLUG}/user-imports/${jobId}`, { key: data.key })).body.import.status ===
        "completed",
    );
    await visit(page, `/integrations/${data.integrationId}/imports/${jobId}`);
    const bad = page.locator("table.table tbody tr", { hasText: "imp-bad" });
    expect(await bad.textContent()).toContain("Team not found: team no-such-team not found");
    expect(await bad.getByRole("link").count()).toBe(0);
    expect(await page.getByRole("link", { name: "imp-ok", exact: true }).getAttribute("href")).toBe(
      `/integrations/${data.integrationId}/users/imp-ok`,
    );
    await screenshot(page, "users-05-import-reasons");
  });
});

describe("the users list (issue 24, item 4)", () => {
  it("shows each user's name and email and sorts by external id, name, status or creation", async () => {
    await visit(page, `/integrations/${data.integrationId}`);
    const row = page.locator("table.table tbody tr", { hasText: "lo-b" });
    expect(await row.textContent()).toContain("Zed Adams");
    expect(await row.textContent()).toContain("zed@bayview.example");

    await page.getByLabel("Sort by").selectOption("name");
    await page.getByRole("button", { name: "Filter" }).click();
    await arrive(page, /sort=name/);
    expect((await column(page, "Name")).slice(0, 3)).toEqual(["Amy Young", "Mia Stone", "Zed Adams"]);
    await screenshot(page, "users-04-sorted-by-name");

    await page.getByLabel("Sort by").selectOption("external_id");
    await page.getByRole("button", { name: "Filter" }).click();
    await arrive(page, /sort=external_id/);
    const ids = await column(page, "External user id");
    expect(ids.slice(0, 2)).toEqual(["bv-01", "bv-02"]);
    expect(ids.filter((id) => id.startsWith("lo-"))).toEqual(["lo-a", "lo-b", "lo-c"]);

    await page.getByLabel("Sort by").selectOption("created");
    await page.getByRole("button", { name: "Filter" }).click();
    await arrive(page, /sort=created/);
    expect((await column(page, "External user id")).slice(0, 3)).toEqual(["lo-b", "lo-a", "lo-c"]);
  });

  it("an admin adds a user through the console, and the addition is audited", async () => {
    await visit(page, `/integrations/${data.integrationId}`);
    const form = page.getByRole("form", { name: "Add a user" });
    await form.getByLabel("External user id").fill("lo-new");
    await form.getByLabel("Email").fill("nia@bayview.example");
    await form.getByLabel("Name (optional)").fill("Nia New");
    await form.getByRole("button", { name: "Add user" }).click();
    await page.locator("p.form-ok", { hasText: "User lo-new added." }).waitFor();
    // The 26th user: on the list's second page, so found by its id.
    await visit(page, `/integrations/${data.integrationId}?q=lo-new`);
    expect(await page.locator("table.table tbody tr", { hasText: "lo-new" }).textContent()).toContain(
      "nia@bayview.example",
    );

    // Another user's email is refused beside the field, as PUT user refuses it.
    await form.getByLabel("External user id").fill("lo-other");
    await form.getByLabel("Email").fill("nia@bayview.example");
    await form.getByRole("button", { name: "Add user" }).click();
    await expect(page.locator('[data-field-error="email"]').textContent()).resolves.toMatch(/already has this email/);
    await screenshot(page, "users-04-add-user");

    await visit(page, "/audit?action=partner_user.create");
    expect(await page.locator("table.audit tbody tr").first().textContent()).toContain(`${SLUG}/lo-new`);
  });

  it("an admin imports a CSV: row errors name their line and start nothing; a good file starts the import", async () => {
    await visit(page, `/integrations/${data.integrationId}/imports`);
    const form = page.getByRole("form", { name: "Import users from a CSV file" });
    const csv = (text: string) => ({ name: "users.csv", mimeType: "text/csv", buffer: Buffer.from(text) });
    await form
      .getByLabel("CSV file")
      .setInputFiles(
        csv(
          "external_user_id,email,name\ncsv-1,csv-1@bayview.example,Cy One\ncsv-2,not-an-email,\n,csv-3@bayview.example,\n",
        ),
      );
    await form.getByRole("button", { name: "Start import" }).click();
    const errors = page.locator("[data-row-errors] li");
    await expect
      .poll(() => errors.allTextContents())
      .toEqual([expect.stringMatching(/^Line 3: email: /), expect.stringMatching(/^Line 4: external_user_id: /)]);
    expect(await page.locator("p.form-error").textContent()).toContain("Nothing was imported");
    await screenshot(page, "users-04-import-row-errors");

    await form
      .getByLabel("CSV file")
      .setInputFiles(
        csv('external_user_id,email,name\ncsv-1,csv-1@bayview.example,"One, Cy"\ncsv-2,csv-2@bayview.example,\n'),
      );
    await form.getByRole("button", { name: "Start import" }).click();
    await arrive(page, /\/imports\/imp_[A-Za-z0-9_]+$/);
    await expect
      .poll(async () => (await page.reload(), await page.locator("table.table tbody tr").allTextContents()), {
        timeout: 20_000,
      })
      .toEqual([expect.stringContaining("csv-1"), expect.stringContaining("csv-2")]);
    await visit(page, "/audit?action=partner_import.create");
    expect(await page.locator("table.audit tbody tr").count()).toBe(1);
  });

  it("a viewer sees the users but neither form", async () => {
    const viewer = await (await browser.newContext()).newPage();
    await signInAs(viewer, service.consoleUrl, VIEWER);
    await visit(viewer, `/integrations/${data.integrationId}`);
    expect(await viewer.locator("table.table tbody tr", { hasText: "lo-a" }).textContent()).toContain(
      "amy@bayview.example",
    );
    expect(await viewer.getByRole("form", { name: "Add a user" }).count()).toBe(0);
    await visit(viewer, `/integrations/${data.integrationId}/imports`);
    expect(await viewer.getByRole("form", { name: "Import users from a CSV file" }).count()).toBe(0);
    await viewer.context().close();
  });
});

describe("search (issue 24, item 6)", () => {
  it("the users filter refuses an email with a link to the console's search", async () => {
    await visit(page, `/integrations/${data.integrationId}?q=${encodeURIComponent("zed@bayview.example")}`);
    const link = page.getByRole("link", { name: "Search the console for zed@bayview.example" });
    expect(await link.getAttribute("href")).toBe(`/search?q=${encodeURIComponent("zed@bayview.example")}`);
    await link.click();
    await arrive(page, /\/search\?q=/);
    expect(await page.locator("table.table tbody tr", { hasText: "lo-b" }).count()).toBe(1);
  });

  it("ranks the organization before its users, keeps the query in the box and finds names", async () => {
    await visit(page, "/organizations");
    await page.getByLabel("Search", { exact: true }).fill("Bayview");
    await page.getByLabel("Search", { exact: true }).press("Enter");
    await arrive(page, /\/search\?q=Bayview$/);
    const headings = await page.locator("main section.panel h2").allTextContents();
    expect(headings[0]).toBe("Organizations");
    expect(headings.indexOf("Organizations")).toBeLessThan(headings.indexOf("Users"));
    expect(await page.getByLabel("Search", { exact: true }).inputValue()).toBe("Bayview");
    await screenshot(page, "users-06-search-ranked");

    await visit(page, `/search?q=${encodeURIComponent("Amy Young")}`);
    expect(await page.locator("table.table tbody tr", { hasText: "lo-a" }).count()).toBe(1);
    await visit(page, "/search?q=nightly-sync");
    expect(await page.getByRole("link", { name: "nightly-sync" }).getAttribute("href")).toBe(`/keys/${data.keyId}`);
    expect((await page.locator("main section.panel h2").allTextContents())[0]).toBe("API keys");
  });

  it("/ and Ctrl+K focus the search box", async () => {
    await visit(page, "/organizations");
    await page.locator("body").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("/");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("global-search");
    expect(await page.getByLabel("Search", { exact: true }).inputValue()).toBe("");
    await page.locator("body").click({ position: { x: 5, y: 5 } });
    expect(await page.evaluate(() => document.activeElement?.id)).not.toBe("global-search");
    await page.keyboard.press("Control+k");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("global-search");
  });
});

describe("audit entries (issue 24, item 15)", () => {
  it("an override shows old → new values, its operation id linked and copyable, labels unbroken and the organization", async () => {
    await visit(page, `/integrations/${data.integrationId}/users/lo-c`);
    await page.getByRole("button", { name: "Override profile…" }).click();
    await page.getByLabel("New email").fill("mia.stone@bayview.example");
    await page.getByLabel("New name").fill("Mia Stone-Hill");
    await page.getByRole("textbox", { name: "Reason" }).fill("Married; ticket 4411");
    await page.getByRole("button", { name: "Apply override" }).click();
    await page.locator("p.form-ok").waitFor();

    await visit(page, "/audit?action=partner_user.profile_override");
    const entry = page.locator("table.audit tbody tr").first();
    const text = (await entry.textContent()) ?? "";
    expect(text).toContain("mia@bayview.example → mia.stone@bayview.example");
    expect(text).toContain("Mia Stone → Mia Stone-Hill");
    expect(text).toContain("Bayview Lending");
    const operation = entry.locator("a[data-operation-id]");
    const operationId = (await operation.getAttribute("data-operation-id")) ?? "";
    expect(operationId).toMatch(/^op_/);
    expect(await operation.getAttribute("href")).toBe(`/integrations/${data.integrationId}/users/lo-c#${operationId}`);
    await entry.getByRole("button", { name: `Copy ${operationId}` }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(operationId);
    // No label is broken inside a word: each word of each label sits on one line.
    const broken = await page.evaluate(() =>
      [...document.querySelectorAll("table.audit dl.details dt")].flatMap((dt) => {
        const node = dt.firstChild;
        if (!node || node.nodeType !== Node.TEXT_NODE) return [];
        const textValue = node.textContent ?? "";
        const words: string[] = [];
        for (const match of textValue.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
          if (lines.size > 1) words.push(match[0]);
        }
        return words;
      }),
    );
    expect(broken).toEqual([]);
    await screenshot(page, "users-15-audit-override");
  });

  it("every audit target names its organization", async () => {
    await visit(page, "/audit");
    const targets = await page.locator("table.audit tbody tr").evaluateAll((rows) =>
      rows.map((row) => ({
        action: row.querySelector("td:nth-child(3) code")?.textContent ?? "",
        target: row.querySelector("td:nth-child(4)")?.textContent ?? "",
      })),
    );
    const scoped = targets.filter((entry) => /^(partner_user|partner_import|key|integration)\./.test(entry.action));
    expect(scoped.length).toBeGreaterThan(0);
    for (const entry of scoped) expect(entry.target, entry.action).toContain("Bayview Lending");
  });

  it("the user's page follows a running operation to its end without a reload", async () => {
    await visit(page, `/integrations/${data.integrationId}/users/bv-21`);
    await page.getByRole("button", { name: "Delete…" }).click();
    await page.getByRole("button", { name: "Delete user" }).click();
    await page.locator("p.form-ok", { hasText: "Deletion started" }).waitFor();
    const startedAt = await page.evaluate(() => performance.timeOrigin);
    await expect
      .poll(
        () =>
          page.locator("section.panel", { hasText: "Lifecycle operations" }).locator("tbody tr").first().textContent(),
        { timeout: 30_000 },
      )
      .toContain("Completed");
    // The same document: it was refreshed in place, not reloaded.
    expect(await page.evaluate(() => performance.timeOrigin)).toBe(startedAt);
  });
});
