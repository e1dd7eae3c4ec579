import { readFileSync } from "node:fs";
import { adminRouter } from "@mga/api";
import { ALIAS_GRANT_RULE, bindLaunchKey, configureTenant, createApiKey, createIntegration, createOrganization, createStaff, inviteStaff } from "@mga/core";
import { beforeAll, describe, expect, it } from "vitest";
import { ALL_PARTNER_SCOPES } from "../support/partners";
import { ok, type StaffSession, staffClient } from "../support/staff-client";
import { ACME_TENANT } from "../support/tenants";
import { expectEnvelope } from "../support/test-app";
import { answer, upstreamAnswers, useAppWithMockedUpstream } from "../support/upstream-mock";
import type { UntypedJson } from "../support/untyped-json";

/**
 * The admin console's staff procedures (packages/api/src/routers/staff), over /trpc as the
 * console calls them: who may call what (every procedure of the router is in the tables
 * below, or the first test fails), then what each procedure does, checked through the
 * procedures themselves, the partner REST API and the database.
 */
const setup = useAppWithMockedUpstream();
const db = () => setup.app.t.db;
const { trpc, signIn, query, mutate } = staffClient(() => setup.app.adminUrl);

const ADMIN = { email: "ana@mga.test", password: "admin password 1" };
const VIEWER = { email: "vic@mga.test", password: "viewer password 1" };
const TENANT = JSON.parse(readFileSync(new URL("../../../../examples/tenant.json", import.meta.url), "utf8")) as Record<string, unknown> & {
  enabledSources: string[];
  baseSources: string[];
};

let admin: StaffSession;
let viewer: StaffSession;

const rows = async (sql: string, params: unknown[] = []) => (await db().pool.query(sql, params)).rows;
const json = { "Content-Type": "application/json" };
const rest = (method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}) =>
  setup.app.request(path, { method, key, headers: { ...(body === undefined ? {} : json), ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
const auditList = async (filter: { action?: string; actor?: string }, limit = 200) =>
  ok(await query(viewer, "staff.audit.list", { ...filter, limit })).entries as Array<{ id: string; actor: string; action: string; target: string; details: UntypedJson; created_at: string }>;

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
  importJobId: string;
  conversationId: string;
  /** Colleagues whose role and status the admin changes, and a pending invitation. */
  roleColleagueId: string;
  statusColleagueId: string;
  inviteId: string;
  /** Empty organizations an admin renames and deletes. */
  renameOrgId: string;
  emptyOrgId: string;
}
let f: Fixture;

/** Reads until `read` returns `expected` (expect.poll works only inside tests, this in hooks too). */
async function waitFor<T>(read: () => Promise<T>, expected: T, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (last !== expected) {
    if (Date.now() > deadline) throw new Error(`still ${String(last)} after ${timeoutMs} ms, expected ${String(expected)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
    last = await read();
  }
}

async function makeFixture(): Promise<Fixture> {
  const org = await createOrganization(db(), { name: "Authz Org" });
  // Another configuration than examples/tenant.json, which configureTenant's case stores.
  await configureTenant(db(), { organizationId: org.id, config: ACME_TENANT });
  const main = await createIntegration(db(), { organizationId: org.id, slug: MAIN, aliases: ["alias-keep", "alias-drop"] });
  const spare = await createIntegration(db(), { organizationId: org.id, slug: "authz-spare" });
  const key = async (name: string, scopes: string[]) => createApiKey(db(), { organizationId: org.id, name, scopes });
  const partner = await key("authz partner", [...ALL_PARTNER_SCOPES, "chat:read", "chat:write"]);
  const spareKey = await key("authz spare", ["chat:read"]);
  const launchKey = await key("authz launch", ["embed:launch"]);
  const boundKey = await key("authz bound", ["embed:launch"]);
  await bindLaunchKey(db(), { apiKeyId: boundKey.key.id, publicName: MAIN });

  const partnerKey = partner.plaintext;
  const base = `/v1/integrations/${MAIN}`;
  expect((await rest("PUT", `${base}/teams/t1`, partnerKey, { name: "Team One" })).status).toBe(201);
  for (const [id, name] of [["u-status", "Status User"], ["u-delete", "Delete User"], ["u-override", "Override Me"], ["u-gone", "Gone User"]] as const) {
    expect((await rest("PUT", `${base}/users/${id}`, partnerKey, { email: `${id}@authz.test`, name })).status).toBe(201);
  }
  const deletion = await rest("POST", `${base}/users/u-gone/deletions`, partnerKey, {}, { "Idempotency-Key": "authz-delete-u-gone" });
  expect(deletion.status, deletion.text).toBe(202);
  await waitFor(async () => (await rest("GET", `${base}/user-operations/${deletion.body.operation.operation_id}`, partnerKey)).body.operation.status, "completed");

  const imported = await rest("POST", `${base}/user-imports`, partnerKey, { users: [{ external_user_id: "imp-1", email: "imp-1@authz.test" }] }, {
    "Idempotency-Key": "authz-import-1",
  });
  expect(imported.status, imported.text).toBe(202);
  await waitFor(async () => (await rest("GET", `${base}/user-imports/${imported.body.import.job_id}`, partnerKey)).body.import.status, "completed");

  upstreamAnswers(answer());
  const message = await rest("POST", "/v1/messages", partnerKey, {
    message: "What is the minimum down payment for an FHA loan?",
    user: { external_user_id: "lo-1", email: "lo1@authz.test", name: "Loan Officer" },
    conversation: { title: "Authz conversation" },
  });
  expect(message.status, message.text).toBe(200);

  const roleColleague = await createStaff(db(), { email: "role-colleague@mga.test", password: "colleague password 1", role: "viewer", actor: "test" });
  const statusColleague = await createStaff(db(), { email: "status-colleague@mga.test", password: "colleague password 1", role: "viewer", actor: "test" });
  const { invite } = await inviteStaff(db(), { email: "pending-invite@mga.test", role: "viewer", actor: "test" });
  const renameOrg = await createOrganization(db(), { name: "Authz rename me" });
  const emptyOrg = await createOrganization(db(), { name: "Authz empty" });

  return {
    roleColleagueId: roleColleague.id,
    statusColleagueId: statusColleague.id,
    inviteId: invite.id,
    renameOrgId: renameOrg.id,
    emptyOrgId: emptyOrg.id,
    orgId: org.id,
    mainIntegrationId: main.id,
    spareIntegrationId: spare.id,
    partnerKey: { id: partner.key.id, key: partnerKey },
    spareKeyId: spareKey.key.id,
    launchKeyId: launchKey.key.id,
    boundKeyId: boundKey.key.id,
    importJobId: imported.body.import.job_id,
    conversationId: message.body.conversation_id,
  };
}

beforeAll(async () => {
  await createStaff(db(), { ...ADMIN, role: "admin", actor: "test" });
  await createStaff(db(), { ...VIEWER, role: "viewer", actor: "test" });
  admin = await signIn(ADMIN.email, ADMIN.password);
  viewer = await signIn(VIEWER.email, VIEWER.password);
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
  notification_outbox: "id",
  site_accounts: "id",
  audit_log: "id",
  staff_accounts: "id",
  staff_invites: "id",
} as const;
async function world() {
  const out: Record<string, unknown> = {};
  for (const [table, pk] of Object.entries(WORLD_TABLES)) {
    out[table] = (await rows(`SELECT coalesce(json_agg(t ORDER BY t.${pk}), '[]'::json) AS rows FROM ${table} t`))[0].rows;
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
const aliasesOf = (integrationId: () => string) => () => rows("SELECT slug, granted_key_ids FROM integration_aliases WHERE integration_id = $1 ORDER BY slug", [integrationId()]);

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
  "staff.me": { check: (data) => expect(data).toEqual({ email: VIEWER.email, role: "viewer", csrf_token: viewer.csrf }) },
  "staff.members.list": {
    check: (data) => {
      expect(data.members.map((m: { email: string; role: string; status: string }) => [m.email, m.role, m.status])).toEqual(
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
          status: "active",
          integration: { id: f.mainIntegrationId, slug: MAIN },
          organization: { id: f.orgId, name: "Authz Org" },
        },
      ]);
      for (const kind of ["organizations", "integrations", "keys", "conversations", "operations"]) expect(data[kind]).toEqual({ items: [], more: false });
    },
  },
  "staff.organizations.list": {
    check: (data) =>
      expect(data.find((org: { id: string }) => org.id === f.orgId)).toEqual({ id: f.orgId, name: "Authz Org", created_at: expect.any(String), integrations: 2, active_keys: 4 }),
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
      }),
  },
  "staff.integrations.list": {
    input: () => ({ organization_id: f.orgId }),
    check: (data) =>
      expect(data.map((i: { slug: string; users: number; status: string }) => [i.slug, i.status, i.users]).sort()).toEqual([
        [MAIN, "active", 4],
        ["authz-spare", "active", 0],
      ]),
  },
  "staff.integrations.aliasRule": {
    check: (data) => expect(data).toBe(ALIAS_GRANT_RULE),
  },
  "staff.integrations.get": {
    input: () => ({ id: f.mainIntegrationId }),
    check: (data) =>
      expect(data).toEqual({
        id: f.mainIntegrationId,
        organization_id: f.orgId,
        slug: MAIN,
        status: "active",
        aliases: [
          { slug: "alias-drop", granted_key_ids: [] },
          { slug: "alias-keep", granted_key_ids: [] },
        ],
      }),
  },
  "staff.keys.scopes": {
    check: (data) => {
      expect(data.scopes).toHaveLength(9);
      expect(data.scopes).toContainEqual({ scope: "embed:launch", description: "issue single-use launch URLs (needs a launch binding)" });
      expect(data.advice).toHaveLength(4);
      expect(data.solo_scopes.map((rule: { scope: string }) => rule.scope)).toEqual(["embed:launch", "embed:users:delete"]);
      expect(data.max_rate_limit_per_minute).toBe(100_000);
    },
  },
  "staff.keys.list": {
    input: () => ({ organization_id: f.orgId }),
    check: (data) => {
      const byName = new Map(data.map((k: { name: string }) => [k.name, k]));
      expect([...byName.keys()].sort()).toEqual(["authz bound", "authz launch", "authz partner", "authz spare"]);
      expect((byName.get("authz bound") as { launch_binding: unknown }).launch_binding).toEqual({ integration: MAIN, canonical_integration: MAIN, enabled: true });
      expect((byName.get("authz launch") as { launch_binding: unknown }).launch_binding).toBeNull();
    },
  },
  "staff.keys.get": {
    input: () => ({ id: f.partnerKey.id }),
    check: (data) => expect(data).toMatchObject({ id: f.partnerKey.id, name: "authz partner", status: "active", last_four: f.partnerKey.key.slice(-4), launch_binding: null }),
  },
  "staff.partnerUsers.list": {
    input: () => ({ integration_id: f.mainIntegrationId }),
    check: (data) => {
      expect(data.users.map((u: { external_user_id: string }) => u.external_user_id)).toEqual(["u-status", "u-delete", "u-override", "imp-1"]);
      expect(data.counts).toEqual({ total: 4, active: 4, disabled: 0, deleted: 1, pending: 0, failed: 0 });
    },
  },
  "staff.partnerUsers.counts": {
    input: () => ({ integration_id: f.mainIntegrationId }),
    check: (data) => expect(data).toMatchObject({ total: expect.any(Number), active: expect.any(Number), deleted: expect.any(Number) }),
  },
  "staff.partnerUsers.siteAccountForEmail": {
    input: () => ({ integration_id: f.mainIntegrationId, email: "U-Override@authz.test" }),
    check: (data) => expect(data).toEqual({ site_account_exists: true, other_integrations: 0, hosted_product: false }),
  },
  "staff.partnerUsers.get": {
    input: () => userRef("u-override"),
    check: (data) => {
      expect(data.contact).toEqual({ email: "u-override@authz.test", name: "Override Me" });
      expect(data.user).toMatchObject({ integration: MAIN, external_user_id: "u-override", status: "active", identity_origin: "partner_created" });
      expect(data.operations).toEqual([]);
    },
  },
  "staff.partnerTeams.list": {
    input: () => ({ integration_id: f.mainIntegrationId }),
    check: (data) => expect(data.teams.map((t: { external_team_id: string; name: string }) => [t.external_team_id, t.name])).toEqual([["t1", "Team One"]]),
  },
  "staff.partnerImports.list": {
    input: () => ({ integration_id: f.mainIntegrationId }),
    check: (data) =>
      expect(data).toEqual({
        imports: [{ job_id: f.importJobId, status: "completed", total: 1, processed: 1, failed: 0, created_at: expect.any(String), completed_at: expect.any(String) }],
        next_cursor: null,
        total: 1,
      }),
  },
  "staff.partnerImports.get": {
    input: () => ({ integration_id: f.mainIntegrationId, job_id: f.importJobId }),
    check: (data) =>
      expect(data).toMatchObject({ job_id: f.importJobId, integration: MAIN, status: "completed", total: 1, results: [{ external_user_id: "imp-1", outcome: "created", error: null }] }),
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
      expect(data.notifications.map((n: { kind: string; recipient: string }) => [n.kind, n.recipient])).toEqual([["password_setup", "u-status@authz.test"]]);
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
const INVITATION_PROCEDURES = { "staff.invitations.describe": "query", "staff.invitations.accept": "mutation" } as const;

describe("authorization of every staff procedure", () => {
  it("the tables above list every procedure of the staff router, each once and with its kind", () => {
    const procedures = (adminRouter as unknown as { _def: { procedures: Record<string, { _def: { type: string } }> } })._def.procedures;
    const actual = Object.fromEntries(
      Object.entries(procedures)
        .filter(([path]) => path.startsWith("staff."))
        .map(([path, procedure]) => [path, procedure._def.type]),
    );
    const listed = [...Object.keys(ADMIN_MUTATIONS), ...Object.keys(QUERIES), ...SESSION_MUTATIONS, ...Object.keys(INVITATION_PROCEDURES)];
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

  it.each(Object.keys(ADMIN_MUTATIONS))("%s: 401 signed out, 403 for a viewer and without the session's CSRF token, and nothing changes", async (path) => {
    const entry = ADMIN_MUTATIONS[path] as MutationCase;
    const input = entry.input();
    const before = { probe: await entry.probe(), world: await world() };

    const calls = [
      { who: "signed out", status: 401, message: "sign in first", res: await trpc(path, { mutation: true, input }) },
      { who: "signed out with a CSRF token", status: 401, message: "sign in first", res: await trpc(path, { mutation: true, input, csrf: admin.csrf }) },
      { who: "viewer with CSRF", status: 403, message: "this action needs the admin role", res: await mutate(viewer, path, input) },
      { who: "admin without CSRF", status: 403, message: "missing or wrong X-CSRF-Token", res: await trpc(path, { mutation: true, input, cookie: admin.cookie }) },
      {
        who: "admin with another session's CSRF",
        status: 403,
        message: "missing or wrong X-CSRF-Token",
        res: await trpc(path, { mutation: true, input, cookie: admin.cookie, csrf: viewer.csrf }),
      },
      { who: "admin as a GET request", status: 405, message: "method not allowed on this route", res: await trpc(path, { input, cookie: admin.cookie, csrf: admin.csrf }) },
    ];
    for (const call of calls) {
      expect({ who: call.who, status: call.res.status, message: call.res.error?.message, data: call.res.data }).toEqual({
        who: call.who,
        status: call.status,
        message: call.message,
        data: undefined,
      });
    }
    expect(await entry.probe()).toEqual(before.probe);
    expect(await world()).toEqual(before.world);
  });

  // The control of the test above: the same input, from an admin with the token, does change
  // what the probe reads (so "nothing changed" meant something), and is audited.
  it.each(Object.keys(ADMIN_MUTATIONS))("%s: an admin with the CSRF token succeeds, changes the probed state and is audited", async (path) => {
    const entry = ADMIN_MUTATIONS[path] as MutationCase;
    const before = await entry.probe();
    const data = ok(await mutate(admin, path, entry.input()));
    expect(await entry.probe()).not.toEqual(before);
    const [latest] = await auditList({ action: entry.audit, actor: ADMIN.email }, 1);
    expect(latest).toMatchObject({ actor: ADMIN.email, action: entry.audit, target: entry.target(data) });
  });

  it("staff.signIn is public; staff.signOut needs a session and its own CSRF token, and a viewer may sign out", async () => {
    const wrong = await trpc("staff.signIn", { mutation: true, input: { email: VIEWER.email, password: "not the password" } });
    expect(wrong.status).toBe(401);
    expect(wrong.setCookie).toBeNull();
    const session = await signIn(VIEWER.email, VIEWER.password);
    expect(session.csrf).not.toBe(viewer.csrf);
    expect((await trpc("staff.signOut", { mutation: true })).status).toBe(401);
    expect((await trpc("staff.signOut", { mutation: true, cookie: session.cookie })).status).toBe(403);
    expect((await trpc("staff.signOut", { mutation: true, cookie: session.cookie, csrf: viewer.csrf })).status).toBe(403);
    expect(ok(await query(session, "staff.me")).email).toBe(VIEWER.email);
    expect(ok(await mutate(session, "staff.signOut"))).toEqual({ signed_out: true });
    expect((await query(session, "staff.me")).status).toBe(401);
    expect((await mutate(session, "staff.signOut")).status).toBe(401);
    // Only that session ended.
    expect(ok(await query(viewer, "staff.me")).email).toBe(VIEWER.email);
  });
});

// ---------------------------------------------------------------------------------------
// Behaviour, through the procedures.
// ---------------------------------------------------------------------------------------

const newOrg = async (name: string) => ok(await mutate(admin, "staff.organizations.create", { name })) as { id: string; name: string };
const newKey = async (organizationId: string, scopes: string[], extra: Record<string, unknown> = {}) =>
  ok(await mutate(admin, "staff.keys.create", { organization_id: organizationId, name: `key ${scopes.join(" ")}`, scopes, ...extra })) as {
    key: Record<string, UntypedJson> & { id: string; last_four: string };
    plaintext: string;
    warnings: string[];
  };

describe("organizations and tenant configuration", () => {
  it("creates an organization; an invalid configuration is reported per field and stores nothing; a valid one is stored", async () => {
    const org = await newOrg("  Lender One  ");
    expect(org).toEqual({ id: expect.stringMatching(/^org_/), name: "Lender One" });
    const listed = ok(await query(viewer, "staff.organizations.list"));
    expect(listed.find((o: { id: string }) => o.id === org.id)).toEqual({ id: org.id, name: "Lender One", created_at: expect.any(String), integrations: 0, active_keys: 0 });

    const invalid = await mutate(admin, "staff.organizations.configureTenant", { id: org.id, config: { ...TENANT, baseSources: [...TENANT.baseSources, "rural_housing"] } });
    expect(ok(invalid)).toEqual({ saved: false, issues: [{ field: "baseSources", message: '"rural_housing" is not in enabledSources' }] });
    const unknownField = await mutate(admin, "staff.organizations.configureTenant", { id: org.id, config: { ...TENANT, colour: "red" } });
    expect(ok(unknownField)).toEqual({ saved: false, issues: [{ field: "colour", message: "unknown field: colour" }] });
    expect(await rows("SELECT * FROM tenant_configurations WHERE organization_id = $1", [org.id])).toEqual([]);
    const unconfigured = ok(await query(viewer, "staff.organizations.get", { id: org.id }));
    expect(unconfigured).toMatchObject({ tenant: { clientName: "Lender One", enabledSources: [], baseSources: [] }, tenant_configured_at: null });
    expect((await auditList({ action: "tenant.configure" })).filter((e) => e.target === org.id)).toEqual([]);

    const saved = ok(await mutate(admin, "staff.organizations.configureTenant", { id: org.id, config: TENANT }));
    expect(saved).toEqual({ saved: true, config: TENANT });
    const configured = ok(await query(viewer, "staff.organizations.get", { id: org.id }));
    expect(configured.tenant).toEqual(TENANT);
    expect(Date.parse(configured.tenant_configured_at)).toBeGreaterThan(Date.now() - 60_000);
    const [audited] = (await auditList({ action: "tenant.configure" })).filter((e) => e.target === org.id);
    expect(audited).toMatchObject({ actor: ADMIN.email, details: { enabled_sources: TENANT.enabledSources, base_sources: TENANT.baseSources } });

    // What partners then see: the key's tenant on GET /v1/me.
    const key = await newKey(org.id, ["chat:read"]);
    const me = await rest("GET", "/v1/me", key.plaintext);
    expect(me.body.key.tenant).toEqual(TENANT);
    expect(me.body.key.client).toEqual({ name: "Acme Lending", organization: "Acme Lending Corp." });
  });

  it("refuses bad input (400) and unknown organizations (404)", async () => {
    expect((await mutate(admin, "staff.organizations.create", { name: "   " })).status).toBe(400);
    expect((await mutate(admin, "staff.organizations.create", { name: "x", extra: 1 })).status).toBe(400);
    expect((await query(viewer, "staff.organizations.get", { id: "org_missing" })).status).toBe(404);
    const missing = await mutate(admin, "staff.organizations.configureTenant", { id: "org_missing", config: TENANT });
    expect(missing.status).toBe(404);
    expect(missing.error?.message).toBe("organization org_missing not found");
  });
});

describe("integrations and aliases", () => {
  it("creates an integration; an alias resolves only for the key granted it; disabling refuses partner calls with 403", async () => {
    const org = await newOrg("Integrations Lender");
    const created = ok(await mutate(admin, "staff.integrations.create", { organization_id: org.id, slug: "lender-los", aliases: ["lender"] }));
    expect(created).toEqual({ id: expect.stringMatching(/^int_/), organization_id: org.id, slug: "lender-los", status: "active", aliases: [{ slug: "lender", granted_key_ids: [] }] });
    const id = created.id as string;
    expect((await mutate(admin, "staff.integrations.create", { organization_id: org.id, slug: "lender-los" })).status).toBe(400);
    expect((await mutate(admin, "staff.integrations.create", { organization_id: org.id, slug: "other", aliases: ["lender"] })).status).toBe(400);

    const key = await newKey(org.id, ["embed:users:read", "embed:users:write"]);
    const otherKey = await newKey(org.id, ["embed:users:read", "embed:users:write"]);
    expect((await rest("PUT", "/v1/integrations/lender-los/users/emp-1", key.plaintext, { email: "emp1@lender.test" })).status).toBe(201);
    expectEnvelope(await rest("GET", "/v1/integrations/lender/users/emp-1", key.plaintext), 403, "forbidden");

    const granted = ok(await mutate(admin, "staff.integrations.setAliasGrant", { id, alias: "lender", key_id: key.key.id, granted: true }));
    expect(granted.aliases).toEqual([{ slug: "lender", granted_key_ids: [key.key.id] }]);
    const viaAlias = await rest("GET", "/v1/integrations/lender/users/emp-1", key.plaintext);
    expect(viaAlias.status).toBe(200);
    expect(viaAlias.body.user).toMatchObject({ integration: "lender-los", external_user_id: "emp-1" });
    expectEnvelope(await rest("GET", "/v1/integrations/lender/users/emp-1", otherKey.plaintext), 403, "forbidden");

    const added = ok(await mutate(admin, "staff.integrations.addAlias", { id, alias: "lender-old" }));
    expect(added.aliases).toEqual([
      { slug: "lender", granted_key_ids: [key.key.id] },
      { slug: "lender-old", granted_key_ids: [] },
    ]);
    expect((await mutate(admin, "staff.integrations.addAlias", { id, alias: "lender-los" })).status).toBe(400);
    expect((await mutate(admin, "staff.integrations.addAlias", { id, alias: "Not A Slug" })).status).toBe(400);
    expect((await mutate(admin, "staff.integrations.setAliasGrant", { id, alias: "not-an-alias", key_id: key.key.id, granted: true })).status).toBe(404);
    // A key of another organization cannot be granted the alias.
    const stranger = await newKey((await newOrg("Stranger Lender")).id, ["embed:users:read"]);
    expect((await mutate(admin, "staff.integrations.setAliasGrant", { id, alias: "lender", key_id: stranger.key.id, granted: true })).status).toBe(404);

    const revoked = ok(await mutate(admin, "staff.integrations.setAliasGrant", { id, alias: "lender", key_id: key.key.id, granted: false }));
    expect(revoked.aliases[0]).toEqual({ slug: "lender", granted_key_ids: [] });
    expectEnvelope(await rest("GET", "/v1/integrations/lender/users/emp-1", key.plaintext), 403, "forbidden");

    const removed = ok(await mutate(admin, "staff.integrations.removeAlias", { id, alias: "lender-old" }));
    expect(removed.aliases.map((a: { slug: string }) => a.slug)).toEqual(["lender"]);

    expect(ok(await query(viewer, "staff.integrations.list", { organization_id: org.id }))).toEqual([
      { id, organization_id: org.id, slug: "lender-los", status: "active", aliases: [{ slug: "lender", granted_key_ids: [] }], users: 1 },
    ]);
    expect(ok(await query(viewer, "staff.organizations.list")).find((o: { id: string }) => o.id === org.id)).toMatchObject({ integrations: 1, active_keys: 2 });

    const disabled = ok(await mutate(admin, "staff.integrations.setStatus", { id, status: "disabled" }));
    expect(disabled.status).toBe("disabled");
    expect(ok(await query(viewer, "staff.integrations.get", { id })).status).toBe("disabled");
    expectEnvelope(await rest("GET", "/v1/integrations/lender-los/users/emp-1", key.plaintext), 403, "forbidden");
    expectEnvelope(await rest("PUT", "/v1/integrations/lender-los/users/emp-2", key.plaintext, { email: "emp2@lender.test" }), 403, "forbidden");
    expect(ok(await mutate(admin, "staff.integrations.setStatus", { id, status: "active" })).status).toBe("active");
    expect((await rest("GET", "/v1/integrations/lender-los/users/emp-1", key.plaintext)).status).toBe(200);

    const actions = (await auditList({ action: "integration.", actor: ADMIN.email })).filter((e) => e.target === id).map((e) => e.action);
    expect([...actions].sort()).toEqual(
      ["integration.create", "integration.alias_grant", "integration.alias_add", "integration.alias_revoke", "integration.alias_remove", "integration.disable", "integration.enable"].sort(),
    );
  });
});

describe("aliases of other integrations", () => {
  it("an alias the integration does not have (another integration's, or none) can be neither granted nor removed through it: 404, nothing changes", async () => {
    const org = await newOrg("Sibling Lender");
    const los = ok(await mutate(admin, "staff.integrations.create", { organization_id: org.id, slug: "sib-los", aliases: ["sib-public"] }));
    const crm = ok(await mutate(admin, "staff.integrations.create", { organization_id: org.id, slug: "sib-crm", aliases: ["crm-public"] }));
    const key = await newKey(org.id, ["embed:users:read"]);

    const grant = await mutate(admin, "staff.integrations.setAliasGrant", { id: los.id, alias: "crm-public", key_id: key.key.id, granted: true });
    expect(grant.status).toBe(404);
    expect(grant.error?.message).toBe("alias crm-public is not an alias of sib-los");
    const removeSibling = await mutate(admin, "staff.integrations.removeAlias", { id: los.id, alias: "crm-public" });
    expect(removeSibling.status).toBe(404);
    expect(removeSibling.error?.message).toBe("alias crm-public is not an alias of sib-los");
    expect((await mutate(admin, "staff.integrations.removeAlias", { id: los.id, alias: "never-added" })).status).toBe(404);

    expect(ok(await query(viewer, "staff.integrations.get", { id: crm.id })).aliases).toEqual([{ slug: "crm-public", granted_key_ids: [] }]);
    expect(ok(await query(viewer, "staff.integrations.get", { id: los.id })).aliases).toEqual([{ slug: "sib-public", granted_key_ids: [] }]);
    expect((await auditList({ action: "integration.alias_" })).filter((e) => e.target === los.id || e.target === crm.id)).toEqual([]);
  });
});

describe("API keys", () => {
  let orgId: string;
  beforeAll(async () => {
    orgId = (await newOrg("Keys Lender")).id;
    ok(await mutate(admin, "staff.integrations.create", { organization_id: orgId, slug: "keys-los", aliases: ["keys-public"] }));
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
      launch_binding: null,
    });

    const me = await rest("GET", "/v1/me", created.plaintext);
    expect(me.status).toBe(200);
    expect(me.body.key).toMatchObject({ id: created.key.id, last_four: created.plaintext.slice(-4), scopes: ["chat:read"] });

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
      value && typeof value === "object" ? Object.entries(value).flatMap(([name, inner]) => [...(Array.isArray(value) ? [] : [name]), ...fieldNames(inner)]) : [];
    expect([...fieldNames(list), ...fieldNames(one)].filter((name) => /hash|secret|plaintext|key$/i.test(name))).toEqual([]);
    const listed = list.find((k: { id: string }) => k.id === created.key.id);
    expect(Object.keys(listed).sort()).toEqual(Object.keys(created.key).sort());
    expect(listed).toMatchObject({ last_four: created.plaintext.slice(-4), status: "active" });
    expect(Date.parse(one.last_used_at)).toBeGreaterThan(Date.now() - 60_000);
    // The creation is audited with last_four, never the key.
    const [audited] = (await auditList({ action: "key.create" })).filter((e) => e.target === created.key.id);
    expect(audited).toMatchObject({ actor: ADMIN.email, details: { last_four: created.plaintext.slice(-4), scopes: ["chat:read"], organization_id: orgId } });
    expect(JSON.stringify(audited)).not.toContain(created.plaintext);
  });

  it("warns when embed:launch or embed:users:delete share a key with other scopes (and creates the key anyway)", async () => {
    const launchWarning = "Keep embed:launch on a key of its own (a launch key).";
    const deleteWarning = "Keep embed:users:delete on a key of its own (a deletion key).";
    expect((await newKey(orgId, ["embed:launch", "embed:users:read"])).warnings).toEqual([launchWarning]);
    expect((await newKey(orgId, ["embed:users:delete", "embed:users:write"])).warnings).toEqual([deleteWarning]);
    expect((await newKey(orgId, ["embed:launch", "embed:users:delete"])).warnings).toEqual([launchWarning, deleteWarning]);
    expect((await newKey(orgId, ["embed:launch"])).warnings).toEqual([]);
    expect((await newKey(orgId, ["embed:users:delete"])).warnings).toEqual([]);
    expect((await mutate(admin, "staff.keys.create", { organization_id: orgId, name: "bad", scopes: ["embed:*"] })).status).toBe(400);
    expect((await mutate(admin, "staff.keys.create", { organization_id: orgId, name: "none", scopes: [] })).status).toBe(400);
  });

  it("binds a launch key (only one holding embed:launch) to a public name; unbinding stops its launches", async () => {
    const plain = await newKey(orgId, ["embed:users:read"]);
    const refused = await mutate(admin, "staff.keys.bindLaunch", { id: plain.key.id, integration: "keys-los" });
    expect(refused.status).toBe(400);
    expect(refused.error?.message).toContain("lacks the embed:launch scope");
    expect(await rows("SELECT * FROM launch_bindings WHERE api_key_id = $1", [plain.key.id])).toEqual([]);
    expect((await auditList({ action: "key.launch_bind" })).filter((e) => e.target === plain.key.id)).toEqual([]);

    const users = await newKey(orgId, ["embed:users:read", "embed:users:write"]);
    expect((await rest("PUT", "/v1/integrations/keys-los/users/lo-1", users.plaintext, { email: "lo1@keys.test" })).status).toBe(201);
    const launcher = await newKey(orgId, ["embed:launch"]);
    const launch = (integration: string) =>
      rest("POST", "/v1/embed-sessions", launcher.plaintext, {
        integration,
        user: { external_user_id: "lo-1" },
        loan_context: { external_loan_id: "LN-1", program: "fha", purpose: "purchase", units: 1, property_state: "TX", application_date: "2026-11-02" },
      });
    expectEnvelope(await launch("keys-public"), 403, "forbidden");
    expect((await mutate(admin, "staff.keys.bindLaunch", { id: launcher.key.id, integration: "nowhere" })).status).toBe(404);
    // An alias is bound only once it is granted to the key (ALIAS_GRANT_RULE).
    const ungranted = await mutate(admin, "staff.keys.bindLaunch", { id: launcher.key.id, integration: "keys-public" });
    expect(ungranted.status).toBe(400);
    expect(ungranted.error?.message).toBe("the alias keys-public is not granted to this key; grant it to the key first, then bind it");
    const integration = ok(await query(viewer, "staff.integrations.list", { organization_id: orgId })).find((i: { slug: string }) => i.slug === "keys-los");
    ok(await mutate(admin, "staff.integrations.setAliasGrant", { id: integration.id, alias: "keys-public", key_id: launcher.key.id, granted: true }));

    const bound = ok(await mutate(admin, "staff.keys.bindLaunch", { id: launcher.key.id, integration: "keys-public" }));
    expect(bound).toEqual({ integration: "keys-public", canonical_integration: "keys-los", enabled: true });
    expect(ok(await query(viewer, "staff.keys.get", { id: launcher.key.id })).launch_binding).toEqual(bound);
    const launched = await launch("keys-public");
    expect(launched.status, launched.text).toBe(201);
    expect(new URL(launched.body.launch_url).pathname).toBe("/embed/partner/keys-los");

    expect(ok(await mutate(admin, "staff.keys.unbindLaunch", { id: launcher.key.id }))).toEqual({ enabled: false });
    expect(ok(await query(viewer, "staff.keys.list", { organization_id: orgId })).find((k: { id: string }) => k.id === launcher.key.id).launch_binding).toEqual({
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
    const limited = ok(await mutate(admin, "staff.keys.setRateLimit", { id: launcher.key.id, rate_limit_per_minute: 50 }));
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
    const activeBefore = ok(await query(viewer, "staff.organizations.list")).find((o: { id: string }) => o.id === orgId).active_keys;
    const revoked = ok(await mutate(admin, "staff.keys.revoke", { id: key.key.id }));
    expect(revoked).toMatchObject({ id: key.key.id, status: "revoked", revoked_at: expect.any(String) });
    expectEnvelope(await rest("GET", "/v1/me", key.plaintext), 401, "unauthorized");
    expect(ok(await query(viewer, "staff.keys.get", { id: key.key.id })).status).toBe("revoked");
    expect(ok(await query(viewer, "staff.organizations.list")).find((o: { id: string }) => o.id === orgId).active_keys).toBe(activeBefore - 1);
    expect(ok(await mutate(admin, "staff.keys.revoke", { id: key.key.id })).revoked_at).toBe(revoked.revoked_at);
    expect((await mutate(admin, "staff.keys.revoke", { id: "key_missing" })).status).toBe(404);
  });

  it("sets a key's rate limit, which its next request uses; null returns to the default", async () => {
    const key = await newKey(orgId, ["chat:read"]);
    expect((await rest("GET", "/v1/me", key.plaintext)).headers.get("x-ratelimit-limit")).toBe("600");
    expect(ok(await mutate(admin, "staff.keys.setRateLimit", { id: key.key.id, rate_limit_per_minute: 7 })).rate_limit_per_minute).toBe(7);
    expect((await rest("GET", "/v1/me", key.plaintext)).headers.get("x-ratelimit-limit")).toBe("7");
    expect(ok(await query(viewer, "staff.keys.get", { id: key.key.id })).rate_limit_per_minute).toBe(7);
    expect((await mutate(admin, "staff.keys.setRateLimit", { id: key.key.id, rate_limit_per_minute: 0 })).status).toBe(400);
    expect((await mutate(admin, "staff.keys.setRateLimit", { id: key.key.id, rate_limit_per_minute: 100_001 })).status).toBe(400);
    expect((await mutate(admin, "staff.keys.setRateLimit", { id: key.key.id, rate_limit_per_minute: 2.5 })).status).toBe(400);
    expect(ok(await query(viewer, "staff.keys.get", { id: key.key.id })).rate_limit_per_minute).toBe(7);
    expect(ok(await mutate(admin, "staff.keys.setRateLimit", { id: key.key.id, rate_limit_per_minute: null })).rate_limit_per_minute).toBeNull();
    expect((await rest("GET", "/v1/me", key.plaintext)).headers.get("x-ratelimit-limit")).toBe("600");
    const [audited] = (await auditList({ action: "key.rate_limit" })).filter((e) => e.target === key.key.id);
    expect(audited).toMatchObject({ actor: ADMIN.email, details: { rate_limit_per_minute: null } });
  });
});

describe("partner users and the outbox", () => {
  const SLUG = "crm";
  let integrationId: string;
  let key: string;
  const put = (id: string, body: unknown) => rest("PUT", `/v1/integrations/${SLUG}/users/${id}`, key, body);
  const ref = (externalUserId: string) => ({ integration_id: integrationId, external_user_id: externalUserId });
  const getUser = async (externalUserId: string) => ok(await query(viewer, "staff.partnerUsers.get", ref(externalUserId)));
  const waitForOperation = (externalUserId: string, operationId: string) =>
    expect
      .poll(async () => (await getUser(externalUserId)).operations.find((op: { operation_id: string }) => op.operation_id === operationId)?.status, { timeout: 15_000, interval: 150 })
      .toBe("completed");

  beforeAll(async () => {
    const org = await newOrg("Users Lender");
    integrationId = ok(await mutate(admin, "staff.integrations.create", { organization_id: org.id, slug: SLUG })).id;
    key = (await newKey(org.id, ALL_PARTNER_SCOPES)).plaintext;
    expect((await put("emp-1", { email: "Emp.One@Crm.test", name: "Emp One" })).status).toBe(201);
    expect((await put("emp-10", { email: "emp10@crm.test", name: "Emp Ten" })).status).toBe(201);
    expect((await put("emp-2", { email: "emp2@crm.test" })).status).toBe(201);
    expect((await put("other-7", { email: "other7@crm.test" })).status).toBe(201);
  });

  it("lists users with the q filter, whole-integration counts and cursor pages", async () => {
    const found = ok(await query(viewer, "staff.partnerUsers.list", { integration_id: integrationId, q: "EMP-1" }));
    expect(found.users.map((u: { external_user_id: string }) => u.external_user_id)).toEqual(["emp-1", "emp-10"]);
    expect(found.counts).toEqual({ total: 4, active: 4, disabled: 0, deleted: 0, pending: 0, failed: 0 });
    expect(found.next_cursor).toBeNull();
    expect(JSON.stringify(found)).not.toMatch(/crm\.test|Emp One/i);

    const first = ok(await query(viewer, "staff.partnerUsers.list", { integration_id: integrationId, limit: 3 }));
    expect(first.users.map((u: { external_user_id: string }) => u.external_user_id)).toEqual(["emp-1", "emp-10", "emp-2"]);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = ok(await query(viewer, "staff.partnerUsers.list", { integration_id: integrationId, limit: 3, cursor: first.next_cursor }));
    expect(second.users.map((u: { external_user_id: string }) => u.external_user_id)).toEqual(["other-7"]);
    expect(second.next_cursor).toBeNull();
    expect((await query(viewer, "staff.partnerUsers.list", { integration_id: integrationId, limit: 3, cursor: first.next_cursor, q: "emp" })).status).toBe(400);
    expect((await query(viewer, "staff.partnerUsers.list", { integration_id: integrationId, q: "emp.one@crm.test" })).status).toBe(400);
    expect((await query(viewer, "staff.partnerUsers.list", { integration_id: "int_missing" })).status).toBe(404);
  });

  it("get shows the contact details partners never read back, and the user's operations", async () => {
    const got = await getUser("emp-1");
    expect(got.contact).toEqual({ email: "emp.one@crm.test", name: "Emp One" });
    expect(got.user).toMatchObject({ integration: SLUG, external_user_id: "emp-1", identity_origin: "partner_created", status: "active", provisioning_status: "active" });
    expect(got.operations).toEqual([]);
    const partnerView = await rest("GET", `/v1/integrations/${SLUG}/users/emp-1`, key);
    expect(partnerView.text).not.toContain("emp.one@crm.test");
    expect((await query(viewer, "staff.partnerUsers.get", ref("nobody"))).status).toBe(404);
  });

  it("siteAccountForEmail says whether an address has a site account and how many other integrations use it, naming none of them", async () => {
    const lookup = async (email: string) => ok(await query(viewer, "staff.partnerUsers.siteAccountForEmail", { integration_id: integrationId, email }));
    expect(await lookup("nobody.yet@lookup.test")).toEqual({ site_account_exists: false, other_integrations: 0, hosted_product: false });
    // A user of this integration alone: no other integration uses the account.
    expect(await lookup("EMP.ONE@crm.test")).toEqual({ site_account_exists: true, other_integrations: 0, hosted_product: false });
    // Two other integrations (of another organization) link one partner-created account.
    const otherOrg = await newOrg("Lookup Lender");
    const otherKey = (await newKey(otherOrg.id, ALL_PARTNER_SCOPES)).plaintext;
    for (const slug of ["lookup-a", "lookup-b"]) {
      ok(await mutate(admin, "staff.integrations.create", { organization_id: otherOrg.id, slug }));
      expect((await rest("PUT", `/v1/integrations/${slug}/users/lo-1`, otherKey, { email: "shared.person@lookup.test" })).status).toBe(201);
    }
    const shared = ok(await query(admin, "staff.partnerUsers.siteAccountForEmail", { integration_id: integrationId, email: "Shared.Person@lookup.test" }));
    expect(shared).toEqual({ site_account_exists: true, other_integrations: 2, hosted_product: false });
    expect(JSON.stringify(shared)).not.toMatch(/lookup|Lender|int_|org_/);
    // The hosted product's own account, used by no partner.
    await db().pool.query("INSERT INTO site_accounts (id, email, origin) VALUES ('sa_lookup_self', 'own.account@lookup.test', 'self')");
    expect(await lookup("own.account@lookup.test")).toEqual({ site_account_exists: true, other_integrations: 0, hosted_product: true });
    expect((await query(viewer, "staff.partnerUsers.siteAccountForEmail", { integration_id: integrationId, email: "x" })).status).toBe(400);
    expect((await query(viewer, "staff.partnerUsers.siteAccountForEmail", { integration_id: "int_missing", email: "own.account@lookup.test" })).status).toBe(404);
  });

  it("setStatus disables a user (the partner API shows it) and reactivates; both audited", async () => {
    const disabled = ok(await mutate(admin, "staff.partnerUsers.setStatus", { ...ref("emp-10"), status: "disabled" }));
    expect(disabled).toMatchObject({ external_user_id: "emp-10", status: "disabled", access_version: 2, launch_eligibility: { can_launch: false, blocking_reasons: ["disabled"] } });
    expect((await rest("GET", `/v1/integrations/${SLUG}/users/emp-10`, key)).body.user).toMatchObject({ status: "disabled", access_version: 2 });
    const listed = ok(await query(viewer, "staff.partnerUsers.list", { integration_id: integrationId, status: "disabled" }));
    expect(listed.users.map((u: { external_user_id: string }) => u.external_user_id)).toEqual(["emp-10"]);
    expect(listed.counts).toMatchObject({ total: 4, active: 3, disabled: 1 });

    expect(ok(await mutate(admin, "staff.partnerUsers.setStatus", { ...ref("emp-10"), status: "active" })).status).toBe("active");
    expect((await rest("GET", `/v1/integrations/${SLUG}/users/emp-10`, key)).body.user.status).toBe("active");
    const entries = (await auditList({ action: "partner_user.", actor: ADMIN.email })).filter((e) => e.target === `${SLUG}/emp-10`).map((e) => e.action);
    expect([...entries].sort()).toEqual(["partner_user.disable", "partner_user.reactivate"]);
  });

  it("requestDeletion cuts access at once and deletes in the background; requestReprovision brings the user back", async () => {
    expect((await mutate(admin, "staff.partnerUsers.requestReprovision", { ...ref("emp-2"), email: "emp2@crm.test" })).status).toBe(409);
    const deletion = ok(await mutate(admin, "staff.partnerUsers.requestDeletion", { ...ref("emp-2"), note: "left (ticket 42)" }));
    expect(deletion).toEqual({ operation_id: expect.stringMatching(/^op_/) });
    const partnerView = (await rest("GET", `/v1/integrations/${SLUG}/users/emp-2`, key)).body.user;
    expect(["disabled", "deleted"]).toContain(partnerView.status);
    expect(partnerView.lifecycle_operation).toMatchObject({ operation_id: deletion.operation_id, type: "deletion" });
    await waitForOperation("emp-2", deletion.operation_id);
    const deleted = await getUser("emp-2");
    expect(deleted.user.status).toBe("deleted");
    expect(deleted.contact).toEqual({ email: "", name: null });
    expect(deleted.operations.map((op: { operation_id: string; type: string }) => [op.operation_id, op.type])).toEqual([[deletion.operation_id, "deletion"]]);
    const [audited] = (await auditList({ action: "partner_user.delete" })).filter((e) => e.target === `${SLUG}/emp-2`);
    expect(audited).toMatchObject({ actor: ADMIN.email, details: { operation_id: deletion.operation_id } });

    const reprovision = ok(await mutate(admin, "staff.partnerUsers.requestReprovision", { ...ref("emp-2"), email: "Emp2.Again@crm.test", name: "Emp Two" }));
    expect(reprovision).toEqual({ operation_id: expect.stringMatching(/^op_/) });
    await waitForOperation("emp-2", reprovision.operation_id);
    const back = await getUser("emp-2");
    expect(back.user).toMatchObject({ status: "active", account_generation: 2, provisioning_status: "active" });
    expect(back.contact).toEqual({ email: "emp2.again@crm.test", name: "Emp Two" });
    expect(back.operations.map((op: { type: string }) => op.type)).toEqual(["reprovision", "deletion"]);
    const [reprovisioned] = (await auditList({ action: "partner_user.reprovision" })).filter((e) => e.target === `${SLUG}/emp-2`);
    expect(reprovisioned).toMatchObject({ actor: ADMIN.email, details: { operation_id: reprovision.operation_id } });
  });

  it("overrideProfile changes the profile with an audit entry naming the admin and the reason; partners never see the reason", async () => {
    expect((await mutate(admin, "staff.partnerUsers.overrideProfile", { ...ref("other-7"), name: "X", reason: "  " })).status).toBe(400);
    const operation = ok(await mutate(admin, "staff.partnerUsers.overrideProfile", { ...ref("other-7"), name: "Renamed Person", reason: "support ticket 77" }));
    expect(operation).toMatchObject({ operation_id: expect.stringMatching(/^op_/), type: "profile_change", user: { integration: SLUG, external_user_id: "other-7" } });
    const [audited] = (await auditList({ action: "partner_user.profile_override" })).filter((e) => e.target === `${SLUG}/other-7`);
    expect(audited).toMatchObject({
      actor: ADMIN.email,
      action: "partner_user.profile_override",
      details: { operation_id: operation.operation_id, reason: "support ticket 77", fields: ["name"] },
    });
    await waitForOperation("other-7", operation.operation_id);
    expect((await getUser("other-7")).contact).toEqual({ email: "other7@crm.test", name: "Renamed Person" });
    const partnerView = await rest("GET", `/v1/integrations/${SLUG}/user-operations/${operation.operation_id}`, key);
    expect(partnerView.body.operation.status).toBe("completed");
    expect(partnerView.text).not.toMatch(/ticket 77|ana@mga/);
  });

  it("outbox.list gives admins the password-setup link of a partner-created user, which works once; viewers do not get it", async () => {
    // A live link lets its holder set the account's password, so a read-only viewer sees only that there is one.
    expect(ok(await query(viewer, "staff.outbox.list", { email: " EMP.ONE@crm.test " })).notifications).toEqual([
      { id: expect.stringMatching(/^ntf_/), kind: "password_setup", recipient: "emp.one@crm.test", created_at: expect.any(String), used: false, link: null, link_hidden: true },
    ]);
    const outbox = ok(await query(admin, "staff.outbox.list", { email: " EMP.ONE@crm.test " })).notifications;
    expect(outbox).toEqual([
      {
        id: expect.stringMatching(/^ntf_/),
        kind: "password_setup",
        recipient: "emp.one@crm.test",
        created_at: expect.any(String),
        used: false,
        link: expect.stringMatching(new RegExp(`^${setup.app.baseUrl.replace(/[.]/g, "\\.")}/site/password-setup#token=[A-Za-z0-9_-]+$`)),
        link_hidden: false,
      },
    ]);
    const link = new URL(outbox[0].link);
    expect((await fetch(link)).status).toBe(200);
    const form = new URLSearchParams({ token: new URLSearchParams(link.hash.slice(1)).get("token") as string, password: "a new password 1" });
    const set = await fetch(`${setup.app.baseUrl}/site/password-setup`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: form });
    expect(set.status).toBe(200);
    expect(ok(await query(viewer, "staff.outbox.list", { email: "emp.one@crm.test" })).notifications[0].used).toBe(true);

    // A user matched to an existing site account gets no notification.
    await rows("INSERT INTO site_accounts (id, email, origin) VALUES ('sa_known_crm', 'known@crm.test', 'self')");
    expect((await put("known", { email: "known@crm.test" })).body.user.identity_origin).toBe("existing_mg");
    expect(ok(await query(viewer, "staff.outbox.list", { email: "known@crm.test" }))).toEqual({ notifications: [], next_cursor: null, total: 0 });
    const all = ok(await query(viewer, "staff.outbox.list", { limit: 200 })).notifications;
    expect(all.filter((n: { recipient: string }) => n.recipient.endsWith("@crm.test")).map((n: { recipient: string }) => n.recipient).sort()).toEqual(
      // emp-10 was disabled (its link withdrawn with the lock) and reactivated before choosing a password: a second link.
      ["emp.one@crm.test", "emp10@crm.test", "emp10@crm.test", "emp2.again@crm.test", "emp2@crm.test", "other7@crm.test"].sort(),
    );
  });

  it("outbox.list and partnerImports.list page newest first with cursors bound to their filters", async () => {
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = ok(await query(viewer, "staff.outbox.list", { limit: 2, ...(cursor ? { cursor } : {}) }));
      pages.push(page.notifications.map((n: { id: string }) => n.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    const everything = ok(await query(viewer, "staff.outbox.list", { limit: 200 })).notifications.map((n: { id: string }) => n.id);
    expect(pages.flat()).toEqual(everything);
    expect(pages.length).toBe(Math.ceil(everything.length / 2));
    const first = ok(await query(viewer, "staff.outbox.list", { limit: 1 }));
    const refused = await query(viewer, "staff.outbox.list", { limit: 1, email: "emp.one@crm.test", cursor: first.next_cursor });
    expect({ status: refused.status, message: refused.error?.message }).toEqual({ status: 400, message: "cursor: pass next_cursor with the same filters as the request that returned it" });

    const key = await newKey((await newOrg("Imports Lender")).id, ["embed:users:write", "embed:users:read"]);
    const integration = ok(await mutate(admin, "staff.integrations.create", { organization_id: key.key.organization_id, slug: "imports-los" }));
    const jobs: string[] = [];
    for (const n of [1, 2, 3]) {
      const started = await rest("POST", "/v1/integrations/imports-los/user-imports", key.plaintext, { users: [{ external_user_id: `imp-${n}`, email: `imp${n}@imports.test` }] }, {
        "Idempotency-Key": `paging-import-${n}`,
      });
      expect(started.status, started.text).toBe(202);
      jobs.push(started.body.import.job_id);
    }
    const firstPage = ok(await query(viewer, "staff.partnerImports.list", { integration_id: integration.id, limit: 2 }));
    expect(firstPage.imports.map((job: { job_id: string }) => job.job_id)).toEqual([jobs[2], jobs[1]]);
    const secondPage = ok(await query(viewer, "staff.partnerImports.list", { integration_id: integration.id, limit: 2, cursor: firstPage.next_cursor }));
    expect(secondPage).toEqual({ imports: [expect.objectContaining({ job_id: jobs[0] })], next_cursor: null, total: 3 });
  });

  it("partnerTeams.list searches external ids and names in any case, together with the status filter", async () => {
    const key = await newKey((await newOrg("Teams Lender")).id, ["embed:teams:read", "embed:teams:write"]);
    const integration = ok(await mutate(admin, "staff.integrations.create", { organization_id: key.key.organization_id, slug: "teams-los" }));
    for (const [id, name] of [
      ["loan-officers", "Loan Officers"],
      ["uw", "Underwriting"],
      ["closers", "Closing team"],
    ]) {
      expect((await rest("PUT", `/v1/integrations/teams-los/teams/${id}`, key.plaintext, { name })).status).toBe(201);
    }
    expect((await rest("PATCH", "/v1/integrations/teams-los/teams/closers", key.plaintext, { status: "archived" })).status).toBe(200);
    const search = async (filters: Record<string, string>) =>
      ok(await query(viewer, "staff.partnerTeams.list", { integration_id: integration.id, ...filters })).teams.map((team: { external_team_id: string }) => team.external_team_id);
    expect(await search({ q: "OFFICER" })).toEqual(["loan-officers"]);
    expect(await search({ q: "writing" })).toEqual(["uw"]);
    expect(await search({ q: "team" })).toEqual(["closers"]);
    expect(await search({ q: "team", status: "active" })).toEqual([]);
    expect(await search({})).toEqual(["loan-officers", "uw", "closers"]);
  });
});

describe("conversations of a key", () => {
  it("overview counts a key's conversations and messages after a message sent over the API; messages shows them", async () => {
    const org = await newOrg("Chat Lender");
    ok(await mutate(admin, "staff.organizations.configureTenant", { id: org.id, config: TENANT }));
    const chat = await newKey(org.id, ["chat:read", "chat:write"]);
    const quiet = await newKey(org.id, ["chat:read", "chat:write"]);
    const empty = ok(await query(viewer, "staff.conversations.overview", { key_id: chat.key.id }));
    expect(empty).toEqual({ counts: { conversations: 0, messages: 0, embedded: 0 }, last_activity_at: null, recent: [] });

    upstreamAnswers(answer("FHA requires 3.5 percent down. [1]"));
    const sent = await rest("POST", "/v1/messages", chat.plaintext, {
      message: "What is the minimum down payment for an FHA loan?",
      user: { external_user_id: "lo-9", email: "lo9@chat.test", name: "Loan Officer" },
      conversation: { title: "FHA question" },
    });
    expect(sent.status, sent.text).toBe(200);

    const overview = ok(await query(viewer, "staff.conversations.overview", { key_id: chat.key.id }));
    expect(overview.counts).toEqual({ conversations: 1, messages: 2, embedded: 0 });
    expect(Date.parse(overview.last_activity_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(overview.recent).toEqual([
      {
        id: sent.body.conversation_id,
        title: "FHA question",
        external_user_id: "lo-9",
        embedded: false,
        message_count: 2,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);

    const messages = ok(await query(viewer, "staff.conversations.messages", { key_id: chat.key.id, conversation_id: sent.body.conversation_id }));
    expect(messages.conversation).toMatchObject({ id: sent.body.conversation_id, title: "FHA question", external_user_id: "lo-9" });
    expect(messages.messages.map((m: { role: string; content: string; citations: number }) => [m.role, m.content, m.citations])).toEqual([
      ["user", "What is the minimum down payment for an FHA loan?", 0],
      ["assistant", "FHA requires 3.5 percent down. [1]", 1],
    ]);
    expect(messages.messages[1].id).toBe(sent.body.message_id);

    // Another key of the same organization sees none of it.
    expect(ok(await query(viewer, "staff.conversations.overview", { key_id: quiet.key.id })).counts).toEqual({ conversations: 0, messages: 0, embedded: 0 });
    expect((await query(viewer, "staff.conversations.messages", { key_id: quiet.key.id, conversation_id: sent.body.conversation_id })).status).toBe(404);
    expect((await query(viewer, "staff.conversations.overview", { key_id: "key_missing" })).status).toBe(404);
  });
});

describe("audit log", () => {
  it("filters by actor and by action prefix, newest first, and pages with a cursor bound to the filters", async () => {
    await createStaff(db(), { email: "auditor@mga.test", password: "auditor password 1", role: "admin", actor: "test" });
    const auditor = await signIn("auditor@mga.test", "auditor password 1");
    const ids: string[] = [];
    for (let i = 1; i <= 5; i += 1) ids.push(ok(await mutate(auditor, "staff.organizations.create", { name: `Audit page ${i}` })).id);

    const byAuditor = await auditList({ actor: "auditor@mga.test" });
    expect(byAuditor.map((e) => e.action).sort()).toEqual(["organization.create", "organization.create", "organization.create", "organization.create", "organization.create", "staff.sign_in"]);
    expect(byAuditor.every((e) => e.actor === "auditor@mga.test")).toBe(true);

    const filter = { actor: "auditor@mga.test", action: "organization." };
    const all = await auditList(filter);
    expect(all.map((e) => e.target).sort()).toEqual([...ids].sort());
    expect(all.map((e) => e.details.name).sort()).toEqual(["Audit page 1", "Audit page 2", "Audit page 3", "Audit page 4", "Audit page 5"]);
    const times = all.map((e) => Date.parse(e.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = ok(await query(viewer, "staff.audit.list", { ...filter, limit: 2, ...(cursor ? { cursor } : {}) }));
      pages.push(page.entries.map((e: { id: string }) => e.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor && pages.length < 10);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(all.map((e) => e.id));

    const firstPage = ok(await query(viewer, "staff.audit.list", { ...filter, limit: 2 }));
    expect((await query(viewer, "staff.audit.list", { actor: "auditor@mga.test", action: "staff.", limit: 2, cursor: firstPage.next_cursor })).status).toBe(400);
    expect((await query(viewer, "staff.audit.list", { ...filter, limit: 2, cursor: "not-a-cursor" })).status).toBe(400);

    const prefixed = await auditList({ action: "partner_user." });
    expect(prefixed.length).toBeGreaterThan(0);
    expect(prefixed.every((e) => e.action.startsWith("partner_user."))).toBe(true);
    expect(await auditList({ action: "organization.create", actor: "nobody@mga.test" })).toEqual([]);
  });
});
