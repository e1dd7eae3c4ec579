import { bindLaunchKey } from "@mga/core/launches";
import { expect } from "vitest";
import { anotherKey, type newPartner } from "./partners";
import type { TestApp } from "./test-app";

/**
 * A launch for a provisioned user, consumed as the hosted chat page would: a bound launch key
 * of the partner's organization, POST /v1/embed-sessions, then the code from the fragment.
 * Returns the authentication-only session's token (what the site login completes).
 */
export async function openSignInSession(app: TestApp, p: Awaited<ReturnType<typeof newPartner>>, externalUserId: string, loanId = "LN-1"): Promise<string> {
  const launcher = await anotherKey(app, p.organizationId, ["embed:launch"]);
  await bindLaunchKey(app.t.db, { apiKeyId: launcher.id, publicName: p.slug });
  const launch = await app.request("/v1/embed-sessions", {
    method: "POST",
    key: launcher.key,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ integration: p.slug, user: { external_user_id: externalUserId }, loan_context: { external_loan_id: loanId } }),
  });
  expect(launch.status, launch.text).toBe(201);
  const code = new URLSearchParams(new URL(launch.body.launch_url).hash.slice(1)).get("code");
  const consumed = await app.request("/embed/api/launches/consume", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ code }) });
  expect(consumed.status, consumed.text).toBe(200);
  return consumed.body.session_token as string;
}
