import { beforeAll, describe, expect, it } from "vitest";

import { createStaff } from "@mga/core/staff";

import { ok, staffClient, type StaffSession } from "../support/staff-client";
import { expectEnvelope, type TestApp } from "../support/test-app";
import { useAppWithMockedUpstream } from "../support/upstream-mock";

/**
 * Key lifecycle (issue 25) through the API on two server instances over one PostgreSQL: keys
 * are created, edited and rolled through the staff procedures of the first; every partner
 * request is made on both. An expiry takes effect by the clock (a key cached on the second
 * instance too); an edit through the first reaches the second's next request (bounded wait of
 * one second for the notification, as for revocation in key-cache.test.ts).
 */
const setup = useAppWithMockedUpstream({ secondInstance: true });
const ADMIN = { email: "lifecycle-admin@mga.test", password: "lifecycle password 1" };
const client = staffClient(() => setup.app.adminUrl);
let admin: StaffSession;
let orgId: string;

beforeAll(async () => {
  await createStaff(setup.app.t.db, { ...ADMIN, role: "admin", actor: "test" });
  admin = await client.signIn(ADMIN.email, ADMIN.password);
  orgId = ok(await client.mutate(admin, "staff.organizations.create", { name: "Lifecycle Lending" })).id;
});

const instances = () => [setup.app, setup.second] as const;
const me = (app: TestApp, key: string) => app.request("/v1/me", { key });

async function createKey(input: Record<string, unknown> = {}) {
  return ok(
    await client.mutate(admin, "staff.keys.create", {
      organization_id: orgId,
      name: "lifecycle server",
      scopes: ["chat:read", "sources:read"],
      ...input,
    }),
  ) as {
    key: { id: string; expires_at: string | null };
    plaintext: string;
  };
}

/** Repeats `request` until `done` holds, for at most one second. */
async function withinASecond<T>(request: () => Promise<T>, done: (result: T) => boolean): Promise<T> {
  const deadline = Date.now() + 1_000;
  for (;;) {
    const result = await request();
    if (done(result) || Date.now() > deadline) return result;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const until = (at: string) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(at) - Date.now() + 20)));

describe("key lifecycle on two instances", () => {
  it("a key created with an expiry works on both instances until then, shows expires_at on GET /v1/me, then is 401 saying it expired", async () => {
    const expiresAt = new Date(Date.now() + 5_000).toISOString();
    const created = await createKey({ expires_at: expiresAt });
    expect(created.key.expires_at).toBe(expiresAt);
    for (const app of instances()) {
      const res = await me(app, created.plaintext);
      expect(res.status, res.text).toBe(200);
      expect(res.body.key.expires_at).toBe(expiresAt);
    }
    const activeKeys = async () =>
      ok(await client.query(admin, "staff.organizations.list")).find((org: { id: string }) => org.id === orgId)
        .active_keys as number;
    const activeBefore = await activeKeys();
    await until(expiresAt);
    for (const app of instances()) {
      const refused = expectEnvelope(await me(app, created.plaintext), 401, "unauthorized");
      expect(refused.message).toBe(`this API key expired at ${expiresAt}`);
    }
    // An expired key no longer counts among the organization's active keys.
    expect(await activeKeys()).toBe(activeBefore - 1);
  });

  it("GET /v1/me has no expires_at for a key without one", async () => {
    const created = await createKey();
    const res = await me(setup.second, created.plaintext);
    expect(res.status).toBe(200);
    expect(res.body.key).not.toHaveProperty("expires_at");
  });

  it("refuses an expiry in the past, more than 365 days ahead, or not a date-time, and creates nothing", async () => {
    const count = async () =>
      Number(
        (await setup.app.t.db.sql.query("SELECT count(*) FROM api_keys WHERE organization_id = $1", [orgId])).rows[0]
          .count,
      );
    const before = await count();
    for (const [expires_at, message] of [
      [new Date(Date.now() - 60_000).toISOString(), "expires_at: must be in the future"],
      [new Date(Date.now() + 366 * 86_400_000).toISOString(), "expires_at: must be at most 365 days ahead"],
    ]) {
      const res = await client.mutate(admin, "staff.keys.create", {
        organization_id: orgId,
        name: "bad",
        scopes: ["chat:read"],
        expires_at,
      });
      expect({ status: res.status, message: res.error?.message }).toEqual({ status: 400, message });
    }
    for (const expires_at of ["tomorrow", "2027-01-01", 42]) {
      expect(
        (
          await client.mutate(admin, "staff.keys.create", {
            organization_id: orgId,
            name: "bad",
            scopes: ["chat:read"],
            expires_at,
          })
        ).status,
      ).toBe(400);
    }
    expect(await count()).toBe(before);
  });

  it("a roll: the successor works at once on both instances, the old key works until the chosen expiry, then is 401", async () => {
    const created = await createKey({ rate_limit_per_minute: 90 });
    // Cached on both instances before the roll.
    for (const app of instances()) expect((await me(app, created.plaintext)).status).toBe(200);
    const rolled = ok(
      await client.mutate(admin, "staff.keys.roll", { id: created.key.id, old_key_expires_in_seconds: 5 }),
    );
    expect(rolled.key).toMatchObject({
      name: "lifecycle server",
      scopes: ["chat:read", "sources:read"],
      rate_limit_per_minute: 90,
      rolled_from_key_id: created.key.id,
      expires_at: null,
    });
    const oldExpiry = rolled.previous.expires_at as string;
    expect(Math.abs(Date.parse(oldExpiry) - (Date.now() + 5_000))).toBeLessThan(2_000);
    for (const app of instances()) {
      const successor = await me(app, rolled.plaintext);
      expect(successor.status, successor.text).toBe(200);
      expect(successor.body.key.id).toBe(rolled.key.id);
      // The old key learns its expiry on the other instance too (its cached record is dropped).
      const old = await withinASecond(
        () => me(app, created.plaintext),
        (res) => res.body?.key?.expires_at !== undefined,
      );
      expect(old.status).toBe(200);
      expect(old.body.key.expires_at).toBe(oldExpiry);
    }
    await until(oldExpiry);
    for (const app of instances()) {
      expect(expectEnvelope(await me(app, created.plaintext), 401, "unauthorized").message).toBe(
        `this API key expired at ${oldExpiry}`,
      );
      expect((await me(app, rolled.plaintext)).status).toBe(200);
    }
    const [audited] = (
      ok(await client.query(admin, "staff.audit.list", { action: "key.roll", limit: 10 })).entries as Array<{
        target: string;
        details: Record<string, unknown>;
      }>
    ).filter((entry) => entry.target === created.key.id);
    expect(audited?.details).toEqual({
      successor_id: rolled.key.id,
      successor_last_four: rolled.plaintext.slice(-4),
      old_key_expires_at: oldExpiry,
    });
    expect(JSON.stringify(audited)).not.toContain(rolled.plaintext);
  });

  it("an edit through the first instance: a removed scope is 403 on the next request on each instance, a new name shows on GET /v1/me; audited", async () => {
    const created = await createKey();
    for (const app of instances())
      expect((await app.request("/v1/sources", { key: created.plaintext })).status).toBe(200);
    const edited = ok(
      await client.mutate(admin, "staff.keys.update", {
        id: created.key.id,
        name: "renamed server",
        scopes: ["chat:read"],
      }),
    );
    expect(edited).toMatchObject({ key: { name: "renamed server", scopes: ["chat:read"] }, warnings: [] });
    // The instance that made the change applies it at commit: its very next request.
    expect(
      expectEnvelope(await setup.app.request("/v1/sources", { key: created.plaintext }), 403, "forbidden").message,
    ).toBe("this API key lacks the sources:read scope");
    const refused = await withinASecond(
      () => setup.second.request("/v1/sources", { key: created.plaintext }),
      (res) => res.status === 403,
    );
    expectEnvelope(refused, 403, "forbidden");
    for (const app of instances())
      expect((await me(app, created.plaintext)).body.key).toMatchObject({
        name: "renamed server",
        scopes: ["chat:read"],
      });

    const [audited] = (
      ok(await client.query(admin, "staff.audit.list", { action: "key.update", limit: 10 })).entries as Array<{
        target: string;
        actor: string;
        details: unknown;
      }>
    ).filter((entry) => entry.target === created.key.id);
    expect(audited).toMatchObject({
      actor: ADMIN.email,
      details: {
        name: { from: "lifecycle server", to: "renamed server" },
        scopes: { from: ["chat:read", "sources:read"], to: ["chat:read"] },
      },
    });
  });

  it("an edit needs a name or scopes, refuses unknown scopes, and refuses a revoked key", async () => {
    const created = await createKey();
    for (const input of [
      { id: created.key.id },
      { id: created.key.id, scopes: [] },
      { id: created.key.id, scopes: ["embed:*"] },
      { id: created.key.id, name: " " },
    ]) {
      expect((await client.mutate(admin, "staff.keys.update", input)).status, JSON.stringify(input)).toBe(400);
    }
    expect((await client.mutate(admin, "staff.keys.update", { id: "key_missing", name: "x" })).status).toBe(404);
    ok(await client.mutate(admin, "staff.keys.revoke", { id: created.key.id }));
    const revoked = await client.mutate(admin, "staff.keys.update", { id: created.key.id, name: "x" });
    expect({ status: revoked.status, message: revoked.error?.message }).toEqual({
      status: 400,
      message: `key ${created.key.id} is revoked`,
    });
  });

  it("lists the keys expiring within 7 days (the console's panel), soonest first", async () => {
    const org = ok(await client.mutate(admin, "staff.organizations.create", { name: "Expiring Lending" })).id as string;
    const make = async (name: string, days: number | null) =>
      ok(
        await client.mutate(admin, "staff.keys.create", {
          organization_id: org,
          name,
          scopes: ["chat:read"],
          expires_at: days === null ? null : new Date(Date.now() + days * 86_400_000).toISOString(),
        }),
      ).key.id as string;
    const six = await make("six", 6);
    const one = await make("one", 1);
    await make("thirty", 30);
    await make("never", null);
    const expiring = ok(await client.query(admin, "staff.keys.expiring", { organization_id: org }));
    expect(expiring.map((key: { id: string }) => key.id)).toEqual([one, six]);
    expect(
      ok(await client.query(admin, "staff.keys.expiring", { organization_id: org, within_days: 31 })),
    ).toHaveLength(3);
    expect((await client.query(admin, "staff.keys.expiring", { organization_id: org, within_days: 0 })).status).toBe(
      400,
    );
    expect((await client.query(admin, "staff.keys.expiring", { organization_id: "org_missing" })).status).toBe(404);
  });
});
