import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { launchBrowser, screenshot } from "../support/browser";
import { restCall, signIn as signInAs, visit as visitPage } from "../support/console-pages";
import { ROOT, startRunCommand, type RunningService } from "../support/run-command";

/**
 * Usage and the request log in a real browser against the run command's service (issue 26):
 * requests made with a key show up, counted, on the organization's and the key's usage pages and
 * in the request logs, a request is found by its id from the header search, and every page fits
 * a laptop (1280 px) and a phone (390 px) without scrolling sideways.
 */
let service: RunningService;
let browser: Browser;
const ADMIN = { email: "uma@example.com", password: "admin password 1" };
const data = {} as { orgId: string; keyId: string; key: string; requestIds: string[]; conversationId: string };
const WIDTHS = [1280, 390] as const;

const rest = (url: string, init: RequestInit & { key?: string } = {}) => restCall(service.apiUrl, url, init);

beforeAll(async () => {
  service = await startRunCommand();
  await service.cli("staff:create", "--email", ADMIN.email, "--password", ADMIN.password, "--role", "admin");
  const org = (await service.cli("org:create", "--name", "Usage Lending")) as { id: string };
  data.orgId = org.id;
  await service.cli("tenant:configure", "--org", org.id, "--file", path.join(ROOT, "examples/tenant.json"));
  const key = (await service.cli(
    "key:create",
    "--org",
    org.id,
    "--name",
    "usage reader",
    "--scopes",
    "chat:read,chat:write,sources:read",
  )) as { id: string; key: string };
  Object.assign(data, { key: key.key, keyId: key.id, requestIds: [] });
  // 5 × GET /v1/me, 1 answer, 1 refusal (unknown conversation): 7 requests.
  for (let i = 0; i < 5; i += 1) data.requestIds.push((await rest("/v1/me", { key: key.key })).body.request_id);
  const asked = await rest("/v1/messages", {
    method: "POST",
    key: key.key,
    body: JSON.stringify({
      message: "What is the minimum down payment for an FHA loan?",
      user: { external_user_id: "lo-1" },
    }),
  });
  expect(asked.status).toBe(200);
  data.conversationId = asked.body.conversation_id;
  data.requestIds.push(asked.body.request_id);
  const missing = await rest("/v1/conversations/conv_doesnotexist", { key: key.key });
  expect(missing.status).toBe(404);
  // Written within 5 s of the requests (the buffer's flush; a request during a flush waits for the next).
  // Not polled through /v1/usage: each poll would be a request of its own.
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  browser = await launchBrowser();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

async function pageAt(width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await signInAs(page, service.consoleUrl, ADMIN);
  return page;
}

async function visit(page: Page, url: string, name: string, width: number) {
  await visitPage(page, `${service.consoleUrl}${url}`);
  await screenshot(page, `usage-${name}-${width}`);
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  // On overflow, the innermost elements that stick out, to say what does.
  const culprits = await page.evaluate((limit) => {
    const out = [...document.querySelectorAll("body *")].filter(
      (el) =>
        el.getBoundingClientRect().right > limit + 1 &&
        ![...el.children].some((child) => child.getBoundingClientRect().right > limit + 1),
    );
    return out
      .slice(0, 5)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} ${Math.round(el.getBoundingClientRect().right)}px`,
      );
  }, width);
  expect(scrollWidth, `${url} at ${width} px: ${culprits.join(", ")}`).toBeLessThanOrEqual(width);
}

describe("usage and request log pages", () => {
  it("show the requests made, with totals, charts and a CSV export", { timeout: 300_000 }, async () => {
    for (const width of WIDTHS) {
      const page = await pageAt(width);
      await visit(page, `/organizations/${data.orgId}/usage`, "organization", width);
      expect(await page.locator('[data-total="Requests"] dd').textContent()).toBe("7");
      expect(await page.locator('[data-total="JSON answers"] dd').textContent()).toBe("1");
      expect(await page.locator('[data-chart="requests"] svg').count()).toBeGreaterThan(0);
      await visit(page, `/keys/${data.keyId}/usage?days=90`, "key", width);
      expect(await page.locator('[data-total="Requests"] dd').textContent()).toBe("7");
      expect(await page.getByRole("heading", { level: 2 }).first().textContent()).toContain("Usage");
      await visit(page, "/usage", "overview", width);
      expect(await page.locator(`tr[data-org="${data.orgId}"] td`).nth(1).textContent()).toBe("7");
      await page.context().close();
    }
    const page = await pageAt(1280);
    await visitPage(page, `${service.consoleUrl}/organizations/${data.orgId}/usage`);
    const download = await page.request.get(`${service.consoleUrl}/organizations/${data.orgId}/usage/csv?days=30`);
    expect(download.headers()["content-type"]).toContain("text/csv");
    const lines = (await download.text()).trim().split("\n");
    expect(lines[0]).toContain("date,requests,streamed_answers,json_answers,tokens_used");
    expect(lines).toHaveLength(31);
    expect(lines.at(-1)?.split(",")[1]).toBe("7");
    await page.context().close();
  });

  it(
    "list each request with its route, status and link, filter them, and find one by id from the header search",
    { timeout: 300_000 },
    async () => {
      for (const width of WIDTHS) {
        const page = await pageAt(width);
        await visit(page, `/organizations/${data.orgId}/requests`, "organization-log", width);
        for (const id of data.requestIds) expect(await page.locator(`tr[data-request="${id}"]`).count(), id).toBe(1);
        const answer = page.locator(`tr[data-request="${data.requestIds[5]}"]`);
        expect(await answer.textContent()).toContain("POST /v1/messages");
        expect(await answer.locator(`a[data-resource="${data.conversationId}"]`).getAttribute("href")).toBe(
          `/keys/${data.keyId}/conversations/${data.conversationId}`,
        );
        await visit(page, `/keys/${data.keyId}/requests?status=4xx`, "key-log", width);
        expect(await page.locator("tr[data-request]").count()).toBe(1);
        expect(await page.locator("tr[data-request]").textContent()).toContain("not_found");
        await visit(page, `/requests/${data.requestIds[5]}`, "request", width);
        expect(await page.locator(`[data-request="${data.requestIds[5]}"]`).textContent()).toContain(
          "POST /v1/messages",
        );
        await page.context().close();
      }
      const page = await pageAt(1280);
      await page.getByLabel("Search", { exact: true }).fill(data.requestIds[0]!);
      await page.getByLabel("Search", { exact: true }).press("Enter");
      await page.waitForURL(new RegExp(`/requests/${data.requestIds[0]}$`));
      const facts = await page.locator(`[data-request="${data.requestIds[0]}"]`).textContent();
      expect(facts).toContain("GET /v1/me");
      expect(facts).toContain("200");
      await page.context().close();
    },
  );
});
