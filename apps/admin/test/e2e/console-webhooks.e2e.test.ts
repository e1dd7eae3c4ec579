import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { launchBrowser, screenshot } from "../support/browser";
import { reload, signedInPage, visit } from "../support/console-pages";
import { startRunCommand, type RunningService } from "../support/run-command";

/**
 * Webhooks in the console (issue 25): an admin adds an endpoint (secret shown once), sends a test
 * event to a real receiving server, sees the delivery (status code, latency, attempts) and
 * redelivers it; the receiver gets the same webhook-id twice.
 */
let service: RunningService;
let browser: Browser;
let page: Page;
let receiver: Server;
let receiverUrl = "";
const received: Array<{ id: string; type: string }> = [];
const ADMIN = { email: "wendy@example.com", password: "webhooks admin 1" };
let orgId = "";

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      received.push({ id: String(req.headers["webhook-id"]), type: (JSON.parse(body) as { type: string }).type });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  // Local receivers: the development setting that lets webhooks reach loopback addresses.
  service = await startRunCommand({ WEBHOOK_ALLOW_PRIVATE_ADDRESSES: "1" });
  await service.cli("staff:create", "--email", ADMIN.email, "--password", ADMIN.password, "--role", "admin");
  orgId = ((await service.cli("org:create", "--name", "Webhook Lending")) as { id: string }).id;
  browser = await launchBrowser();
  page = await signedInPage(browser, service.consoleUrl, ADMIN);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe("webhooks in the console", () => {
  it("adds an endpoint, sends a test event, shows the delivery and redelivers it", { timeout: 120_000 }, async () => {
    await visit(page, `${service.consoleUrl}/organizations/${orgId}/webhooks`);
    await page.getByText("No webhook endpoints yet.").waitFor();

    // Refused with words beside the fields.
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect
      .poll(() => page.locator('[data-field-error="url"]').textContent())
      .toBe("The partner's https URL that receives the events.");
    await expect
      .poll(() => page.locator('[data-field-error="eventTypes"]').textContent())
      .toBe("Choose at least one event type.");

    await page.getByLabel("URL").fill(receiverUrl);
    await page.getByRole("checkbox", { name: "user.disabled" }).check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const secret = page.getByRole("region", { name: "New signing secret" }).locator("[data-secret]");
    await expect.poll(() => secret.textContent()).toMatch(/^whsec_/);
    await page.getByRole("link", { name: receiverUrl }).waitFor();
    await screenshot(page, "webhooks-endpoint-added");
    // Shown once: gone after a reload.
    await reload(page);
    expect(await page.locator("[data-secret]").count()).toBe(0);

    await page.getByRole("link", { name: receiverUrl }).click();
    await page.getByText("No deliveries yet. Send a test event to check the endpoint.").waitFor();
    await page.getByRole("button", { name: "Send test event" }).click();
    await page.locator(".form-ok", { hasText: "Test event queued" }).waitFor();
    await expect.poll(() => received.length, { timeout: 20_000 }).toBe(1);
    expect(received[0]?.type).toBe("webhook.test");

    await expect
      .poll(
        async () => {
          await reload(page);
          return page.locator("[data-delivery] [data-status-code]").first().textContent();
        },
        { timeout: 20_000, interval: 1000 },
      )
      .toBe("204");
    const row = page.locator("[data-delivery]").first();
    expect(await row.locator("[data-attempts]").textContent()).toBe("1");
    expect(await row.textContent()).toContain("Delivered");
    expect(await row.textContent()).toMatch(/\d+ ms/);
    await screenshot(page, "webhooks-delivery");

    await row.getByRole("button", { name: "Redeliver" }).click();
    await page.locator(".form-ok", { hasText: "Redelivery queued." }).waitFor();
    await expect.poll(() => received.length, { timeout: 20_000 }).toBe(2);
    expect(received[1]?.id).toBe(received[0]?.id);
    await expect
      .poll(
        async () => {
          await reload(page);
          return page.locator("[data-delivery] [data-attempts]").first().textContent();
        },
        { timeout: 20_000, interval: 1000 },
      )
      .toBe("2");
  });
});
