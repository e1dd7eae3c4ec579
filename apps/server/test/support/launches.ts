import { expect } from "vitest";

import { createApiKey } from "@mga/core/keys";
import { bindLaunchKey, completeSiteLogin } from "@mga/core/launches";

import type { newPartner } from "./partners";
import type { TestApp } from "./test-app";

type Partner = Awaited<ReturnType<typeof newPartner>>;
export interface LaunchKey {
  id: string;
  key: string;
}

/** A key holding `embed:launch` of the partner's organization, bound to its integration. */
export async function boundLaunchKey(
  app: TestApp,
  p: Partner,
  options: { rateLimitPerMinute?: number } = {},
): Promise<LaunchKey> {
  const { key, plaintext } = await createApiKey(app.t.db, {
    organizationId: p.organizationId,
    name: "launcher",
    scopes: ["embed:launch"],
    rateLimitPerMinute: options.rateLimitPerMinute,
  });
  await bindLaunchKey(app.t.db, { apiKeyId: key.id, publicName: p.slug });
  return { id: key.id, key: plaintext };
}

/**
 * A launch for a provisioned user, consumed as the hosted chat page would: a bound launch key
 * of the partner's organization (a new one unless given), POST /v1/embed-sessions, then the
 * code from the fragment. Returns the authentication-only session's token (what the site login completes).
 */
export async function openSignInSession(
  app: TestApp,
  p: Partner,
  externalUserId: string,
  loanId = "LN-1",
  launcher?: LaunchKey,
): Promise<string> {
  const launch = await app.request("/v1/embed-sessions", {
    method: "POST",
    key: (launcher ?? (await boundLaunchKey(app, p))).key,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      integration: p.slug,
      user: { external_user_id: externalUserId },
      loan_context: { external_loan_id: loanId },
    }),
  });
  expect(launch.status, launch.text).toBe(201);
  const code = new URLSearchParams(new URL(launch.body.launch_url).hash.slice(1)).get("code");
  const consumed = await app.request("/embed/api/launches/consume", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
  });
  expect(consumed.status, consumed.text).toBe(200);
  return consumed.body.session_token as string;
}

/** Launched with `launcher`, signed in at the site login and holding the chat token, as the hosted chat page is after its popup. */
export async function openChat(app: TestApp, p: Partner, externalUserId: string, launcher: LaunchKey): Promise<string> {
  const sessionToken = await openSignInSession(app, p, externalUserId, "LN-1", launcher);
  const { rows } = await app.t.db.sql.query<{ site_account_id: string }>(
    "SELECT u.site_account_id FROM partner_users u JOIN integrations i ON i.id = u.integration_id WHERE i.organization_id = $1 AND i.slug = $2 AND u.external_user_id = $3",
    [p.organizationId, p.slug, externalUserId],
  );
  await completeSiteLogin(app.t.db, { sessionToken, siteAccountId: rows[0]?.site_account_id ?? "" });
  const session = await app.request("/embed/api/session", { headers: { Authorization: `Bearer ${sessionToken}` } });
  expect(session.body.status, session.text).toBe("authorized");
  return session.body.chat_token as string;
}
