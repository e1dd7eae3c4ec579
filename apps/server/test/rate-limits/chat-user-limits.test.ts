import { describe, expect, it } from "vitest";

import { updateIntegration } from "@mga/core/partners/integrations";
import { SLICE_DIVISOR } from "@mga/core/rate-limits";
import { configureTenant } from "@mga/core/tenants";

import { boundLaunchKey, openChat, type LaunchKey } from "../support/launches";
import { newPartner } from "../support/partners";
import { ACME_TENANT } from "../support/tenants";
import type { TestApp } from "../support/test-app";
import { answer, readSse, upstreamAnswers, useAppWithMockedUpstream } from "../support/upstream-mock";

/**
 * Hosted-chat answers count against the partner user's own limit first, then against the
 * launch key's budget, which all of the partner's users share (issue 21, item 4): over real
 * HTTP, with two server instances on one PostgreSQL.
 */
const setup = useAppWithMockedUpstream({ secondInstance: true });

/** Waits for the next minute when fewer than `neededMs` are left of this one, so a test's answers share one window. */
async function insideOneMinute(neededMs: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < neededMs) await new Promise((resolve) => setTimeout(resolve, left + 500));
}

/** An integration with two provisioned loan officers and a launch key limited to `keyLimit` per minute. */
async function partnerWithTwoUsers(keyLimit?: number) {
  const p = await newPartner(setup.app);
  await configureTenant(setup.app.t.db, { organizationId: p.organizationId, config: ACME_TENANT });
  for (const user of ["lo-a", "lo-b"])
    expect(
      (await p.put(`/users/${user}`, { email: `${user}-${p.organizationId.toLowerCase()}@acme.test` })).status,
    ).toBe(201);
  const launcher = await boundLaunchKey(setup.app, p, { rateLimitPerMinute: keyLimit });
  return { p, launcher };
}

/** The hosted chat page's question, answered (and read to its end) or refused. */
async function ask(instance: TestApp, chatToken: string, message: string) {
  const res = await fetch(`${instance.baseUrl}/embed/api/chat/messages`, {
    method: "POST",
    headers: { Authorization: `Bearer ${chatToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ message }),
  });
  if (res.status === 200)
    return {
      status: 200,
      frames: (await readSse(res)).frames.map((frame) => frame.type as string),
      headers: res.headers,
      error: undefined,
    };
  return {
    status: res.status,
    frames: [],
    headers: res.headers,
    error: ((await res.json()) as { error: { code: string; message: string } }).error,
  };
}

function launch(p: Awaited<ReturnType<typeof newPartner>>, launcher: LaunchKey, externalUserId: string) {
  return setup.app.request("/v1/embed-sessions", {
    method: "POST",
    key: launcher.key,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      integration: p.slug,
      user: { external_user_id: externalUserId },
      loan_context: { external_loan_id: "LN-7" },
    }),
  });
}

async function keyCount(keyId: string): Promise<number> {
  const { rows } = await setup.app.t.db.sql.query<{ total: number }>(
    "SELECT coalesce(sum(count), 0)::int AS total FROM rate_limit_counters WHERE api_key_id = $1",
    [keyId],
  );
  return rows[0]?.total ?? 0;
}

const PER_USER_REFUSAL =
  /^you are sending questions faster than allowed: at most 20 answers per minute for each user; try again in \d+s$/;

describe("a chat user's own limit inside the launch key's budget", () => {
  it(
    "one user asking 30 questions at once gets his 20 answers; a colleague still gets answers and a new launch works; he is told the limit is his own",
    { timeout: 60_000 },
    async () => {
      await insideOneMinute(30_000);
      upstreamAnswers(answer());
      // A launch key with room for one user's burst plus a little: 30 launches and answers a minute.
      const { p, launcher } = await partnerWithTwoUsers(30);
      const [a, b] = [await openChat(setup.app, p, "lo-a", launcher), await openChat(setup.app, p, "lo-b", launcher)];

      // User A (or a script holding his chat token) sends 30 questions at once.
      const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => ask(setup.app, a, `question ${i}`)));

      // His colleague B still gets an answer…
      const colleague = await ask(setup.app, b, "What is the minimum down payment?");
      expect(colleague.error).toBeUndefined();
      expect(colleague.frames.at(-1)).toBe("public_api_complete");
      // …and the partner can still launch the chat for anyone.
      const relaunch = await launch(p, launcher, "lo-b");
      expect(relaunch.status, relaunch.text).toBe(201);

      // A got exactly his share; the rest was refused as his own limit, with when to try again.
      expect(burst.filter((r) => r.status === 200).length).toBe(20);
      expect(burst.filter((r) => r.status === 200).every((r) => r.frames.at(-1) === "public_api_complete")).toBe(true);
      const refused = burst.filter((r) => r.status !== 200);
      expect(refused).toHaveLength(10);
      for (const r of refused) {
        expect(r.status).toBe(429);
        expect(r.error?.code).toBe("rate_limited");
        expect(r.error?.message).toMatch(PER_USER_REFUSAL);
        const retryAfter = Number(r.headers.get("retry-after"));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
        expect(r.headers.get("ratelimit-policy")).toBe('"per-user";q=20;w=60');
        expect(r.headers.get("ratelimit")).toBe(`"per-user";r=0;t=${retryAfter}`);
      }
      const again = await ask(setup.app, a, "one more?");
      expect(again.status).toBe(429);
      expect(again.error?.message).toMatch(PER_USER_REFUSAL);

      // Refused answers spent nothing of the key: 3 launches, A's 20 answers and B's one.
      expect(await keyCount(launcher.id)).toBe(24);
    },
  );

  it(
    "the integration's setting is exact across two instances: 40 questions at once, alternating instances, admit exactly its 7",
    { timeout: 60_000 },
    async () => {
      await insideOneMinute(20_000);
      upstreamAnswers(answer());
      // A key limit under 2 × SLICE_DIVISOR leases one token at a time (slice-policy.ts), so the key's
      // count below is exact however the 40 requests interleave; a larger limit may lease a few
      // tokens ahead under load, which stay counted unspent.
      const { p, launcher } = await partnerWithTwoUsers(2 * SLICE_DIVISOR - 1);
      await updateIntegration(setup.app.t.db, {
        organizationId: p.organizationId,
        slug: p.slug,
        chatAnswersPerUserPerMinute: 7,
      });
      const a = await openChat(setup.app, p, "lo-a", launcher);
      const burst = await Promise.all(
        Array.from({ length: 40 }, (_, i) => ask(i % 2 === 0 ? setup.app : setup.second, a, `question ${i}`)),
      );
      const answered = burst.filter((r) => r.status === 200);
      expect(answered).toHaveLength(7);
      expect(
        burst.filter((r) => r.status === 429 && r.headers.get("ratelimit-policy") === '"per-user";q=7;w=60'),
      ).toHaveLength(33);
      const { rows } = await setup.app.t.db.sql.query<{ total: number }>(
        "SELECT coalesce(sum(c.count), 0)::int AS total FROM partner_user_rate_limit_counters c JOIN partner_users u ON u.id = c.partner_user_id WHERE u.external_user_id = 'lo-a' AND u.integration_id = (SELECT id FROM integrations WHERE organization_id = $1)",
        [p.organizationId],
      );
      expect(rows[0]?.total).toBe(7);
      // The key counted the launch and the 7 answers, none of the refusals.
      expect(await keyCount(launcher.id)).toBe(8);
      // B's own count is untouched by A's.
      expect((await ask(setup.second, await openChat(setup.app, p, "lo-b", launcher), "mine")).status).toBe(200);
    },
  );

  it(
    "over the shared key limit, the chat is told the organization's assistant is busy, not that the user asked too much",
    { timeout: 60_000 },
    async () => {
      await insideOneMinute(20_000);
      upstreamAnswers(answer());
      const { p, launcher } = await partnerWithTwoUsers(3);
      const [a, b] = [await openChat(setup.app, p, "lo-a", launcher), await openChat(setup.app, p, "lo-b", launcher)];
      expect((await ask(setup.app, a, "first")).status).toBe(200);
      const busy = await ask(setup.second, b, "second");
      expect(busy.status).toBe(429);
      expect(busy.error?.code).toBe("rate_limited");
      expect(busy.error?.message).toMatch(
        /^your organization's assistant is busy: the 3 answers and requests per minute its users share are used up; try again in \d+s$/,
      );
      expect(busy.headers.get("ratelimit-policy")).toBe('"per-key";q=3;w=60');
      expect(Number(busy.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    },
  );
});
