import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { authenticateApiKey, listApiKeys } from "@mga/core/keys";
import { createTestDatabase, TEST_SECRET_KEY, type TestDatabase } from "@mga/core/testing";

/**
 * `--field`: the CLI prints just the values a shell script captures into a variable
 * (`CHAT_KEY=$(pnpm cli key:create … --field key)`), as the README's walkthrough does.
 */
const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/cli.js");
const run = promisify(execFile);
let t: TestDatabase;

async function cli(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
      env: { ...process.env, DATABASE_URL: t.url, SECRET_KEY: TEST_SECRET_KEY },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());

// Each step starts the built CLI as a new Node process (about a second of CPU each): a test of
// several steps outgrows the in-process default of 20 s on a busy 2-core machine. Speed is the
// benchmark's business, not a test's (docs/decisions.md), so the bound only catches a hang.
describe("operator CLI --field", { timeout: 120_000 }, () => {
  it("prints one field of the result alone on a line, ready for $(…)", async () => {
    const org = await cli("org:create", "--name", "Field Lending", "--field", "id");
    expect(org.code).toBe(0);
    expect(org.stdout).toMatch(/^org_\w+\n$/);
    const orgId = org.stdout.trim();

    const key = await cli("key:create", "--org", orgId, "--name", "chat", "--scopes", "chat:read", "--field", "key");
    expect(key.code).toBe(0);
    expect(key.stdout).toMatch(/^mga_sk_\w+\n$/);
    expect((await authenticateApiKey(t.db, key.stdout.trim())).organizationId).toBe(orgId);
    // A captured value comes with no reminder on stdout; the reminder to store the key stays on stderr.
    expect(key.stderr).toMatch(/shown only this once/);
  });

  it("prints several fields tab-separated in the order asked, and follows dotted paths", async () => {
    const orgId = (await cli("org:create", "--name", "Paths", "--field", "id")).stdout.trim();
    const key = await cli(
      "key:create",
      "--org",
      orgId,
      "--name",
      "launcher",
      "--scopes",
      "embed:launch",
      "--field",
      "id",
      "--field",
      "key",
    );
    expect(key.code).toBe(0);
    const [id, plaintext, ...rest] = key.stdout.replace(/\n$/, "").split("\t");
    expect(rest).toEqual([]);
    expect(id).toMatch(/^key_/);
    expect(plaintext).toMatch(/^mga_sk_/);
    expect((await listApiKeys(t.db, orgId)).map((k) => k.id)).toEqual([id]);

    const integration = await cli(
      "integration:create",
      "--org",
      orgId,
      "--slug",
      "paths-los",
      "--alias",
      "paths",
      "--field",
      "aliases.0.slug",
    );
    expect(integration.stdout).toBe("paths\n");
    const scopes = await cli("key:list", "--org", orgId, "--field", "keys.0.scopes");
    expect(scopes.stdout).toBe('["embed:launch"]\n');
  });

  it("refuses a field the result does not have with exit 1 and nothing on stdout, keeping a created secret on stderr", async () => {
    const orgId = (await cli("org:create", "--name", "Typos", "--field", "id")).stdout.trim();
    const result = await cli(
      "key:create",
      "--org",
      orgId,
      "--name",
      "typo",
      "--scopes",
      "chat:read",
      "--field",
      "secret",
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/no field "secret"/);
    // The key was created: its only showing must not be lost to a typo.
    const shown = /"key":"(mga_sk_\w+)"/.exec(result.stderr)?.[1];
    expect(shown).toBeDefined();
    await expect(authenticateApiKey(t.db, shown ?? "")).resolves.toBeDefined();
  });

  it("is a usage error together with --json, or on a failing command prints only the error", async () => {
    const both = await cli("org:list", "--json", "--field", "organizations");
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--field and --json/);
    const failing = await cli(
      "key:create",
      "--org",
      "org_missing",
      "--name",
      "x",
      "--scopes",
      "chat:read",
      "--field",
      "key",
    );
    expect(failing.code).toBe(1);
    expect(failing.stdout).toBe("");
    expect(failing.stderr).toMatch(/key:create failed/);
  });
});
