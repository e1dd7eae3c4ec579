import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { toApiError } from "@mga/api";
import { createIntegration, setAliasGrant, updateIntegration } from "@mga/core/partners/integrations";

import { anotherKey, newPartner } from "../support/partners";
import { expectEnvelope, startTestApp, type TestApp } from "../support/test-app";

/** Spec section 5 item 4: the path's integration must be an active one of the key's organization. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const countUsers = async () =>
  (await app.t.db.sql.query("SELECT count(*)::int AS n FROM partner_users")).rows[0].n as number;

describe("integration checks on partner routes", () => {
  it("unknown, disabled and other organizations' integrations are refused the same way, and nothing is created", async () => {
    const mine = await newPartner(app, { slug: "mine-los" });
    const theirs = await newPartner(app, { slug: "their-los" });
    const before = await countUsers();
    const asMine = (slug: string) =>
      app.request(`/v1/integrations/${slug}/users/u1`, {
        method: "PUT",
        key: mine.key,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: "u1@x.test" }),
      });
    const unknown = expectEnvelope(await asMine("nobody-los"), 403, "forbidden");
    const foreign = expectEnvelope(await asMine(theirs.slug), 403, "forbidden");
    expect(foreign.message).toBe(unknown.message.replace("nobody-los", theirs.slug));
    await updateIntegration(app.t.db, { organizationId: mine.organizationId, slug: mine.slug, status: "disabled" });
    expectEnvelope(await asMine(mine.slug), 403, "forbidden");
    expectEnvelope(await mine.get("/teams"), 403, "forbidden");
    expect(await countUsers()).toBe(before);
    expectEnvelope(await asMine("Not_A_Slug"), 400, "invalid_request");
  });

  it("another partner's users and teams are invisible", async () => {
    const a = await newPartner(app, { slug: "alpha-los" });
    const b = await newPartner(app, { slug: "alpha-los" });
    await a.put("/users/shared-id", { email: "a@x.test" });
    await a.put("/teams/shared-team", { name: "A team" });
    expectEnvelope(await b.get("/users/shared-id"), 404, "not_found");
    expectEnvelope(await b.get("/teams/shared-team"), 404, "not_found");
    expect((await b.get("/users")).body.counts.total).toBe(0);
    // The same external id under another partner is an independent user.
    expect((await b.put("/users/shared-id", { email: "b@x.test" })).status).toBe(201);
  });

  it("an alias resolves to the canonical integration only for keys granted it", async () => {
    const p = await newPartner(app, { slug: "canon-los", aliases: ["public-name"] });
    await p.put("/users/u1", { email: "u1@x.test" });
    const viaAlias = () => app.request("/v1/integrations/public-name/users/u1", { key: p.key });
    expectEnvelope(await viaAlias(), 403, "forbidden");
    await setAliasGrant(app.t.db, {
      organizationId: p.organizationId,
      alias: "public-name",
      apiKeyId: p.keyId,
      granted: true,
    });
    const granted = await viaAlias();
    expect(granted.status).toBe(200);
    expect(granted.body.user.integration).toBe("canon-los");
    const other = await anotherKey(app, p.organizationId, ["embed:users:read"]);
    expectEnvelope(await app.request("/v1/integrations/public-name/users/u1", { key: other.key }), 403, "forbidden");
  });

  it("checks the scope before the integration", async () => {
    const p = await newPartner(app, { slug: "scope-los" });
    const chatOnly = await anotherKey(app, p.organizationId, ["chat:read"]);
    const error = expectEnvelope(
      await app.request("/v1/integrations/nobody-los/users", { key: chatOnly.key }),
      403,
      "forbidden",
    );
    expect(error.message).toContain("embed:users:read");
  });
});

describe("aliases an integration already has", () => {
  it("adding an alias that exists is refused (not reported as done), as is a name another integration or alias uses", async () => {
    const p = await newPartner(app, { slug: "dup-los", aliases: ["dup"] });
    await createIntegration(app.t.db, { organizationId: p.organizationId, slug: "other-los", aliases: ["other"] });
    await expect(
      updateIntegration(app.t.db, { organizationId: p.organizationId, slug: "dup-los", addAliases: ["dup"] }),
    ).rejects.toMatchObject({
      code: "invalid_request",
      field: "alias",
      message: "the name dup is already an alias of dup-los",
    });
    await expect(
      updateIntegration(app.t.db, { organizationId: p.organizationId, slug: "dup-los", addAliases: ["other"] }),
    ).rejects.toMatchObject({
      code: "invalid_request",
      field: "alias",
      message: "the name other is already used by an integration or alias of this organization",
    });
    const aliases = await app.t.db.sql.query(
      "SELECT slug FROM integration_aliases WHERE organization_id = $1 ORDER BY slug",
      [p.organizationId],
    );
    expect(aliases.rows.map((row) => row.slug)).toEqual(["dup", "other"]);
  });
});

describe("changes racing each other", () => {
  it("grants of one alias to several keys at once all stay", async () => {
    const p = await newPartner(app, { slug: "race-los" });
    await updateIntegration(app.t.db, { organizationId: p.organizationId, slug: p.slug, addAliases: ["race-alias"] });
    const keys = await Promise.all(Array.from({ length: 8 }, () => anotherKey(app, p.organizationId, ["chat:read"])));
    await Promise.all(
      keys.map((key) =>
        setAliasGrant(app.t.db, {
          organizationId: p.organizationId,
          alias: "race-alias",
          apiKeyId: key.id,
          granted: true,
        }),
      ),
    );
    const { rows } = await app.t.db.sql.query<{ granted_key_ids: string[] }>(
      "SELECT granted_key_ids FROM integration_aliases WHERE slug = 'race-alias' AND organization_id = $1",
      [p.organizationId],
    );
    expect([...(rows[0]?.granted_key_ids ?? [])].sort()).toEqual(keys.map((key) => key.id).sort());
  });

  it("the same alias added twice at once: one wins, the other is a 409 in the envelope, never a 500", async () => {
    const p = await newPartner(app, { slug: "twice-los" });
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () =>
        updateIntegration(app.t.db, { organizationId: p.organizationId, slug: p.slug, addAliases: ["twice-alias"] }),
      ),
    );
    expect(results.filter((result) => result.status === "fulfilled").length).toBeGreaterThanOrEqual(1);
    for (const result of results) {
      if (result.status === "rejected") expect(toApiError(result.reason).status).toBeLessThan(500);
    }
    const { rows } = await app.t.db.sql.query(
      "SELECT 1 FROM integration_aliases WHERE slug = 'twice-alias' AND organization_id = $1",
      [p.organizationId],
    );
    expect(rows).toHaveLength(1);
  });
});
