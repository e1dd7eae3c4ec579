import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { AppError } from "../../src/errors/app-error";
import { createApiKey, listApiKeys, revokeApiKey } from "../../src/keys/api-keys";
import { authenticateApiKey, requireScope } from "../../src/keys/authenticate-api-key";
import { hashApiKey, isWellFormedApiKey } from "../../src/keys/key-secret";
import { createOrganization } from "../../src/orgs/organizations";
import { createTestDatabase, type TestDatabase } from "../../src/testing/index";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

describe("API keys", () => {
  it("stores only a hash and authenticates the plaintext once issued", async () => {
    const org = await createOrganization(t.db, { name: "Acme Lending" });
    const { key, plaintext } = await createApiKey(t.db, {
      organizationId: org.id,
      name: "server",
      scopes: "chat:read,sources:read",
    });
    expect(isWellFormedApiKey(plaintext)).toBe(true);
    expect(key.lastFour).toBe(plaintext.slice(-4));
    const { rows } = await t.db.sql.query("SELECT * FROM api_keys WHERE id = $1", [key.id]);
    expect(JSON.stringify(rows)).not.toContain(plaintext);
    expect(rows[0].secret_hash).toBe(hashApiKey(plaintext));

    const caller = await authenticateApiKey(t.db, plaintext);
    expect(caller).toMatchObject({ id: key.id, organizationId: org.id, scopes: ["chat:read", "sources:read"] });
    expect(caller.tenant.clientName).toBe("Acme Lending");
  });

  it("records last use", async () => {
    const org = await createOrganization(t.db, { name: "Used" });
    const { key, plaintext } = await createApiKey(t.db, { organizationId: org.id, name: "k", scopes: ["chat:read"] });
    expect((await listApiKeys(t.db, org.id))[0]?.lastUsedAt).toBeNull();
    await authenticateApiKey(t.db, plaintext);
    const [listed] = await listApiKeys(t.db, org.id);
    expect(listed?.id).toBe(key.id);
    expect(listed?.lastUsedAt).toBeInstanceOf(Date);
  });

  it("rejects missing, malformed, unknown and revoked keys as unauthorized", async () => {
    const org = await createOrganization(t.db, { name: "Revoked Inc" });
    const { key, plaintext } = await createApiKey(t.db, { organizationId: org.id, name: "old", scopes: "chat:read" });
    await revokeApiKey(t.db, key.id);
    const codeOf = (p: Promise<unknown>) =>
      p.then(
        () => "ok",
        (e: AppError) => e.code,
      );
    expect(await codeOf(authenticateApiKey(t.db, undefined))).toBe("unauthorized");
    expect(await codeOf(authenticateApiKey(t.db, "nonsense"))).toBe("unauthorized");
    // Well-formed but never issued: last character changed breaks the checksum, so build a fresh one.
    const other = await createApiKey(t.db, { organizationId: org.id, name: "tmp", scopes: "chat:read" });
    await t.db.sql.query("DELETE FROM api_keys WHERE id = $1", [other.key.id]);
    expect(await codeOf(authenticateApiKey(t.db, other.plaintext))).toBe("unauthorized");
    expect(await codeOf(authenticateApiKey(t.db, plaintext))).toBe("unauthorized");
  });

  it("validates scopes, names and rate limits", async () => {
    const org = await createOrganization(t.db, { name: "Strict" });
    await expect(
      createApiKey(t.db, { organizationId: org.id, name: "k", scopes: "chat:read,embed:*" }),
    ).rejects.toThrow(/unknown scope embed:\*/);
    await expect(createApiKey(t.db, { organizationId: org.id, name: "k", scopes: "" })).rejects.toThrow(
      /at least one scope/,
    );
    await expect(createApiKey(t.db, { organizationId: org.id, name: " ", scopes: "chat:read" })).rejects.toThrow(
      /name/,
    );
    await expect(
      createApiKey(t.db, { organizationId: org.id, name: "k", scopes: "chat:read", rateLimitPerMinute: 0 }),
    ).rejects.toThrow(/rate_limit/);
    await expect(
      createApiKey(t.db, { organizationId: "org_missing", name: "k", scopes: "chat:read" }),
    ).rejects.toMatchObject({ code: "not_found" });
  });

  it("requireScope throws forbidden", async () => {
    const org = await createOrganization(t.db, { name: "Scoped" });
    const { plaintext } = await createApiKey(t.db, { organizationId: org.id, name: "k", scopes: "chat:read" });
    const caller = await authenticateApiKey(t.db, plaintext);
    expect(() => requireScope(caller, "sources:read")).toThrow(expect.objectContaining({ code: "forbidden" }));
    expect(() => requireScope(caller, "chat:read")).not.toThrow();
  });
});
