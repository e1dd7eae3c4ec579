import { beforeAll, describe, expect, it } from "vitest";

import { ok, type StaffSession } from "../support/staff-client";
import { ADMIN, useStaffProcedures } from "../support/staff-procedures";
import { expectEnvelope } from "../support/test-app";

/** Staff procedures: integrations, their aliases and alias grants, checked through the procedures and the partner REST API. */
const { query, mutate, rest, auditList, newOrg, newKey, sessions } = useStaffProcedures();
let admin: StaffSession;
let viewer: StaffSession;
beforeAll(() => {
  ({ admin, viewer } = sessions);
});

describe("integrations and aliases", () => {
  it("creates an integration; an alias resolves only for the key granted it; disabling refuses partner calls with 403", async () => {
    const org = await newOrg("Integrations Lender");
    const created = ok(
      await mutate(admin, "staff.integrations.create", {
        organization_id: org.id,
        slug: "lender-los",
        aliases: ["lender"],
      }),
    );
    expect(created).toEqual({
      id: expect.stringMatching(/^int_/),
      organization_id: org.id,
      slug: "lender-los",
      status: "active",
      chat_answers_per_user_per_minute: null,
      aliases: [{ slug: "lender", granted_key_ids: [] }],
    });
    const id = created.id as string;
    expect(
      (await mutate(admin, "staff.integrations.create", { organization_id: org.id, slug: "lender-los" })).status,
    ).toBe(400);
    expect(
      (
        await mutate(admin, "staff.integrations.create", {
          organization_id: org.id,
          slug: "other",
          aliases: ["lender"],
        })
      ).status,
    ).toBe(400);

    const key = await newKey(org.id, ["embed:users:read", "embed:users:write"]);
    const otherKey = await newKey(org.id, ["embed:users:read", "embed:users:write"]);
    expect(
      (await rest("PUT", "/v1/integrations/lender-los/users/emp-1", key.plaintext, { email: "emp1@lender.test" }))
        .status,
    ).toBe(201);
    expectEnvelope(await rest("GET", "/v1/integrations/lender/users/emp-1", key.plaintext), 403, "forbidden");

    const granted = ok(
      await mutate(admin, "staff.integrations.setAliasGrant", {
        id,
        alias: "lender",
        key_id: key.key.id,
        granted: true,
      }),
    );
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
    expect(
      (
        await mutate(admin, "staff.integrations.setAliasGrant", {
          id,
          alias: "not-an-alias",
          key_id: key.key.id,
          granted: true,
        })
      ).status,
    ).toBe(404);
    // A key of another organization cannot be granted the alias.
    const stranger = await newKey((await newOrg("Stranger Lender")).id, ["embed:users:read"]);
    expect(
      (
        await mutate(admin, "staff.integrations.setAliasGrant", {
          id,
          alias: "lender",
          key_id: stranger.key.id,
          granted: true,
        })
      ).status,
    ).toBe(404);

    const revoked = ok(
      await mutate(admin, "staff.integrations.setAliasGrant", {
        id,
        alias: "lender",
        key_id: key.key.id,
        granted: false,
      }),
    );
    expect(revoked.aliases[0]).toEqual({ slug: "lender", granted_key_ids: [] });
    expectEnvelope(await rest("GET", "/v1/integrations/lender/users/emp-1", key.plaintext), 403, "forbidden");

    const removed = ok(await mutate(admin, "staff.integrations.removeAlias", { id, alias: "lender-old" }));
    expect(removed.aliases.map((a: { slug: string }) => a.slug)).toEqual(["lender"]);

    expect(ok(await query(viewer, "staff.integrations.list", { organization_id: org.id }))).toEqual([
      {
        id,
        organization_id: org.id,
        slug: "lender-los",
        status: "active",
        chat_answers_per_user_per_minute: null,
        aliases: [{ slug: "lender", granted_key_ids: [] }],
        users: 1,
      },
    ]);
    expect(
      ok(await query(viewer, "staff.organizations.list")).find((o: { id: string }) => o.id === org.id),
    ).toMatchObject({ integrations: 1, active_keys: 2 });

    const disabled = ok(await mutate(admin, "staff.integrations.setStatus", { id, status: "disabled" }));
    expect(disabled.status).toBe("disabled");
    expect(ok(await query(viewer, "staff.integrations.get", { id })).status).toBe("disabled");
    expectEnvelope(await rest("GET", "/v1/integrations/lender-los/users/emp-1", key.plaintext), 403, "forbidden");
    expectEnvelope(
      await rest("PUT", "/v1/integrations/lender-los/users/emp-2", key.plaintext, { email: "emp2@lender.test" }),
      403,
      "forbidden",
    );
    expect(ok(await mutate(admin, "staff.integrations.setStatus", { id, status: "active" })).status).toBe("active");
    expect((await rest("GET", "/v1/integrations/lender-los/users/emp-1", key.plaintext)).status).toBe(200);

    const actions = (await auditList({ action: "integration.", actor: ADMIN.email }))
      .filter((e) => e.target === id)
      .map((e) => e.action);
    expect([...actions].sort()).toEqual(
      [
        "integration.create",
        "integration.alias_grant",
        "integration.alias_add",
        "integration.alias_revoke",
        "integration.alias_remove",
        "integration.disable",
        "integration.enable",
      ].sort(),
    );
  });
});

describe("aliases of other integrations", () => {
  it("an alias the integration does not have (another integration's, or none) can be neither granted nor removed through it: 404, nothing changes", async () => {
    const org = await newOrg("Sibling Lender");
    const los = ok(
      await mutate(admin, "staff.integrations.create", {
        organization_id: org.id,
        slug: "sib-los",
        aliases: ["sib-public"],
      }),
    );
    const crm = ok(
      await mutate(admin, "staff.integrations.create", {
        organization_id: org.id,
        slug: "sib-crm",
        aliases: ["crm-public"],
      }),
    );
    const key = await newKey(org.id, ["embed:users:read"]);

    const grant = await mutate(admin, "staff.integrations.setAliasGrant", {
      id: los.id,
      alias: "crm-public",
      key_id: key.key.id,
      granted: true,
    });
    expect(grant.status).toBe(404);
    expect(grant.error?.message).toBe("alias crm-public is not an alias of sib-los");
    const removeSibling = await mutate(admin, "staff.integrations.removeAlias", { id: los.id, alias: "crm-public" });
    expect(removeSibling.status).toBe(404);
    expect(removeSibling.error?.message).toBe("alias crm-public is not an alias of sib-los");
    expect((await mutate(admin, "staff.integrations.removeAlias", { id: los.id, alias: "never-added" })).status).toBe(
      404,
    );

    expect(ok(await query(viewer, "staff.integrations.get", { id: crm.id })).aliases).toEqual([
      { slug: "crm-public", granted_key_ids: [] },
    ]);
    expect(ok(await query(viewer, "staff.integrations.get", { id: los.id })).aliases).toEqual([
      { slug: "sib-public", granted_key_ids: [] },
    ]);
    expect(
      (await auditList({ action: "integration.alias_" })).filter((e) => e.target === los.id || e.target === crm.id),
    ).toEqual([]);
  });
});

describe("chat answers per user", () => {
  it("admins set the integration's limit within its bounds (audited), viewers see it, null returns it to the default", async () => {
    const org = await newOrg("Chat Limit Lender");
    const { id } = ok(await mutate(admin, "staff.integrations.create", { organization_id: org.id, slug: "limit-los" }));
    expect(ok(await query(viewer, "staff.integrations.chatAnswerLimits"))).toEqual({
      default_per_user_per_minute: 20,
      max_per_user_per_minute: 600,
    });

    const set = ok(
      await mutate(admin, "staff.integrations.setChatAnswerLimit", { id, chat_answers_per_user_per_minute: 8 }),
    );
    expect(set.chat_answers_per_user_per_minute).toBe(8);
    expect(ok(await query(viewer, "staff.integrations.get", { id })).chat_answers_per_user_per_minute).toBe(8);
    expect(
      ok(await query(viewer, "staff.integrations.list", { organization_id: org.id }))[0]
        .chat_answers_per_user_per_minute,
    ).toBe(8);

    for (const bad of [0, 601, 2.5, "12", true]) {
      const refused = await mutate(admin, "staff.integrations.setChatAnswerLimit", {
        id,
        chat_answers_per_user_per_minute: bad,
      });
      expect(refused.status, String(bad)).toBe(400);
      expect(refused.error?.message, String(bad)).toMatch(/^chat_answers_per_user_per_minute: /);
    }
    expect((await mutate(admin, "staff.integrations.setChatAnswerLimit", { id })).status).toBe(400);
    expect(
      (await mutate(viewer, "staff.integrations.setChatAnswerLimit", { id, chat_answers_per_user_per_minute: 9 }))
        .status,
    ).toBe(403);
    expect(ok(await query(viewer, "staff.integrations.get", { id })).chat_answers_per_user_per_minute).toBe(8);

    expect(
      ok(await mutate(admin, "staff.integrations.setChatAnswerLimit", { id, chat_answers_per_user_per_minute: null }))
        .chat_answers_per_user_per_minute,
    ).toBeNull();
    const entries = (await auditList({ action: "integration.chat_answer_limit", actor: ADMIN.email })).filter(
      (e) => e.target === id,
    );
    expect(entries.map((e) => e.details)).toEqual([
      { chat_answers_per_user_per_minute: null, previous: 8 },
      { chat_answers_per_user_per_minute: 8, previous: null },
    ]);
  });
});
