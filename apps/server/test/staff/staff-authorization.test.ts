import { beforeAll, describe, expect, it } from "vitest";

import { adminRouter } from "@mga/api";
import { createApiKey } from "@mga/core/keys";
import { ALIAS_GRANT_RULE, bindLaunchKey } from "@mga/core/launches";
import { createOrganization } from "@mga/core/orgs";
import { createIntegration } from "@mga/core/partners/integrations";
import { createStaff, inviteStaff } from "@mga/core/staff";
import { configureTenant } from "@mga/core/tenants";

import { ALL_PARTNER_SCOPES } from "../support/partners";
import { ok, type StaffSession } from "../support/staff-client";
import { ADMIN, TENANT, useStaffProcedures, VIEWER } from "../support/staff-procedures";
import { ACME_TENANT } from "../support/tenants";
import type { UntypedJson } from "../support/untyped-json";
import { answer, upstreamAnswers } from "../support/upstream-mock";

/**
 * Who may call which staff procedure (packages/api/src/routers/staff), over /trpc as the
 * console calls them: every procedure of the router is in the tables below, or the first
 * test fails. What each procedure does is checked per area in staff-<area>.test.ts.
 */
const { db, trpc, signIn, query, mutate, sessions, rows, rest, auditList } = useStaffProcedures();

let admin: StaffSession;
let viewer: StaffSession;

// ---------------------------------------------------------------------------------------
// Fixture of the authorization tables: one organization with everything a procedure can
// name, made through core and the partner API (not through the procedures under test).
// ---------------------------------------------------------------------------------------
const MAIN = "authz-main";
interface Fixture {
  orgId: string;
  mainIntegrationId: string;
  spareIntegrationId: string;
  partnerKey: { id: string; key: string };
  spareKeyId: string;
  launchKeyId: string;
  boundKeyId: string;
  /** Edited and rolled by the admin. */
  lifecycleKeyId: string;
  importJobId: string;
  conversationId: string;
  /** Colleagues whose role and status the admin changes, and a pending invitation. */
  roleColleagueId: string;
  statusColleagueId: string;
  inviteId: string;
  /** Empty organizations an admin renames and deletes. */
  renameOrgId: string;
  emptyOrgId: string;
  /** A webhook endpoint admins change, one they delete, and a delivery they redeliver. */
  webhookId: string;
  doomedWebhookId: string;
  deliveryId: string;
}
let f: Fixture;

/** Reads until `read` returns `expected` (expect.poll works only inside tests, this in hooks too). */
async function waitFor<T>(read: () => Promise<T>, expected: T, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (last !== expected) {
    if (Date.now() > deadline)
      throw new Error(`still ${String(last)} after ${timeoutMs} ms, expected ${String(expected)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
    last = await read();
  }
}

async function makeFixture(): Promise<Fixture> {
  const org = await createOrganization(db(), { name: "Authz Org" });
  // Another configuration than examples/tenant.json, which configureTenant's case stores.
  await configureTenant(db(), { organizationId: org.id, config: ACME_TENANT });
  const main = await createIntegration(db(), {
    organizationId: org.id,
    slug: MAIN,
    aliases: ["alias-keep", "alias-drop"],
  });
  const spare = await createIntegration(db(), { organizationId: org.id, slug: "authz-spare" });
  const key = async (name: string, scopes: string[]) => createApiKey(db(), { organizationId: org.id, name, scopes });
  const partner = await key("authz partner", [...ALL_PARTNER_SCOPES, "chat:read", "chat:write"]);
  const spareKey = await key("authz spare", ["chat:read"]);
  const launchKey = await key("authz launch", ["embed:launch"]);
  const boundKey = await key("authz bound", ["embed:launch"]);
  await bindLaunchKey(db(), { apiKeyId: boundKey.key.id, publicName: MAIN });
  const lifecycleKey = await key("authz lifecycle", ["chat:read"]);

  const partnerKey = partner.plaintext;
  const base = `/v1/integrations/${MAIN}`;
  expect((await rest("PUT", `${base}/teams/t1`, partnerKey, { name: "Team One" })).status).toBe(201);
  for (const [id, name] of [
    ["u-status", "Status User"],
    ["u-delete", "Delete User"],
    ["u-override", "Override Me"],
    ["u-gone", "Gone User"],
  ] as const) {
    expect((await rest("PUT", `${base}/users/${id}`, partnerKey, { email: `${id}@authz.test`, name })).status).toBe(
      201,
    );
  }
  const deletion = await rest(
    "POST",
    `${base}/users/u-gone/deletions`,
    partnerKey,
    {},
    { "Idempotency-Key": "authz-delete-u-gone" },
  );
  expect(deletion.status, deletion.text).toBe(202);
  await waitFor(
    async () =>
      (await rest("GET", `${base}/user-operations/${deletion.body.operation.operation_id}`, partnerKey)).body.operation
        .status,
    "completed",
  );

  const imported = await rest(
    "POST",
    `${base}/user-imports`,
    partnerKey,
    { users: [{ external_user_id: "imp-1", email: "imp-1@authz.test" }] },
    {
      "Idempotency-Key": "authz-import-1",
    },
  );
  expect(imported.status, imported.text).toBe(202);
  await waitFor(
    async () =>
      (await rest("GET", `${base}/user-imports/${imported.body.import.job_id}`, partnerKey)).body.import.status,
    "completed",
  );

  upstreamAnswers(answer());
  const message = await rest("POST", "/v1/messages", partnerKey, {
    message: "What is the minimum down payment for an FHA loan?",
    user: { external_user_id: "lo-1", email: "lo1@authz.test", name: "Loan Officer" },
    conversation: { title: "Authz conversation" },
  });
  expect(message.status, message.text).toBe(200);

  const roleColleague = await createStaff(db(), {
    email: "role-colleague@mga.test",
    password: "colleague password 1",
    role: "viewer",
    actor: "test",
  });
  const statusColleague = await createStaff(db(), {
    email: "status-colleague@mga.test",
    password: "colleague password 1",
    role: "viewer",
    actor: "test",
  });
  const { invite } = await inviteStaff(db(), { email: "pending-invite@mga.test", role: "viewer", actor: "test" });
  const renameOrg = await createOrganization(db(), { name: "Authz rename me" });
  const emptyOrg = await createOrganization(db(), { name: "Authz empty" });
  // Two webhook endpoints (one to change, one to delete) and a delivery to redeliver.
  const hookInput = { organization_id: org.id, url: "https://hooks.authz.test/mga", event_types: ["user.disabled"] };
  const hook = ok(await mutate(sessions.admin, "staff.webhooks.create", hookInput)) as { endpoint: { id: string } };
  const doomedHook = ok(await mutate(sessions.admin, "staff.webhooks.create", hookInput)) as {
    endpoint: { id: string };
  };
  const delivery = ok(
    await mutate(sessions.admin, "staff.webhooks.sendTestEvent", {
      organization_id: org.id,
      endpoint_id: hook.endpoint.id,
    }),
  ) as { delivery_id: string };

  return {
    roleColleagueId: roleColleague.id,
    statusColleagueId: statusColleague.id,
    inviteId: invite.id,
    renameOrgId: renameOrg.id,
    emptyOrgId: emptyOrg.id,
    webhookId: hook.endpoint.id,
    doomedWebhookId: doomedHook.endpoint.id,
    deliveryId: delivery.delivery_id,
    orgId: org.id,
    mainIntegrationId: main.id,
    spareIntegrationId: spare.id,
    partnerKey: { id: partner.key.id, key: partnerKey },
    spareKeyId: spareKey.key.id,
    launchKeyId: launchKey.key.id,
    boundKeyId: boundKey.key.id,
    lifecycleKeyId: lifecycleKey.key.id,
    importJobId: imported.body.import.job_id,
    conversationId: message.body.conversation_id,
  };
}
beforeAll(async () => {
  ({ admin, viewer } = sessions);
  f = await makeFixture();
});

/** Everything a staff mutation could change, row by row, for "the forbidden call changed nothing". */
const WORLD_TABLES = {
  organizations: "id",
  tenant_configurations: "organization_id",
  integrations: "id",
  integration_aliases: "id",
  api_keys: "id",
  launch_bindings: "api_key_id",
  partner_users: "id",
  partner_teams: "id",
  lifecycle_operations: "id",
  import_jobs: "id",
  notification_outbox: "id",
  site_accounts: "id",
  audit_log: "id",
  staff_accounts: "id",
  staff_invites: "id",
} as const;
async function world() {
  const out: Record<string, unknown> = {};
  for (const [table, pk] of Object.entries(WORLD_TABLES)) {
    out[table] = (
      await rows(`SELECT coalesce(json_agg(t ORDER BY t.${pk}), '[]'::json) AS rows FROM ${table} t`)
    )[0].rows;
  }
  return out;
}

const userRef = (externalUserId: string) => ({ integration_id: f.mainIntegrationId, external_user_id: externalUserId });
const userState = (externalUserId: string) =>
  rows(
    `SELECT status, email, name, access_version, account_generation, profile_sync_status, last_operation_id
     FROM partner_users WHERE integration_id = $1 AND external_user_id = $2`,
    [f.mainIntegrationId, externalUserId],
  );
const aliasesOf = (integrationId: () => string) => () =>
  rows("SELECT slug, granted_key_ids FROM integration_aliases WHERE integration_id = $1 ORDER BY slug", [
    integrationId(),
  ]);

interface MutationCase {
  input: () => unknown;
  /** The state the mutation changes, read from the database. */
  probe: () => Promise<unknown>;
  /** The audit entry a successful call writes: its action, and its target given the result. */
  audit: string;
  target: (data: UntypedJson) => string;
}

/** Every mutation that needs the admin role. */
const ADMIN_MUTATIONS: Record<string, MutationCase> = {
  "staff.members.invite": {
    input: () => ({ email: "invited@mga.test", role: "viewer" }),
    probe: () => rows("SELECT email, role FROM staff_invites WHERE email = 'invited@mga.test'"),
    audit: "staff.invite",
    target: (data) => data.invite.id,
  },
  "staff.members.revokeInvite": {
    input: () => ({ id: f.inviteId }),
    probe: () => rows("SELECT revoked_at FROM staff_invites WHERE id = $1", [f.inviteId]),
    audit: "staff.invite_revoke",
    target: () => f.inviteId,
  },
  "staff.members.setRole": {
    input: () => ({ id: f.roleColleagueId, role: "admin" }),
    probe: () => rows("SELECT role FROM staff_accounts WHERE id = $1", [f.roleColleagueId]),
    audit: "staff.role",
    target: () => f.roleColleagueId,
  },
  "staff.members.setStatus": {
    input: () => ({ id: f.statusColleagueId, status: "disabled" }),
    probe: () => rows("SELECT disabled_at FROM staff_accounts WHERE id = $1", [f.statusColleagueId]),
    audit: "staff.disable",
    target: () => f.statusColleagueId,
  },
  "staff.organizations.create": {
    input: () => ({ name: "Authz created org" }),
    probe: () => rows("SELECT id FROM organizations WHERE name = 'Authz created org'"),
    audit: "organization.create",
    target: (data) => data.id,
  },
  "staff.organizations.rename": {
    input: () => ({ id: f.renameOrgId, name: "Authz renamed" }),
    probe: () => rows("SELECT name FROM organizations WHERE id = $1", [f.renameOrgId]),
    audit: "organization.rename",
    target: () => f.renameOrgId,
  },
  "staff.organizations.delete": {
    input: () => ({ id: f.emptyOrgId }),
    probe: () => rows("SELECT id FROM organizations WHERE id = $1", [f.emptyOrgId]),
    audit: "organization.delete",
    target: () => f.emptyOrgId,
  },
  "staff.organizations.configureTenant": {
    input: () => ({ id: f.orgId, config: TENANT }),
    probe: () => rows("SELECT config FROM tenant_configurations WHERE organization_id = $1", [f.orgId]),
    audit: "tenant.configure",
    target: () => f.orgId,
  },
  "staff.integrations.create": {
    input: () => ({ organization_id: f.orgId, slug: "authz-created", aliases: ["authz-created-alias"] }),
    probe: () => rows("SELECT slug, status FROM integrations WHERE organization_id = $1 ORDER BY slug", [f.orgId]),
    audit: "integration.create",
    target: (data) => data.id,
  },
  "staff.integrations.setStatus": {
    input: () => ({ id: f.spareIntegrationId, status: "disabled" }),
    probe: () => rows("SELECT status FROM integrations WHERE id = $1", [f.spareIntegrationId]),
    audit: "integration.disable",
    target: () => f.spareIntegrationId,
  },
  "staff.integrations.addAlias": {
    input: () => ({ id: f.mainIntegrationId, alias: "alias-added" }),
    probe: aliasesOf(() => f.mainIntegrationId),
    audit: "integration.alias_add",
    target: () => f.mainIntegrationId,
  },
  "staff.integrations.removeAlias": {
    input: () => ({ id: f.mainIntegrationId, alias: "alias-drop" }),
    probe: aliasesOf(() => f.mainIntegrationId),
    audit: "integration.alias_remove",
    target: () => f.mainIntegrationId,
  },
  "staff.integrations.setAliasGrant": {
    input: () => ({ id: f.mainIntegrationId, alias: "alias-keep", key_id: f.partnerKey.id, granted: true }),
    probe: aliasesOf(() => f.mainIntegrationId),
    audit: "integration.alias_grant",
    target: () => f.mainIntegrationId,
  },
  "staff.integrations.setChatAnswerLimit": {
    input: () => ({ id: f.spareIntegrationId, chat_answers_per_user_per_minute: 5 }),
    probe: () =>
      rows("SELECT chat_answers_per_user_per_minute FROM integrations WHERE id = $1", [f.spareIntegrationId]),
    audit: "integration.chat_answer_limit",
    target: () => f.spareIntegrationId,
  },
  "staff.keys.create": {
    input: () => ({ organization_id: f.orgId, name: "Authz created key", scopes: ["chat:read"] }),
    probe: () => rows("SELECT id FROM api_keys WHERE name = 'Authz created key'"),
    audit: "key.create",
    target: (data) => data.key.id,
  },
  "staff.keys.revoke": {
    input: () => ({ id: f.spareKeyId }),
    probe: () => rows("SELECT status, revoked_at FROM api_keys WHERE id = $1", [f.spareKeyId]),
    audit: "key.revoke",
    target: () => f.spareKeyId,
  },
  "staff.keys.update": {
    input: () => ({ id: f.lifecycleKeyId, scopes: ["chat:read", "sources:read"] }),
    probe: () => rows("SELECT name, scopes FROM api_keys WHERE id = $1", [f.lifecycleKeyId]),
    audit: "key.update",
    target: (data) => data.key.id,
  },
  "staff.keys.roll": {
    input: () => ({ id: f.lifecycleKeyId, old_key_expires_in_seconds: 3600 }),
    probe: () =>
      rows("SELECT id, expires_at FROM api_keys WHERE id = $1 OR rolled_from_key_id = $1 ORDER BY created_at", [
        f.lifecycleKeyId,
      ]),
    audit: "key.roll",
    target: () => f.lifecycleKeyId,
  },
  "staff.webhooks.create": {
    input: () => ({
      organization_id: f.orgId,
      url: "https://hooks.authz.test/created",
      event_types: ["operation.completed"],
    }),
    probe: () =>
      rows("SELECT url FROM webhook_endpoints WHERE organization_id = $1 ORDER BY created_at, id", [f.orgId]),
    audit: "webhook_endpoint.create",
    target: (data) => data.endpoint.id,
  },
  "staff.webhooks.update": {
    input: () => ({ organization_id: f.orgId, endpoint_id: f.webhookId, description: "changed by authz" }),
    probe: () => rows("SELECT description, status FROM webhook_endpoints WHERE id = $1", [f.webhookId]),
    audit: "webhook_endpoint.update",
    target: () => f.webhookId,
  },
  "staff.webhooks.rollSecret": {
    input: () => ({ organization_id: f.orgId, endpoint_id: f.webhookId }),
    probe: () => rows("SELECT secret_sealed FROM webhook_endpoints WHERE id = $1", [f.webhookId]),
    audit: "webhook_endpoint.roll_secret",
    target: () => f.webhookId,
  },
  "staff.webhooks.sendTestEvent": {
    input: () => ({ organization_id: f.orgId, endpoint_id: f.webhookId }),
    probe: () => rows("SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1", [f.webhookId]),
    audit: "webhook_endpoint.send_test",
    target: () => f.webhookId,
  },
  "staff.webhooks.redeliver": {
    input: () => ({ organization_id: f.orgId, delivery_id: f.deliveryId }),
    probe: () => rows("SELECT window_started_at, status FROM webhook_deliveries WHERE id = $1", [f.deliveryId]),
    audit: "webhook_delivery.redeliver",
    target: () => f.deliveryId,
  },
  "staff.webhooks.delete": {
    input: () => ({ organization_id: f.orgId, endpoint_id: f.doomedWebhookId }),
    probe: () => rows("SELECT id FROM webhook_endpoints WHERE id = $1", [f.doomedWebhookId]),
    audit: "webhook_endpoint.delete",
    target: () => f.doomedWebhookId,
  },
  "staff.keys.setRateLimit": {
    input: () => ({ id: f.partnerKey.id, rate_limit_per_minute: 5000 }),
    probe: () => rows("SELECT rate_limit_per_minute FROM api_keys WHERE id = $1", [f.partnerKey.id]),
    audit: "key.rate_limit",
    target: () => f.partnerKey.id,
  },
  "staff.keys.bindLaunch": {
    input: () => ({ id: f.launchKeyId, integration: MAIN }),
    probe: () => rows("SELECT public_name, enabled FROM launch_bindings WHERE api_key_id = $1", [f.launchKeyId]),
    audit: "key.launch_bind",
    target: () => f.launchKeyId,
  },
  "staff.keys.unbindLaunch": {
    input: () => ({ id: f.boundKeyId }),
    probe: () => rows("SELECT public_name, enabled FROM launch_bindings WHERE api_key_id = $1", [f.boundKeyId]),
    audit: "key.launch_unbind",
    target: () => f.boundKeyId,
  },
  "staff.partnerUsers.add": {
    input: () => ({
      integration_id: f.mainIntegrationId,
      external_user_id: "u-added",
      email: "u-added@authz.test",
      name: "Added By Staff",
    }),
    probe: () => userState("u-added"),
    audit: "partner_user.create",
    target: () => `${MAIN}/u-added`,
  },
  "staff.partnerImports.start": {
    input: () => ({ integration_id: f.mainIntegrationId, csv: "external_user_id,email\nimp-csv,imp-csv@authz.test\n" }),
    probe: () => rows("SELECT count(*)::int AS n FROM import_jobs WHERE integration_id = $1", [f.mainIntegrationId]),
    audit: "partner_import.create",
    target: (data) => data.job_id,
  },
  "staff.partnerUsers.setStatus": {
    input: () => ({ ...userRef("u-status"), status: "disabled" }),
    probe: () => userState("u-status"),
    audit: "partner_user.disable",
    target: () => `${MAIN}/u-status`,
  },
  "staff.partnerUsers.requestDeletion": {
    input: () => ({ ...userRef("u-delete"), note: "authz table" }),
    probe: () => userState("u-delete"),
    audit: "partner_user.delete",
    target: () => `${MAIN}/u-delete`,
  },
  "staff.partnerUsers.requestReprovision": {
    input: () => ({ ...userRef("u-gone"), email: "u-gone-again@authz.test" }),
    probe: () => userState("u-gone"),
    audit: "partner_user.reprovision",
    target: () => `${MAIN}/u-gone`,
  },
  "staff.partnerUsers.overrideProfile": {
    input: () => ({ ...userRef("u-override"), name: "Overridden Name", reason: "authz table" }),
    probe: () => userState("u-override"),
    audit: "partner_user.profile_override",
    target: () => `${MAIN}/u-override`,
  },
};

interface QueryCase {
  input?: () => unknown;
  /** What a viewer gets, checked on concrete values of the fixture. */
  check: (data: UntypedJson) => void;
}

/** Every query: any signed-in staff member may read. */
const QUERIES: Record<string, QueryCase> = {
  "staff.me": {
    check: (data) => expect(data).toEqual({ email: VIEWER.email, role: "viewer", csrf_token: viewer.csrf }),
  },
  "staff.members.list": {
    check: (data) => {
      expect(
        data.members.map((m: { email: string; role: string; status: string }) => [m.email, m.role, m.status]),
      ).toEqual(
        expect.arrayContaining([
          [ADMIN.email, "admin", "active"],
          [VIEWER.email, "viewer", "active"],
        ]),
      );
      expect(data.invites.find((i: { id: string }) => i.id === f.inviteId)).toEqual({
        id: f.inviteId,
        email: "pending-invite@mga.test",
        role: "viewer",
        invited_by: "test",
        created_at: expect.any(String),
        expires_at: expect.any(String),
      });
    },
  },
  "staff.search": {
    input: () => ({ q: "U-OVERRIDE@authz" }),
    check: (data) => {
      expect(data.users.items).toEqual([
        {
          external_user_id: "u-override",
          email: "u-override@authz.test",
          name: "Override Me",
          status: "active",
          integration: { id: f.mainIntegrationId, slug: MAIN },
          organization: { id: f.orgId, name: "Authz Org" },
        },
      ]);
      for (const kind of ["organizations", "integrations", "keys", "conversations", "operations"])
        expect(data[kind]).toEqual({ items: [], more: false });
      // The kind with hits first, the empty ones after in their usual order.
      expect(data.order).toEqual(["users", "organizations", "integrations", "keys", "conversations", "operations"]);
    },
  },
  "staff.organizations.list": {
    check: (data) =>
      expect(data.find((org: { id: string }) => org.id === f.orgId)).toEqual({
        id: f.orgId,
        name: "Authz Org",
        created_at: expect.any(String),
        integrations: 2,
        active_keys: 5,
      }),
  },
  "staff.organizations.get": {
    input: () => ({ id: f.orgId }),
    check: (data) =>
      expect(data).toEqual({
        id: f.orgId,
        name: "Authz Org",
        created_at: expect.any(String),
        tenant: ACME_TENANT,
        tenant_configured_at: expect.any(String),
        suggested_agency_sources: ["fannie_mae", "freddie_mac", "fha", "va", "usda"],
        deletion_blockers: {
          active_keys: 5,
          active_integrations: expect.any(Number),
          partner_users: expect.any(Number),
        },
      }),
  },
  "staff.integrations.list": {
    input: () => ({ organization_id: f.orgId }),
    check: (data) =>
      expect(
        data.map((i: { slug: string; users: number; status: string }) => [i.slug, i.status, i.users]).sort(),
      ).toEqual([
        [MAIN, "active", 4],
        ["authz-spare", "active", 0],
      ]),
  },
  "staff.integrations.aliasRule": {
    check: (data) => expect(data).toBe(ALIAS_GRANT_RULE),
  },
  "staff.integrations.chatAnswerLimits": {
    check: (data) => expect(data).toEqual({ default_per_user_per_minute: 20, max_per_user_per_minute: 600 }),
  },
  "staff.integrations.get": {
    input: () => ({ id: f.mainIntegrationId }),
    check: (data) =>
      expect(data).toEqual({
        id: f.mainIntegrationId,
        organization_id: f.orgId,
        slug: MAIN,
        status: "active",
        chat_answers_per_user_per_minute: null,
        aliases: [
          { slug: "alias-drop", granted_key_ids: [] },
          { slug: "alias-keep", granted_key_ids: [] },
        ],
      }),
  },
  "staff.keys.scopes": {
    check: (data) => {
      expect(data.scopes).toHaveLength(9);
      expect(data.scopes).toContainEqual({
        scope: "embed:launch",
        description: "issue single-use launch URLs (needs a launch binding)",
      });
      expect(data.advice).toHaveLength(4);
      expect(data.solo_scopes.map((rule: { scope: string }) => rule.scope)).toEqual([
        "embed:launch",
        "embed:users:delete",
      ]);
      expect(data.max_rate_limit_per_minute).toBe(100_000);
    },
  },
  "staff.keys.list": {
    input: () => ({ organization_id: f.orgId }),
    check: (data) => {
      const byName = new Map(data.map((k: { name: string }) => [k.name, k]));
      expect([...byName.keys()].sort()).toEqual([
        "authz bound",
        "authz launch",
        "authz lifecycle",
        "authz partner",
        "authz spare",
      ]);
      expect((byName.get("authz bound") as { launch_binding: unknown }).launch_binding).toEqual({
        integration: MAIN,
        canonical_integration: MAIN,
        enabled: true,
      });
      expect((byName.get("authz launch") as { launch_binding: unknown }).launch_binding).toBeNull();
    },
  },
  "staff.keys.expiring": {
    input: () => ({ organization_id: f.orgId }),
    // Only the organization's keys that expire within 7 days (the rolled key, once the roll has run).
    check: (data) =>
      expect(
        data.filter(
          (k: { organization_id: string; expires_at: string | null }) =>
            k.organization_id !== f.orgId || k.expires_at === null,
        ),
      ).toEqual([]),
  },
  "staff.webhooks.list": {
    input: () => ({ organization_id: f.orgId }),
    check: (data) => expect(data.endpoints.map((e: { id: string }) => e.id)).toContain(f.webhookId),
  },
  "staff.webhooks.deliveries": {
    input: () => ({ organization_id: f.orgId, endpoint_id: f.webhookId }),
    check: (data) => expect(data.deliveries.map((d: { id: string }) => d.id)).toContain(f.deliveryId),
  },
  "staff.usage.organizationUsage": {
    input: () => ({ organization_id: f.orgId, days: 30 }),
    check: (data) => expect(data).toBeTypeOf("object"),
  },
  "staff.usage.keyUsage": {
    input: () => ({ key_id: f.partnerKey.id, days: 30 }),
    check: (data) => expect(data).toBeTypeOf("object"),
  },
  "staff.usage.usageOverview": {
    input: () => ({ days: 30 }),
    check: (data) => expect(data).toBeTypeOf("object"),
  },
  "staff.usage.requestLog": {
    input: () => ({ organization_id: f.orgId }),
    check: (data) => expect(Array.isArray(data.requests)).toBe(true),
  },
  "staff.usage.findRequest": {
    input: () => ({ request_id: "req_not_logged" }),
    check: (data) => expect(data).toEqual({ request: null }),
  },
  "staff.keys.get": {
    input: () => ({ id: f.partnerKey.id }),
    check: (data) =>
      expect(data).toMatchObject({
        id: f.partnerKey.id,
        name: "authz partner",
        status: "active",
        last_four: f.partnerKey.key.slice(-4),
        launch_binding: null,
      }),
  },
  "staff.partnerUsers.list": {
    input: () => ({ integration_id: f.mainIntegrationId }),
    check: (data) => {
      expect(data.users.map((u: { external_user_id: string }) => u.external_user_id)).toEqual([
        "u-status",
        "u-delete",
        "u-override",
        "imp-1",
      ]);
      // Staff see each user's contact details beside them (partners never read them back).
      expect(data.users.find((u: { external_user_id: string }) => u.external_user_id === "u-override").contact).toEqual(
        { email: "u-override@authz.test", name: "Override Me" },
      );
      expect(data.counts).toEqual({ total: 4, active: 4, disabled: 0, deleted: 1, pending: 0, failed: 0 });
    },
  },
  "staff.partnerUsers.counts": {
    input: () => ({ integration_id: f.mainIntegrationId }),
    check: (data) =>
      expect(data).toMatchObject({
        total: expect.any(Number),
        active: expect.any(Number),
        deleted: expect.any(Number),
      }),
  },
  "staff.partnerUsers.siteAccountForEmail": {
    input: () => ({ integration_id: f.mainIntegrationId, email: "U-Override@authz.test" }),
    check: (data) => expect(data).toEqual({ site_account_exists: true, other_integrations: 0, hosted_product: false }),
  },
  "staff.partnerUsers.get": {
    input: () => userRef("u-override"),
    check: (data) => {
      expect(data.contact).toEqual({ email: "u-override@authz.test", name: "Override Me" });
      expect(data.user).toMatchObject({
        integration: MAIN,
        external_user_id: "u-override",
        status: "active",
        identity_origin: "partner_created",
      });
      expect(data.operations).toEqual([]);
    },
  },
  "staff.partnerUsers.conversations": {
    input: () => userRef("u-override"),
    check: (data) => expect(data).toEqual({ conversations: [], next_cursor: null, previous_cursor: null, total: 0 }),
  },
  "staff.partnerTeams.list": {
    input: () => ({ integration_id: f.mainIntegrationId }),
    check: (data) =>
      expect(data.teams.map((t: { external_team_id: string; name: string }) => [t.external_team_id, t.name])).toEqual([
        ["t1", "Team One"],
      ]),
  },
  "staff.partnerImports.list": {
    input: () => ({ integration_id: f.mainIntegrationId }),
    check: (data) =>
      expect(data).toEqual({
        imports: [
          {
            job_id: f.importJobId,
            status: "completed",
            total: 1,
            processed: 1,
            failed: 0,
            created_at: expect.any(String),
            completed_at: expect.any(String),
          },
        ],
        next_cursor: null,
        previous_cursor: null,
        total: 1,
      }),
  },
  "staff.partnerImports.get": {
    input: () => ({ integration_id: f.mainIntegrationId, job_id: f.importJobId }),
    check: (data) =>
      expect(data).toMatchObject({
        job_id: f.importJobId,
        integration: MAIN,
        status: "completed",
        total: 1,
        results: [{ external_user_id: "imp-1", outcome: "created", error: null, user_exists: true }],
      }),
  },
  "staff.conversations.overview": {
    input: () => ({ key_id: f.partnerKey.id }),
    check: (data) => {
      expect(data.counts).toEqual({ conversations: 1, messages: 2, embedded: 0 });
      expect(data.recent.map((c: { id: string }) => c.id)).toEqual([f.conversationId]);
    },
  },
  "staff.conversations.messages": {
    input: () => ({ key_id: f.partnerKey.id, conversation_id: f.conversationId }),
    check: (data) => expect(data.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]),
  },
  "staff.outbox.list": {
    input: () => ({ email: "u-status@authz.test" }),
    check: (data) => {
      expect(data.notifications.map((n: { kind: string; recipient: string }) => [n.kind, n.recipient])).toEqual([
        ["password_setup", "u-status@authz.test"],
      ]);
      expect(data.next_cursor).toBeNull();
    },
  },
  "staff.audit.list": {
    input: () => ({ action: "staff.sign_in", actor: VIEWER.email, limit: 5 }),
    check: (data) => expect(data.entries[0]).toMatchObject({ actor: VIEWER.email, action: "staff.sign_in" }),
  },
};

/** Sign-in is public; sign-out needs a session and its CSRF token, whatever the role. */
const SESSION_MUTATIONS = ["staff.signIn", "staff.signOut"];
/** An invitation link's token alone authorizes these (staff-members.test.ts covers them). */
const INVITATION_PROCEDURES = {
  "staff.invitations.describe": "query",
  "staff.invitations.accept": "mutation",
} as const;

describe("authorization of every staff procedure", () => {
  it("the tables above list every procedure of the staff router, each once and with its kind", () => {
    const procedures = (adminRouter as unknown as { _def: { procedures: Record<string, { _def: { type: string } }> } })
      ._def.procedures;
    const actual = Object.fromEntries(
      Object.entries(procedures)
        .filter(([path]) => path.startsWith("staff."))
        .map(([path, procedure]) => [path, procedure._def.type]),
    );
    const listed = [
      ...Object.keys(ADMIN_MUTATIONS),
      ...Object.keys(QUERIES),
      ...SESSION_MUTATIONS,
      ...Object.keys(INVITATION_PROCEDURES),
    ];
    expect(new Set(listed).size).toBe(listed.length);
    expect(actual).toEqual({
      ...INVITATION_PROCEDURES,
      ...Object.fromEntries(Object.keys(ADMIN_MUTATIONS).map((path) => [path, "mutation"])),
      ...Object.fromEntries(SESSION_MUTATIONS.map((path) => [path, "mutation"])),
      ...Object.fromEntries(Object.keys(QUERIES).map((path) => [path, "query"])),
    });
  });

  it.each(Object.keys(QUERIES))("%s: 401 signed out, 200 for a viewer", async (path) => {
    const entry = QUERIES[path] as QueryCase;
    const input = entry.input?.();
    const signedOut = await query(undefined, path, input);
    expect(signedOut.status).toBe(401);
    expect(signedOut.error).toMatchObject({ message: "sign in first", data: { httpStatus: 401 } });
    expect(signedOut.data).toBeUndefined();
    const ended = await query({ ...viewer, cookie: "mga_staff=not-a-session" }, path, input);
    expect(ended.status).toBe(401);
    const res = await query(viewer, path, input);
    entry.check(ok(res));
  });

  it.each(Object.keys(ADMIN_MUTATIONS))(
    "%s: 401 signed out, 403 for a viewer and without the session's CSRF token, and nothing changes",
    async (path) => {
      const entry = ADMIN_MUTATIONS[path] as MutationCase;
      const input = entry.input();
      const before = { probe: await entry.probe(), world: await world() };

      const calls = [
        { who: "signed out", status: 401, message: "sign in first", res: await trpc(path, { mutation: true, input }) },
        {
          who: "signed out with a CSRF token",
          status: 401,
          message: "sign in first",
          res: await trpc(path, { mutation: true, input, csrf: admin.csrf }),
        },
        {
          who: "viewer with CSRF",
          status: 403,
          message: "this action needs the admin role",
          res: await mutate(viewer, path, input),
        },
        {
          who: "admin without CSRF",
          status: 403,
          message: "missing or wrong X-CSRF-Token",
          res: await trpc(path, { mutation: true, input, cookie: admin.cookie }),
        },
        {
          who: "admin with another session's CSRF",
          status: 403,
          message: "missing or wrong X-CSRF-Token",
          res: await trpc(path, { mutation: true, input, cookie: admin.cookie, csrf: viewer.csrf }),
        },
        {
          who: "admin as a GET request",
          status: 405,
          message: "GET is not allowed on this path; it answers POST",
          res: await trpc(path, { input, cookie: admin.cookie, csrf: admin.csrf }),
        },
      ];
      for (const call of calls) {
        expect({
          who: call.who,
          status: call.res.status,
          message: call.res.error?.message,
          data: call.res.data,
        }).toEqual({
          who: call.who,
          status: call.status,
          message: call.message,
          data: undefined,
        });
      }
      expect(await entry.probe()).toEqual(before.probe);
      expect(await world()).toEqual(before.world);
    },
  );

  // Every audit row is written in its change's transaction (core's withAudit, or the core
  // function itself): when the row cannot be written, nothing of the change remains. A
  // trigger refuses this mutation's audit row; the call fails and the probed state is as before.
  it.each(Object.keys(ADMIN_MUTATIONS))(
    "%s: when its audit row cannot be written, the change is rolled back",
    async (path) => {
      const entry = ADMIN_MUTATIONS[path] as MutationCase;
      const before = await entry.probe();
      await rows(
        `CREATE OR REPLACE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit row refused'; END $$`,
      );
      await rows(
        `CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log FOR EACH ROW WHEN (NEW.action = '${entry.audit}') EXECUTE FUNCTION refuse_audit()`,
      );
      try {
        const res = await mutate(admin, path, entry.input());
        expect(res.data).toBeUndefined();
      } finally {
        await rows("DROP TRIGGER refuse_audit ON audit_log");
      }
      expect(await entry.probe()).toEqual(before);
    },
  );

  // The control of the test above: the same input, from an admin with the token, does change
  // what the probe reads (so "nothing changed" meant something), and is audited.
  it.each(Object.keys(ADMIN_MUTATIONS))(
    "%s: an admin with the CSRF token succeeds, changes the probed state and is audited",
    async (path) => {
      const entry = ADMIN_MUTATIONS[path] as MutationCase;
      const before = await entry.probe();
      const data = ok(await mutate(admin, path, entry.input()));
      expect(await entry.probe()).not.toEqual(before);
      const [latest] = await auditList({ action: entry.audit, actor: ADMIN.email }, 1);
      expect(latest).toMatchObject({ actor: ADMIN.email, action: entry.audit, target: entry.target(data) });
    },
  );

  it("staff.signIn is public; staff.signOut needs a session and its own CSRF token, and a viewer may sign out", async () => {
    const wrong = await trpc("staff.signIn", {
      mutation: true,
      input: { email: VIEWER.email, password: "not the password" },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.setCookie).toBeNull();
    const session = await signIn(VIEWER.email, VIEWER.password);
    expect(session.csrf).not.toBe(viewer.csrf);
    expect((await trpc("staff.signOut", { mutation: true })).status).toBe(401);
    expect((await trpc("staff.signOut", { mutation: true, cookie: session.cookie })).status).toBe(403);
    expect((await trpc("staff.signOut", { mutation: true, cookie: session.cookie, csrf: viewer.csrf })).status).toBe(
      403,
    );
    expect(ok(await query(session, "staff.me")).email).toBe(VIEWER.email);
    expect(ok(await mutate(session, "staff.signOut"))).toEqual({ signed_out: true });
    expect((await query(session, "staff.me")).status).toBe(401);
    expect((await mutate(session, "staff.signOut")).status).toBe(401);
    // Only that session ended.
    expect(ok(await query(viewer, "staff.me")).email).toBe(VIEWER.email);
  });
});
