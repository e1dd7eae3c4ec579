import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { BrowserContext, Frame, Page } from "playwright-core";
import { expect } from "vitest";

import { bindLaunchKey } from "@mga/core/launches";
import { setAliasGrant } from "@mga/core/partners/integrations";
import { hashPassword } from "@mga/core/passwords";
import { configureTenant } from "@mga/core/tenants";

import { anotherKey, newPartner } from "./partners";
import { ACME_TENANT } from "./tenants";
import type { TestApp } from "./test-app";

/** The password every hosted-chat test user signs in with. */
export const CHAT_PASSWORD = "correct horse battery";

/**
 * A stand-in for a partner's loan origination system: a page on `localhost` that embeds
 * whatever launch URL it is given (served from 127.0.0.1, so the iframe is cross-site).
 */
export async function startPartnerSite(): Promise<{ origin: string; close(): void }> {
  const server: Server = createServer((req, res) => {
    const launch = new URL(req.url ?? "/", "http://localhost").searchParams.get("launch") ?? "";
    res.setHeader("Content-Type", "text/html");
    res.end(`<!doctype html><title>Acme LOS</title><h1>Loan LN-2026-0042</h1>
      <iframe id="assistant" src="${launch.replace(/"/g, "&quot;")}" style="width:760px;height:620px"></iframe>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://localhost:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

/**
 * A partner with a provisioned loan officer (`lo-1`, a password set) and a bound launch key;
 * `launchUrl()` issues a fresh launch for the given loan context. With `alias`, the integration
 * has that alias, granted to the launch key, and launches go through it.
 */
export async function prepareLaunches(
  app: TestApp,
  options: { name?: string; loanContext?: Record<string, unknown>; alias?: string } = {},
) {
  const p = await newPartner(app, options.alias ? { aliases: [options.alias] } : {});
  await configureTenant(app.t.db, { organizationId: p.organizationId, config: ACME_TENANT });
  const email = `lo-${p.organizationId.toLowerCase()}@acme.test`;
  await p.put("/users/lo-1", { email, ...(options.name ? { name: options.name } : {}) });
  await app.t.db.sql.query("UPDATE site_accounts SET password_hash = $2 WHERE email = $1", [
    email,
    await hashPassword(CHAT_PASSWORD),
  ]);
  const launcher = await anotherKey(app, p.organizationId, ["embed:launch"]);
  const publicName = options.alias ?? p.slug;
  if (options.alias)
    await setAliasGrant(app.t.db, {
      organizationId: p.organizationId,
      alias: options.alias,
      apiKeyId: launcher.id,
      granted: true,
    });
  await bindLaunchKey(app.t.db, { apiKeyId: launcher.id, publicName });
  const loanContext = options.loanContext ?? { external_loan_id: "LN-2026-0042", program: "fha" };
  const launchUrl = async () => {
    const res = await app.request("/v1/embed-sessions", {
      method: "POST",
      key: launcher.key,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ integration: publicName, user: { external_user_id: "lo-1" }, loan_context: loanContext }),
    });
    expect(res.status, res.text).toBe(201);
    return res.body.launch_url as string;
  };
  return { partner: p, email, launchUrl, launcherId: launcher.id, publicName };
}

/** Opens the partner page embedding this launch URL; returns the (cross-site) chat frame. */
export async function openInPartnerPage(page: Page, partnerOrigin: string, launchUrl: string): Promise<Frame> {
  await page.goto(`${partnerOrigin}/?launch=${encodeURIComponent(launchUrl)}`);
  return chatFrame(page, partnerOrigin);
}

/** The chat iframe of the partner page (again, after a reload). */
export async function chatFrame(page: Page, partnerOrigin: string): Promise<Frame> {
  const frame = await (await page.waitForSelector("#assistant")).contentFrame();
  if (!frame) throw new Error("no iframe");
  expect(new URL(frame.url()).origin).not.toBe(partnerOrigin);
  return frame;
}

/** The chat's sign-in: the popup of the site login, the right password, the chat open. */
export async function signInThroughPopup(context: BrowserContext, chat: Page | Frame, email: string): Promise<void> {
  const [popup] = await Promise.all([context.waitForEvent("page"), chat.click("#login-button")]);
  await popup.waitForSelector("input[name=email]");
  await popup.fill("input[name=email]", email);
  await popup.fill("input[name=password]", CHAT_PASSWORD);
  await popup.click("button[type=submit]");
  await chat.waitForSelector("#chat", { state: "visible", timeout: 10_000 });
}

/** Screenshots of the hosted chat's states, for people reviewing a change (git-ignored). */
export const SCREENSHOTS = path.resolve(import.meta.dirname, "../../test-results/screenshots");

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
