import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { authenticateApiKey, hashApiKey } from "@mga/core/keys";
import { createTestDatabase, TEST_SECRET_KEY, TEST_SECRETS, type TestDatabase } from "@mga/core/testing";

import { ACME_TENANT } from "../support/tenants";

/** Runs the built CLI (dist/cli.js) as an operator would, against this file's database. */
const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/cli.js");
const run = promisify(execFile);
let t: TestDatabase;

async function cli(...args: string[]) {
  return cliWith({ DATABASE_URL: t.url, SECRET_KEY: TEST_SECRET_KEY }, ...args);
}

async function cliWith(env: Record<string, string>, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr, json: parse(stdout) };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr, json: parse(failed.stdout) };
  }
}

function parse(stdout: string) {
  try {
    return JSON.parse(stdout);
  } catch {
    return undefined;
  }
}

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());

// Each step starts the built CLI as a new Node process (about a second of CPU each): a test of
// several steps outgrows the in-process default of 20 s on a busy 2-core machine. Speed is the
// benchmark's business, not a test's (docs/decisions.md), so the bound only catches a hang.
describe("operator CLI", { timeout: 120_000 }, () => {
  it("creates an org, configures its tenant, creates, lists and revokes a key, one JSON object each", async () => {
    const org = await cli("org:create", "--name", "Acme Lending", "--json");
    expect(org.code).toBe(0);
    expect(Object.keys(org.json).sort()).toEqual(["id", "name"]);
    expect(org.json.name).toBe("Acme Lending");

    const file = path.join(os.tmpdir(), `tenant-${process.pid}.json`);
    writeFileSync(file, JSON.stringify(ACME_TENANT));
    const tenant = await cli("tenant:configure", "--org", org.json.id, "--file", file, "--json");
    expect(tenant.code).toBe(0);
    expect(tenant.json).toEqual(ACME_TENANT);

    const created = await cli(
      "key:create",
      "--org",
      org.json.id,
      "--name",
      "server",
      "--scopes",
      "chat:read,sources:read",
      "--rate-limit",
      "120",
      "--json",
    );
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({
      last_four: created.json.key.slice(-4),
      scopes: ["chat:read", "sources:read"],
      rate_limit_per_minute: 120,
    });
    expect((await authenticateApiKey(t.db, created.json.key)).tenant).toEqual(ACME_TENANT);

    const listed = await cli("key:list", "--org", org.json.id, "--json");
    expect(listed.json.keys).toHaveLength(1);
    expect(listed.stdout).not.toContain(created.json.key);
    expect(listed.stdout).not.toContain(hashApiKey(created.json.key));

    const revoked = await cli("key:revoke", "--id", created.json.id, "--json");
    expect(revoked.json).toEqual({ id: created.json.id, status: "revoked" });
    await expect(authenticateApiKey(t.db, created.json.key)).rejects.toMatchObject({ code: "unauthorized" });
  });

  it("creates a key with an expiry, edits and rolls it (audited as cli), and lists the keys expiring soon", async () => {
    const org = await cli("org:create", "--name", "Rolling Lending", "--json");
    const expiresAt = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const created = await cli(
      "key:create",
      "--org",
      org.json.id,
      "--name",
      "server",
      "--scopes",
      "chat:read",
      "--expires-at",
      expiresAt,
      "--json",
    );
    expect(created.json).toMatchObject({ scopes: ["chat:read"], expires_at: expiresAt });
    for (const bad of ["2027-01-01", new Date(Date.now() - 60_000).toISOString()]) {
      const refused = await cli(
        "key:create",
        "--org",
        org.json.id,
        "--name",
        "bad",
        "--scopes",
        "chat:read",
        "--expires-at",
        bad,
        "--json",
      );
      expect(refused.code, bad).toBe(1);
      expect(refused.json.error.message).toMatch(/expires-at|expires_at/);
    }

    const edited = await cli(
      "key:update",
      "--id",
      created.json.id,
      "--name",
      "renamed",
      "--scopes",
      "chat:read,sources:read",
      "--json",
    );
    expect(edited.json).toEqual({ id: created.json.id, name: "renamed", scopes: ["chat:read", "sources:read"] });
    expect((await authenticateApiKey(t.db, created.json.key)).scopes).toEqual(["chat:read", "sources:read"]);
    expect((await cli("key:update", "--id", created.json.id, "--json")).json.error.message).toBe(
      "give --name, --scopes or both",
    );

    expect(
      (await cli("key:roll", "--id", created.json.id, "--old-key-expires-in", "8d", "--json")).json.error.message,
    ).toMatch(/old_key_expires_in_seconds/);
    const rolled = await cli("key:roll", "--id", created.json.id, "--old-key-expires-in", "24h", "--json");
    expect(rolled.code).toBe(0);
    expect((await authenticateApiKey(t.db, rolled.json.key)).id).toBe(rolled.json.id);
    expect((await authenticateApiKey(t.db, created.json.key)).id).toBe(created.json.id);
    expect(Math.abs(Date.parse(rolled.json.previous.expires_at) - (Date.now() + 86_400_000))).toBeLessThan(60_000);

    const expiring = await cli("key:expiring", "--org", org.json.id, "--json");
    expect(expiring.json.keys.map((key: { id: string }) => key.id)).toEqual([created.json.id]);
    expect(expiring.stdout).not.toContain(created.json.key);
    const audit = await t.db.sql.query(
      "SELECT actor, action, details FROM audit_log WHERE target = $1 ORDER BY created_at",
      [created.json.id],
    );
    expect(audit.rows).toEqual([
      {
        actor: "cli",
        action: "key.update",
        details: {
          name: { from: "server", to: "renamed" },
          scopes: { from: ["chat:read"], to: ["chat:read", "sources:read"] },
        },
      },
      {
        actor: "cli",
        action: "key.roll",
        details: {
          successor_id: rolled.json.id,
          successor_last_four: rolled.json.key.slice(-4),
          old_key_expires_at: rolled.json.previous.expires_at,
        },
      },
    ]);
  });

  it(
    "adds a webhook endpoint (secret printed once), rolls its secret, lists, disables and deletes it",
    { timeout: 300_000 },
    async () => {
      const org = await cli("org:create", "--name", "Hooks Lending", "--json");
      const created = await cli(
        "webhook:create",
        "--org",
        org.json.id,
        "--url",
        "https://hooks.example.com/mga",
        "--events",
        "user.disabled,operation.failed",
        "--json",
      );
      expect(created.code, created.stderr).toBe(0);
      expect(created.json).toMatchObject({
        url: "https://hooks.example.com/mga",
        event_types: ["user.disabled", "operation.failed"],
        status: "enabled",
        secret: expect.stringMatching(/^whsec_/),
      });
      const listed = await cli("webhook:list", "--org", org.json.id, "--json");
      expect(listed.json.endpoints).toHaveLength(1);
      expect(listed.stdout).not.toContain(created.json.secret);
      const rolled = await cli("webhook:roll-secret", "--org", org.json.id, "--id", created.json.id, "--json");
      expect(rolled.json.secret).toMatch(/^whsec_/);
      expect(rolled.json.secret).not.toBe(created.json.secret);
      expect(rolled.json.previous_secret_expires_at).not.toBeNull();
      const disabled = await cli(
        "webhook:update",
        "--org",
        org.json.id,
        "--id",
        created.json.id,
        "--status",
        "disabled",
        "--json",
      );
      expect(disabled.json.status).toBe("disabled");
      // Refused, in words: a private address, an unknown event type.
      const privateUrl = await cli(
        "webhook:create",
        "--org",
        org.json.id,
        "--url",
        "http://169.254.169.254/latest",
        "--events",
        "user.disabled",
        "--json",
      );
      expect(privateUrl.code).not.toBe(0);
      expect(privateUrl.stderr + privateUrl.stdout).toContain("loopback, private, link-local");
      const unknown = await cli(
        "webhook:create",
        "--org",
        org.json.id,
        "--url",
        "https://hooks.example.com/x",
        "--events",
        "user.exploded",
        "--json",
      );
      expect(unknown.code).not.toBe(0);
      expect(unknown.stderr + unknown.stdout).toContain("event_types: unknown user.exploded");
      const deleted = await cli("webhook:delete", "--org", org.json.id, "--id", created.json.id, "--json");
      expect(deleted.json).toEqual({ id: created.json.id, deleted: true });
      expect((await cli("webhook:list", "--org", org.json.id, "--json")).json.endpoints).toEqual([]);
    },
  );

  it("rejects an invalid tenant file naming the field, and changes nothing", async () => {
    const org = await cli("org:create", "--name", "Strict", "--json");
    const file = path.join(os.tmpdir(), `tenant-bad-${process.pid}.json`);
    writeFileSync(file, JSON.stringify({ ...ACME_TENANT, defaultTenantSourceKeys: ["nope"], extra: 1 }));
    const result = await cli("tenant:configure", "--org", org.json.id, "--file", file, "--json");
    expect(result.code).toBe(1);
    expect(result.json.error.code).toBe("invalid_request");
    expect(result.json.error.message).toMatch(/extra/);
    const shown = await cli("tenant:show", "--org", org.json.id, "--json");
    expect(shown.json).toEqual({ clientName: "Strict", enabledSources: [], baseSources: [] });
  });

  it("exits 2 with usage on missing flags and unknown commands", async () => {
    const missing = await cli("key:create", "--org", "org_x", "--json");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing --name, --scopes/);
    expect((await cli("nope")).code).toBe(2);
  });

  it("creates, updates and lists integrations, and grants aliases to keys", async () => {
    const org = await cli("org:create", "--name", "Partners", "--json");
    const created = await cli(
      "integration:create",
      "--org",
      org.json.id,
      "--slug",
      "acme-los",
      "--alias",
      "acme",
      "--alias",
      "acme-public",
      "--json",
    );
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({
      slug: "acme-los",
      status: "active",
      aliases: [
        { slug: "acme", granted_key_ids: [] },
        { slug: "acme-public", granted_key_ids: [] },
      ],
    });
    const key = await cli(
      "key:create",
      "--org",
      org.json.id,
      "--name",
      "launch",
      "--scopes",
      "embed:users:read,embed:users:write,embed:launch",
      "--json",
    );
    expect(key.json.scopes).toEqual(["embed:users:read", "embed:users:write", "embed:launch"]);
    const granted = await cli("alias:grant", "--org", org.json.id, "--alias", "acme", "--key", key.json.id, "--json");
    expect(granted.json.aliases[0]).toEqual({ slug: "acme", granted_key_ids: [key.json.id] });
    const bound = await cli("key:bind-launch", "--id", key.json.id, "--integration", "acme", "--json");
    expect(bound.json).toEqual({
      id: key.json.id,
      integration: "acme",
      canonical_integration: "acme-los",
      enabled: true,
    });
    expect((await cli("key:unbind-launch", "--id", key.json.id, "--json")).json).toEqual({
      id: key.json.id,
      enabled: false,
    });
    const updated = await cli(
      "integration:update",
      "--org",
      org.json.id,
      "--slug",
      "acme-los",
      "--status",
      "disabled",
      "--remove-alias",
      "acme-public",
      "--json",
    );
    expect(updated.json).toMatchObject({ status: "disabled", aliases: [{ slug: "acme" }] });
    expect((await cli("integration:list", "--org", org.json.id, "--json")).json.integrations).toHaveLength(1);
    const bad = await cli("integration:create", "--org", org.json.id, "--slug", "Bad Slug", "--json");
    expect(bad.code).toBe(1);
    expect(bad.json.error.message).toMatch(/slug/);
    const taken = await cli("integration:create", "--org", org.json.id, "--slug", "acme", "--json");
    expect(taken.json.error.message).toMatch(/already used/);
  });

  it("sets an integration's chat answers per user, shows it, returns it to the default, and refuses values out of bounds", async () => {
    const org = await cli("org:create", "--name", "Chatty Partners", "--json");
    const created = await cli(
      "integration:create",
      "--org",
      org.json.id,
      "--slug",
      "chatty-los",
      "--chat-answers-per-user",
      "12",
      "--json",
    );
    expect(created.json).toMatchObject({ slug: "chatty-los", chat_answers_per_user_per_minute: 12 });
    const updated = await cli(
      "integration:update",
      "--org",
      org.json.id,
      "--slug",
      "chatty-los",
      "--chat-answers-per-user",
      "30",
      "--json",
    );
    expect(updated.json.chat_answers_per_user_per_minute).toBe(30);
    // Another change leaves the setting as it is.
    expect(
      (await cli("integration:update", "--org", org.json.id, "--slug", "chatty-los", "--add-alias", "chatty", "--json"))
        .json.chat_answers_per_user_per_minute,
    ).toBe(30);
    expect(
      (await cli("integration:list", "--org", org.json.id, "--json")).json.integrations[0]
        .chat_answers_per_user_per_minute,
    ).toBe(30);
    const reset = await cli(
      "integration:update",
      "--org",
      org.json.id,
      "--slug",
      "chatty-los",
      "--chat-answers-per-user",
      "default",
      "--json",
    );
    expect(reset.json.chat_answers_per_user_per_minute).toBeNull();
    for (const bad of ["0", "601", "-3"]) {
      const refused = await cli(
        "integration:update",
        "--org",
        org.json.id,
        "--slug",
        "chatty-los",
        `--chat-answers-per-user=${bad}`,
        "--json",
      );
      expect(refused.code, bad).toBe(1);
      expect(refused.json.error).toEqual({
        code: "invalid_request",
        message: "Chat answers per user per minute must be a whole number from 1 to 600 (or the default, 20).",
      });
    }
    for (const bad of ["2.5", "many", ""]) {
      const refused = await cli(
        "integration:update",
        "--org",
        org.json.id,
        "--slug",
        "chatty-los",
        "--chat-answers-per-user",
        bad,
        "--json",
      );
      expect(refused.json.error, bad).toEqual({
        code: "invalid_request",
        message: "--chat-answers-per-user: must be a whole number of answers per minute, or default",
      });
    }
    expect(
      (await cli("integration:list", "--org", org.json.id, "--json")).json.integrations[0]
        .chat_answers_per_user_per_minute,
    ).toBeNull();
  });

  it("creates staff accounts for the admin console", async () => {
    const created = await cli(
      "staff:create",
      "--email",
      "Ops@MGA.test",
      "--password",
      "a long password",
      "--role",
      "viewer",
      "--json",
    );
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({ email: "ops@mga.test", role: "viewer" });
    expect(
      (await cli("staff:create", "--email", "x@mga.test", "--password", "short", "--json")).json.error.message,
    ).toMatch(/password/);
    expect(
      (await cli("staff:create", "--email", "ops@mga.test", "--password", "a long password", "--json")).json.error
        .message,
    ).toMatch(/already/);
  });

  it("prints the console's forwarding key: derived from SECRET_KEY, the key the admin listener checks the console's signature with", async () => {
    const printed = await cli("console:forwarding-key", "--field", "key");
    expect(printed.code).toBe(0);
    expect(printed.stdout.trim()).toBe(TEST_SECRETS.macKey("console-forwarding").toString("base64url"));
    expect(printed.stdout.trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(printed.stderr).toContain("ADMIN_FORWARDING_KEY");
  });

  it("stops with one line when DATABASE_URL is set without SECRET_KEY (instances sharing a database need the same one)", async () => {
    const result = await cliWith({ DATABASE_URL: t.url, SECRET_KEY: "" }, "org:list", "--json");
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(/^SECRET_KEY is required with DATABASE_URL/),
    ]);
    const short = await cliWith({ DATABASE_URL: t.url, SECRET_KEY: "too-short" }, "org:list", "--json");
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/SECRET_KEY: at least 32 characters/);
  });

  it("rejects unknown scopes", async () => {
    const org = await cli("org:create", "--name", "Scopes", "--json");
    const result = await cli(
      "key:create",
      "--org",
      org.json.id,
      "--name",
      "k",
      "--scopes",
      "chat:read,admin",
      "--json",
    );
    expect(result.code).toBe(1);
    expect(result.json.error.message).toMatch(/unknown scope admin/);
  });
});
