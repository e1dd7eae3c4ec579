import { beforeAll, describe, expect, it } from "vitest";

import { recordAudit } from "@mga/core/audit";
import { createApiKey } from "@mga/core/keys";
import { createIntegration } from "@mga/core/partners/integrations";
import { createStaff } from "@mga/core/staff";
import { configureTenant } from "@mga/core/tenants";

import { newPartner } from "../support/partners";
import { ok, staffClient, type StaffSession } from "../support/staff-client";
import { ACME_TENANT } from "../support/tenants";
import { expectEnvelope } from "../support/test-app";
import { answer, upstreamAnswers, useAppWithMockedUpstream } from "../support/upstream-mock";

/**
 * What the console's navigation reads (staff-procedures.test.ts has who may call them): the
 * global search, renaming and deleting organizations, and the totals and partial filters of
 * the paged lists.
 */
const setup = useAppWithMockedUpstream();
const db = () => setup.app.t.db;
const { query, mutate } = staffClient(() => setup.app.adminUrl);
const rows = async (sql: string, params: unknown[] = []) => (await db().sql.query(sql, params)).rows;

const ADMIN = { email: "ana@mga.test", password: "admin password 1" };
const VIEWER = { email: "vic@mga.test", password: "viewer password 1" };
let admin: StaffSession;
let viewer: StaffSession;
let partner: Awaited<ReturnType<typeof newPartner>>;
let integrationId: string;
let conversationId: string;
let operationId: string;

beforeAll(async () => {
  const { signIn } = staffClient(() => setup.app.adminUrl);
  await createStaff(db(), { ...ADMIN, role: "admin", actor: "test" });
  await createStaff(db(), { ...VIEWER, role: "viewer", actor: "test" });
  admin = await signIn(ADMIN.email, ADMIN.password);
  viewer = await signIn(VIEWER.email, VIEWER.password);
  partner = await newPartner(setup.app, {
    slug: "nav-los",
    scopes: ["embed:users:read", "embed:users:write", "embed:users:delete", "chat:read", "chat:write"],
  });
  await configureTenant(db(), { organizationId: partner.organizationId, config: ACME_TENANT });
  integrationId = (await rows("SELECT id FROM integrations WHERE slug = 'nav-los'"))[0].id;
  for (const id of ["lo-3001", "lo-3002", "uw-4001"])
    expect((await partner.put(`/users/${id}`, { email: `${id}@Nav.Example` })).status).toBe(201);
  const deletion = await partner.post("/users/uw-4001/deletions", {}, undefined, { "Idempotency-Key": "nav-delete" });
  expect(deletion.status).toBe(202);
  operationId = deletion.body.operation.operation_id;
  upstreamAnswers(answer());
  const message = await setup.app.request("/v1/messages", {
    method: "POST",
    key: partner.key,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ message: "What is the minimum down payment?", user: { external_user_id: "lo-3001" } }),
  });
  expect(message.status, message.text).toBe(200);
  conversationId = message.body.conversation_id;
});

const search = async (q: string) => ok(await query(viewer, "staff.search", { q }));

describe("global search", () => {
  it("finds users by part of the external id or stored email, any case, with their integration and organization", async () => {
    const byId = await search("LO-300");
    expect(byId.users.items.map((user: { external_user_id: string }) => user.external_user_id)).toEqual([
      "lo-3001",
      "lo-3002",
    ]);
    expect(byId.users.items[0]).toMatchObject({
      integration: { id: integrationId, slug: "nav-los" },
      organization: { id: partner.organizationId },
    });
    // Emails are stored normalized and matched in any case, whole or in part.
    expect((await search("LO-3002@NAV.example")).users.items).toEqual([
      expect.objectContaining({ external_user_id: "lo-3002", email: "lo-3002@nav.example" }),
    ]);
    // (uw-4001's deletion may have scrubbed its email by now: only the others are certain.)
    expect(
      (await search("@nav.exa")).users.items.map((user: { external_user_id: string }) => user.external_user_id),
    ).toEqual(expect.arrayContaining(["lo-3001", "lo-3002"]));
  });

  it("finds a key by id or last four, a conversation and an operation by id, an organization by part of its name", async () => {
    const key = (await rows("SELECT id, last_four FROM api_keys WHERE id = $1", [partner.keyId]))[0];
    expect((await search(key.id)).keys.items).toEqual([
      expect.objectContaining({
        id: key.id,
        last_four: key.last_four,
        organization: expect.objectContaining({ id: partner.organizationId }),
      }),
    ]);
    expect((await search(`…${key.last_four}`)).keys.items.map((hit: { id: string }) => hit.id)).toContain(key.id);
    expect((await search(conversationId)).conversations.items).toEqual([
      expect.objectContaining({ id: conversationId, key_id: partner.keyId, external_user_id: "lo-3001" }),
    ]);
    expect((await search(operationId)).operations.items).toEqual([
      expect.objectContaining({
        id: operationId,
        type: "deletion",
        integration_id: integrationId,
        external_user_id: "uw-4001",
      }),
    ]);
    const org = ok(await mutate(admin, "staff.organizations.create", { name: "Findable Lending" }));
    expect((await search("findable")).organizations.items).toEqual([{ id: org.id, name: "Findable Lending" }]);
    expect((await search(integrationId)).integrations.items).toEqual([
      expect.objectContaining({ id: integrationId, slug: "nav-los" }),
    ]);
  });

  it("finds a key by part of its name, and ranks a kind whose hit is the whole term first (issue 24, item 6)", async () => {
    const { key } = await createApiKey(db(), {
      organizationId: partner.organizationId,
      name: "Zephyr Sync",
      scopes: ["chat:read"],
    });
    const exact = await search("zephyr sync");
    expect(exact.keys.items).toEqual([expect.objectContaining({ id: key.id, name: "Zephyr Sync" })]);
    expect(exact.order[0]).toBe("keys");
    expect((await search("ZEPHYR")).keys.items.map((hit: { id: string }) => hit.id)).toEqual([key.id]);
    // Without an exact hit, the entities come before the users a partial term also matches.
    const org = ok(await mutate(admin, "staff.organizations.create", { name: "Lo-300 Holdings" }));
    const partial = await search("lo-300");
    expect(partial.organizations.items).toEqual([{ id: org.id, name: "Lo-300 Holdings" }]);
    expect(partial.users.items.length).toBeGreaterThan(0);
    expect(partial.order.slice(0, 2)).toEqual(["organizations", "users"]);
    // An exact external id puts the users first.
    expect((await search("lo-3001")).order[0]).toBe("users");
  });

  it("finds nothing for an unknown term, refuses an empty or overlong one with 400, and is no partner route", async () => {
    const none = await search("nothing-like-this");
    for (const kind of ["users", "organizations", "integrations", "keys", "conversations", "operations"])
      expect(none[kind]).toEqual({ items: [], more: false });
    for (const q of ["   ", "x".repeat(255)]) {
      const refused = await query(viewer, "staff.search", { q });
      expect(refused.status).toBe(400);
      expect(refused.data).toBeUndefined();
    }
    // Partners never search by email: there is no such route on /v1, and its user list refuses emails.
    expectEnvelope(
      await setup.app.request("/v1/search?q=lo-3001%40nav.example", { key: partner.key }),
      404,
      "not_found",
    );
    expectEnvelope(await partner.get("/users?q=lo-3001%40nav.example"), 400, "invalid_request");
  });
});

describe("renaming and deleting organizations", () => {
  it("renames (trimmed, audited with both names); refuses a blank name and an unknown organization", async () => {
    const org = ok(await mutate(admin, "staff.organizations.create", { name: "Old Name Lending" }));
    expect(ok(await mutate(admin, "staff.organizations.rename", { id: org.id, name: "  New Name Lending " }))).toEqual({
      id: org.id,
      name: "New Name Lending",
    });
    expect((await rows("SELECT name FROM organizations WHERE id = $1", [org.id]))[0].name).toBe("New Name Lending");
    expect(
      (
        await rows("SELECT actor, details FROM audit_log WHERE action = 'organization.rename' AND target = $1", [
          org.id,
        ])
      )[0],
    ).toEqual({
      actor: ADMIN.email,
      details: { from: "Old Name Lending", to: "New Name Lending" },
    });
    expect((await mutate(admin, "staff.organizations.rename", { id: org.id, name: "  " })).status).toBe(400);
    expect((await mutate(admin, "staff.organizations.rename", { id: "org_missing", name: "x" })).status).toBe(404);
    expect((await rows("SELECT name FROM organizations WHERE id = $1", [org.id]))[0].name).toBe("New Name Lending");
  });

  it("deletes an organization with no active keys, integrations or users, with its revoked keys and disabled integrations, audited; otherwise a 409 says what blocks it", async () => {
    const org = ok(await mutate(admin, "staff.organizations.create", { name: "Busy Lending" }));
    const other = ok(await mutate(admin, "staff.organizations.create", { name: "Neighbour Lending" }));
    await createIntegration(db(), { organizationId: org.id, slug: "busy-los" });
    const { key } = await createApiKey(db(), { organizationId: org.id, name: "busy", scopes: ["chat:read"] });
    const neighbourKey = await createApiKey(db(), {
      organizationId: other.id,
      name: "neighbour",
      scopes: ["chat:read"],
    });
    await createIntegration(db(), { organizationId: other.id, slug: "busy-los" });
    expect(ok(await query(viewer, "staff.organizations.get", { id: org.id })).deletion_blockers).toEqual({
      active_keys: 1,
      active_integrations: 1,
      partner_users: 0,
    });
    const refused = await mutate(admin, "staff.organizations.delete", { id: org.id });
    expect(refused.status).toBe(409);
    expect(refused.error?.message).toBe(
      "Busy Lending still has 1 active API key and 1 active integration; revoke its keys, disable its integrations first",
    );
    expect(await rows("SELECT id FROM organizations WHERE id = $1", [org.id])).toHaveLength(1);
    expect(
      await rows("SELECT id FROM audit_log WHERE action = 'organization.delete' AND target = $1", [org.id]),
    ).toEqual([]);

    // A partner user blocks it too, even once keys and integration are switched off.
    await db().sql.query("UPDATE api_keys SET status = 'revoked' WHERE id = $1", [key.id]);
    await db().sql.query("UPDATE integrations SET status = 'disabled' WHERE organization_id = $1", [org.id]);
    const integration = (await rows("SELECT id FROM integrations WHERE organization_id = $1", [org.id]))[0]
      .id as string;
    await db().sql.query(
      "INSERT INTO partner_users (id, integration_id, external_user_id, email, status, provisioning_status, mapping_status, created_at, updated_at) VALUES ('pu_busy', $1, 'lo-1', 'lo-1@busy.example', 'active', 'active', 'mapped', now(), now())",
      [integration],
    );
    expect((await mutate(admin, "staff.organizations.delete", { id: org.id })).error?.message).toBe(
      "Busy Lending still has 1 partner user; delete its partner users first",
    );
    // A deleted user's remains go with the organization.
    await db().sql.query("UPDATE partner_users SET status = 'deleted' WHERE id = 'pu_busy'");
    expect(ok(await query(viewer, "staff.organizations.get", { id: org.id })).deletion_blockers).toEqual({
      active_keys: 0,
      active_integrations: 0,
      partner_users: 0,
    });

    expect(ok(await mutate(admin, "staff.organizations.delete", { id: org.id }))).toEqual({
      id: org.id,
      deleted: true,
    });
    expect((await query(viewer, "staff.organizations.get", { id: org.id })).status).toBe(404);
    expect(await rows("SELECT id FROM api_keys WHERE organization_id = $1", [org.id])).toEqual([]);
    expect(await rows("SELECT id FROM integrations WHERE organization_id = $1", [org.id])).toEqual([]);
    expect(await rows("SELECT id FROM partner_users WHERE id = 'pu_busy'")).toEqual([]);
    expect(
      (
        await rows("SELECT actor, details FROM audit_log WHERE action = 'organization.delete' AND target = $1", [
          org.id,
        ])
      )[0],
    ).toEqual({
      actor: ADMIN.email,
      details: { name: "Busy Lending", revoked_keys_removed: [key.id], disabled_integrations_removed: ["busy-los"] },
    });
    // The other organization, with an integration of the same slug, is untouched.
    expect(await rows("SELECT id, status FROM api_keys WHERE organization_id = $1", [other.id])).toEqual([
      { id: neighbourKey.key.id, status: "active" },
    ]);
    expect(await rows("SELECT slug FROM integrations WHERE organization_id = $1", [other.id])).toEqual([
      { slug: "busy-los" },
    ]);
    expect((await mutate(admin, "staff.organizations.delete", { id: org.id })).status).toBe(404);
  });
});

describe("list totals and partial filters", () => {
  it("the user list counts what its filters match, page by page", async () => {
    const first = ok(
      await query(viewer, "staff.partnerUsers.list", { integration_id: integrationId, q: "lo-", limit: 1 }),
    );
    expect(first).toMatchObject({ total: 2, users: [expect.objectContaining({ external_user_id: "lo-3001" })] });
    const second = ok(
      await query(viewer, "staff.partnerUsers.list", {
        integration_id: integrationId,
        q: "lo-",
        limit: 1,
        cursor: first.next_cursor,
      }),
    );
    expect(second).toMatchObject({
      total: 2,
      next_cursor: null,
      users: [expect.objectContaining({ external_user_id: "lo-3002" })],
    });
  });

  it("the outbox matches a part of the recipient, any case, and counts the matches", async () => {
    const page = ok(await query(viewer, "staff.outbox.list", { email: "LO-300" }));
    expect(page.notifications.map((n: { recipient: string }) => n.recipient).sort()).toEqual([
      "lo-3001@nav.example",
      "lo-3002@nav.example",
    ]);
    expect(page.total).toBe(2);
    expect(ok(await query(viewer, "staff.outbox.list", { email: "nobody-here" }))).toEqual({
      notifications: [],
      next_cursor: null,
      previous_cursor: null,
      total: 0,
    });
  });

  it("the audit log matches a part of the actor, any case, and counts the matches", async () => {
    await recordAudit(db(), { actor: "Operator@Nav.Example", action: "nav.test", target: "t" });
    const page = ok(await query(viewer, "staff.audit.list", { actor: "operator@nav" }));
    expect(page.entries.map((e: { actor: string }) => e.actor)).toEqual(["Operator@Nav.Example"]);
    expect(page.total).toBe(1);
  });
});
