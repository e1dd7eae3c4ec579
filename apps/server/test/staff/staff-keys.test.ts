import { beforeAll, describe, expect, it } from "vitest";

import { ok, type StaffSession } from "../support/staff-client";
import { ADMIN, useStaffProcedures } from "../support/staff-procedures";
import { expectEnvelope } from "../support/test-app";

/** Staff procedures: API keys (plaintext once, scopes advice, launch bindings, rate limits, revocation), checked through the procedures, the partner REST API and the database. */
const { query, mutate, rows, rest, auditList, newOrg, newKey, sessions } = useStaffProcedures();
let admin: StaffSession;
let viewer: StaffSession;
beforeAll(() => {
  ({ admin, viewer } = sessions);
});

describe("API keys", () => {
  let orgId: string;
  beforeAll(async () => {
    orgId = (await newOrg("Keys Lender")).id;
    ok(
      await mutate(admin, "staff.integrations.create", {
        organization_id: orgId,
        slug: "keys-los",
        aliases: ["keys-public"],
      }),
    );
  });

  it("returns the plaintext once (it works on GET /v1/me); lists show last_four and never the key or its hash", async () => {
    const created = await newKey(orgId, ["chat:read"], { rate_limit_per_minute: 120 });
    expect(created.plaintext).toMatch(/^mga_sk_[0-9A-Za-z]{38}$/);
    expect(created.warnings).toEqual([]);
    expect(created.key).toEqual({
      id: expect.stringMatching(/^key_/),
      organization_id: orgId,
      name: "key chat:read",
      status: "active",
      scopes: ["chat:read"],
      last_four: created.plaintext.slice(-4),
      rate_limit_per_minute: 120,
      created_at: expect.any(String),
      revoked_at: null,
      last_used_at: null,
      expires_at: null,
      rolled_from_key_id: null,
      launch_binding: null,
    });

    const me = await rest("GET", "/v1/me", created.plaintext);
    expect(me.status).toBe(200);
    expect(me.body.key).toMatchObject({
      id: created.key.id,
      last_four: created.plaintext.slice(-4),
      scopes: ["chat:read"],
    });

    const [stored] = await rows("SELECT secret_hash FROM api_keys WHERE id = $1", [created.key.id]);
    const list = ok(await query(viewer, "staff.keys.list", { organization_id: orgId }));
    const one = ok(await query(viewer, "staff.keys.get", { id: created.key.id }));
    for (const shown of [JSON.stringify(list), JSON.stringify(one)]) {
      expect(shown).not.toContain(created.plaintext);
      expect(shown).not.toContain(created.plaintext.slice(0, 20));
      expect(shown).not.toContain(stored.secret_hash);
      expect(shown).not.toMatch(/[0-9a-f]{32}/i);
    }
    const fieldNames = (value: unknown): string[] =>
      value && typeof value === "object"
        ? Object.entries(value).flatMap(([name, inner]) => [
            ...(Array.isArray(value) ? [] : [name]),
            ...fieldNames(inner),
          ])
        : [];
    expect(
      [...fieldNames(list), ...fieldNames(one)].filter((name) => /hash|secret|plaintext|key$/i.test(name)),
    ).toEqual([]);
    const listed = list.find((k: { id: string }) => k.id === created.key.id);
    expect(Object.keys(listed).sort()).toEqual(Object.keys(created.key).sort());
    expect(listed).toMatchObject({ last_four: created.plaintext.slice(-4), status: "active" });
    expect(Date.parse(one.last_used_at)).toBeGreaterThan(Date.now() - 60_000);
    // The creation is audited with last_four, never the key.
    const [audited] = (await auditList({ action: "key.create" })).filter((e) => e.target === created.key.id);
    expect(audited).toMatchObject({
      actor: ADMIN.email,
      details: { last_four: created.plaintext.slice(-4), scopes: ["chat:read"], organization_id: orgId },
    });
    expect(JSON.stringify(audited)).not.toContain(created.plaintext);
  });

  it("warns when embed:launch or embed:users:delete share a key with other scopes (and creates the key anyway)", async () => {
    const launchWarning = "Keep embed:launch on a key of its own (a launch key).";
    const deleteWarning = "Keep embed:users:delete on a key of its own (a deletion key).";
    expect((await newKey(orgId, ["embed:launch", "embed:users:read"])).warnings).toEqual([launchWarning]);
    expect((await newKey(orgId, ["embed:users:delete", "embed:users:write"])).warnings).toEqual([deleteWarning]);
    expect((await newKey(orgId, ["embed:launch", "embed:users:delete"])).warnings).toEqual([
      launchWarning,
      deleteWarning,
    ]);
    expect((await newKey(orgId, ["embed:launch"])).warnings).toEqual([]);
    expect((await newKey(orgId, ["embed:users:delete"])).warnings).toEqual([]);
    expect(
      (await mutate(admin, "staff.keys.create", { organization_id: orgId, name: "bad", scopes: ["embed:*"] })).status,
    ).toBe(400);
    expect(
      (await mutate(admin, "staff.keys.create", { organization_id: orgId, name: "none", scopes: [] })).status,
    ).toBe(400);
  });

  it("binds a launch key (only one holding embed:launch) to a public name; unbinding stops its launches", async () => {
    const plain = await newKey(orgId, ["embed:users:read"]);
    const refused = await mutate(admin, "staff.keys.bindLaunch", { id: plain.key.id, integration: "keys-los" });
    expect(refused.status).toBe(400);
    expect(refused.error?.message).toContain("lacks the embed:launch scope");
    expect(await rows("SELECT * FROM launch_bindings WHERE api_key_id = $1", [plain.key.id])).toEqual([]);
    expect((await auditList({ action: "key.launch_bind" })).filter((e) => e.target === plain.key.id)).toEqual([]);

    const users = await newKey(orgId, ["embed:users:read", "embed:users:write"]);
    expect(
      (await rest("PUT", "/v1/integrations/keys-los/users/lo-1", users.plaintext, { email: "lo1@keys.test" })).status,
    ).toBe(201);
    const launcher = await newKey(orgId, ["embed:launch"]);
    const launch = (integration: string) =>
      rest("POST", "/v1/embed-sessions", launcher.plaintext, {
        integration,
        user: { external_user_id: "lo-1" },
        loan_context: {
          external_loan_id: "LN-1",
          program: "fha",
          purpose: "purchase",
          units: 1,
          property_state: "TX",
          application_date: "2026-11-02",
        },
      });
    expectEnvelope(await launch("keys-public"), 403, "forbidden");
    expect((await mutate(admin, "staff.keys.bindLaunch", { id: launcher.key.id, integration: "nowhere" })).status).toBe(
      404,
    );
    // An alias is bound only once it is granted to the key (ALIAS_GRANT_RULE).
    const ungranted = await mutate(admin, "staff.keys.bindLaunch", { id: launcher.key.id, integration: "keys-public" });
    expect(ungranted.status).toBe(400);
    expect(ungranted.error?.message).toBe(
      "the alias keys-public is not granted to this key; grant it to the key first, then bind it",
    );
    const integration = ok(await query(viewer, "staff.integrations.list", { organization_id: orgId })).find(
      (i: { slug: string }) => i.slug === "keys-los",
    );
    ok(
      await mutate(admin, "staff.integrations.setAliasGrant", {
        id: integration.id,
        alias: "keys-public",
        key_id: launcher.key.id,
        granted: true,
      }),
    );

    const bound = ok(await mutate(admin, "staff.keys.bindLaunch", { id: launcher.key.id, integration: "keys-public" }));
    expect(bound).toEqual({ integration: "keys-public", canonical_integration: "keys-los", enabled: true });
    expect(ok(await query(viewer, "staff.keys.get", { id: launcher.key.id })).launch_binding).toEqual(bound);
    const launched = await launch("keys-public");
    expect(launched.status, launched.text).toBe(201);
    expect(new URL(launched.body.launch_url).pathname).toBe("/embed/partner/keys-los");

    expect(ok(await mutate(admin, "staff.keys.unbindLaunch", { id: launcher.key.id }))).toEqual({ enabled: false });
    expect(
      ok(await query(viewer, "staff.keys.list", { organization_id: orgId })).find(
        (k: { id: string }) => k.id === launcher.key.id,
      ).launch_binding,
    ).toEqual({
      integration: "keys-public",
      canonical_integration: "keys-los",
      enabled: false,
    });
    expectEnvelope(await launch("keys-public"), 403, "forbidden");
    expect((await mutate(admin, "staff.keys.unbindLaunch", { id: "key_missing" })).status).toBe(404);
  });

  it("setRateLimit and revoke return the key with its launch binding, as keys.get shows it", async () => {
    const launcher = await newKey(orgId, ["embed:launch"]);
    const bound = ok(await mutate(admin, "staff.keys.bindLaunch", { id: launcher.key.id, integration: "keys-los" }));
    expect(bound).toEqual({ integration: "keys-los", canonical_integration: "keys-los", enabled: true });
    const limited = ok(
      await mutate(admin, "staff.keys.setRateLimit", { id: launcher.key.id, rate_limit_per_minute: 50 }),
    );
    expect(limited).toEqual(ok(await query(viewer, "staff.keys.get", { id: launcher.key.id })));
    expect(limited.launch_binding).toEqual(bound);
    const revoked = ok(await mutate(admin, "staff.keys.revoke", { id: launcher.key.id }));
    expect(revoked).toEqual(ok(await query(viewer, "staff.keys.get", { id: launcher.key.id })));
    expect(revoked).toMatchObject({ status: "revoked", rate_limit_per_minute: 50, launch_binding: bound });
    // A revoked key takes no more settings or grants (they would never apply).
    for (const refused of [
      await mutate(admin, "staff.keys.setRateLimit", { id: launcher.key.id, rate_limit_per_minute: 60 }),
      await mutate(admin, "staff.keys.bindLaunch", { id: launcher.key.id, integration: "keys-los" }),
    ]) {
      expect(refused.status).toBe(400);
      expect(refused.error?.message).toBe(`key ${launcher.key.id} is revoked`);
    }
    expect(ok(await query(viewer, "staff.keys.get", { id: launcher.key.id })).rate_limit_per_minute).toBe(50);
  });

  it("revoking a key makes it fail with 401 at once; revoking again changes nothing", async () => {
    const key = await newKey(orgId, ["chat:read"]);
    expect((await rest("GET", "/v1/me", key.plaintext)).status).toBe(200);
    const activeBefore = ok(await query(viewer, "staff.organizations.list")).find(
      (o: { id: string }) => o.id === orgId,
    ).active_keys;
    const revoked = ok(await mutate(admin, "staff.keys.revoke", { id: key.key.id }));
    expect(revoked).toMatchObject({ id: key.key.id, status: "revoked", revoked_at: expect.any(String) });
    expectEnvelope(await rest("GET", "/v1/me", key.plaintext), 401, "unauthorized");
    expect(ok(await query(viewer, "staff.keys.get", { id: key.key.id })).status).toBe("revoked");
    expect(
      ok(await query(viewer, "staff.organizations.list")).find((o: { id: string }) => o.id === orgId).active_keys,
    ).toBe(activeBefore - 1);
    expect(ok(await mutate(admin, "staff.keys.revoke", { id: key.key.id })).revoked_at).toBe(revoked.revoked_at);
    expect((await mutate(admin, "staff.keys.revoke", { id: "key_missing" })).status).toBe(404);
  });

  it("sets a key's rate limit, which its next request uses; null returns to the default", async () => {
    const key = await newKey(orgId, ["chat:read"]);
    expect((await rest("GET", "/v1/me", key.plaintext)).headers.get("x-ratelimit-limit")).toBe("600");
    expect(
      ok(await mutate(admin, "staff.keys.setRateLimit", { id: key.key.id, rate_limit_per_minute: 7 }))
        .rate_limit_per_minute,
    ).toBe(7);
    expect((await rest("GET", "/v1/me", key.plaintext)).headers.get("x-ratelimit-limit")).toBe("7");
    expect(ok(await query(viewer, "staff.keys.get", { id: key.key.id })).rate_limit_per_minute).toBe(7);
    expect((await mutate(admin, "staff.keys.setRateLimit", { id: key.key.id, rate_limit_per_minute: 0 })).status).toBe(
      400,
    );
    expect(
      (await mutate(admin, "staff.keys.setRateLimit", { id: key.key.id, rate_limit_per_minute: 100_001 })).status,
    ).toBe(400);
    expect(
      (await mutate(admin, "staff.keys.setRateLimit", { id: key.key.id, rate_limit_per_minute: 2.5 })).status,
    ).toBe(400);
    expect(ok(await query(viewer, "staff.keys.get", { id: key.key.id })).rate_limit_per_minute).toBe(7);
    expect(
      ok(await mutate(admin, "staff.keys.setRateLimit", { id: key.key.id, rate_limit_per_minute: null }))
        .rate_limit_per_minute,
    ).toBeNull();
    expect((await rest("GET", "/v1/me", key.plaintext)).headers.get("x-ratelimit-limit")).toBe("600");
    const [audited] = (await auditList({ action: "key.rate_limit" })).filter((e) => e.target === key.key.id);
    expect(audited).toMatchObject({ actor: ADMIN.email, details: { rate_limit_per_minute: null } });
  });
});
