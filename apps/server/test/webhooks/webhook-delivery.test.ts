import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { rollWebhookSecret } from "@mga/core/webhooks";

import { newPartner } from "../support/partners";
import { startTestApp, type TestApp } from "../support/test-app";
import { startReceiver } from "../support/webhook-receiver";
import { endpointFor, signedPerSpecification, USER_EVENTS, verifiedByLibrary } from "./webhook-helpers";

/**
 * Webhook delivery against real receiving HTTP servers: Standard Webhooks signatures, retries
 * after a 500 and a timeout, per-user order, isolation, the 24-hour disable (shortened here).
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    webhooks: {
      retryDelaysMs: [200, 400, 400, 400, 400, 400, 400, 400, 400, 400],
      timeoutMs: 1000,
      leaseMs: 3000,
      disableAfterMs: 2500,
    },
  });
});
afterAll(async () => {
  await app.close();
});

const deliveryOf = async (eventId: string) =>
  (await app.t.db.sql.query("SELECT * FROM webhook_deliveries WHERE event_id = $1", [eventId])).rows;

describe("webhook delivery", () => {
  it(
    "delivers a user's disabling, signed per Standard Webhooks, with the event GET /v1/events lists, sanitized",
    { timeout: 30_000 },
    async () => {
      const receiver = await startReceiver();
      const p = await newPartner(app, { slug: "sig-los" });
      const { secret } = await endpointFor(app, p.organizationId, receiver.url, ["user.disabled"]);
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      await p.put("/users/u-1", { email: "private.person@acme.test", name: "Private Person" });
      expect((await p.patch("/users/u-1", { status: "disabled" })).status).toBe(200);

      await expect.poll(() => receiver.delivered().length, { timeout: 10_000 }).toBe(1);
      const [hit] = receiver.received;
      if (!hit) throw new Error("no delivery");
      expect(signedPerSpecification(secret, hit.headers, hit.body)).toBe(true);
      const verified = verifiedByLibrary(secret, hit.headers, hit.body) as {
        id: string;
        type: string;
        data: { user: Record<string, unknown> };
      };
      expect(verified.type).toBe("user.disabled");
      expect(hit.headers["webhook-id"]).toBe(verified.id);
      expect(Math.abs(Number(hit.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(30);
      // Never names or emails: the user exactly as the API returns it.
      expect(hit.body).not.toContain("private.person");
      expect(hit.body).not.toContain("Private Person");
      // The user as the change left it (its site account's sync still pending), in the API's shape.
      const user = await p.get("/users/u-1");
      expect(Object.keys(verified.data.user).sort()).toEqual(Object.keys(user.body.user).sort());
      expect(verified.data.user).toMatchObject({
        external_user_id: "u-1",
        status: "disabled",
        launch_eligibility: { can_launch: false },
      });

      const listed = await app.request("/v1/events?type=user.disabled", { key: p.key });
      expect(listed.status).toBe(200);
      expect(listed.body.events).toEqual([JSON.parse(hit.body)]);
      // A tampered body fails both checks.
      expect(signedPerSpecification(secret, hit.headers, hit.body.replace("disabled", "DISABLED"))).toBe(false);
      expect(() => verifiedByLibrary(secret, hit.headers, `${hit.body} `)).toThrow();
      await receiver.close();
    },
  );

  it(
    "retries after a 500 and after a timeout, with the same webhook-id and body, until the endpoint answers 2xx",
    { timeout: 30_000 },
    async () => {
      const receiver = await startReceiver({ replies: [500, "hang", 200] });
      const p = await newPartner(app, { slug: "retry-los" });
      const { secret } = await endpointFor(app, p.organizationId, receiver.url, ["user.disabled"]);
      await p.put("/users/u-2", { email: "u2@acme.test" });
      await p.patch("/users/u-2", { status: "disabled" });

      await expect.poll(() => receiver.delivered().length, { timeout: 15_000 }).toBe(1);
      expect(receiver.received).toHaveLength(3);
      const ids = new Set(receiver.received.map((hit) => hit.headers["webhook-id"]));
      expect(ids.size).toBe(1);
      expect(new Set(receiver.received.map((hit) => hit.body)).size).toBe(1);
      for (const hit of receiver.received) expect(signedPerSpecification(secret, hit.headers, hit.body)).toBe(true);
      // The timeout (1 s here) cut the hanging attempt; the retries waited between attempts.
      const [first, second, third] = receiver.received.map((hit) => hit.at) as [number, number, number];
      expect(second - first).toBeGreaterThanOrEqual(150);
      expect(third - second).toBeGreaterThanOrEqual(1000);
      await expect
        .poll(async () => (await deliveryOf(String([...ids][0])))[0], { timeout: 5_000 })
        .toMatchObject({ status: "succeeded", attempts: 3, last_status_code: 200, next_attempt_at: null });
      await receiver.close();
    },
  );

  it(
    "delivers one user's events in order: a later event waits while an earlier one is retried",
    { timeout: 30_000 },
    async () => {
      const receiver = await startReceiver({ replies: [500, 500] });
      const p = await newPartner(app, { slug: "order-los" });
      await p.put("/users/u-3", { email: "u3@acme.test" });
      await endpointFor(app, p.organizationId, receiver.url, ["user.disabled", "user.reactivated"]);
      await p.patch("/users/u-3", { status: "disabled" });
      await p.patch("/users/u-3", { status: "active" });
      await p.patch("/users/u-3", { status: "disabled" });

      await expect.poll(() => receiver.delivered().length, { timeout: 15_000 }).toBe(3);
      const types = receiver.delivered().map((hit) => JSON.parse(hit.body).type);
      expect(types).toEqual(["user.disabled", "user.reactivated", "user.disabled"]);
      // The two failures were the first event's: nothing after it was sent before it succeeded.
      expect(receiver.received.slice(0, 3).map((hit) => JSON.parse(hit.body).type)).toEqual([
        "user.disabled",
        "user.disabled",
        "user.disabled",
      ]);
      await receiver.close();
    },
  );

  it("never sends an organization's events to another organization's endpoint", { timeout: 30_000 }, async () => {
    const ours = await startReceiver();
    const theirs = await startReceiver();
    const a = await newPartner(app, { slug: "iso-a-los" });
    const b = await newPartner(app, { slug: "iso-b-los" });
    await endpointFor(app, a.organizationId, ours.url, USER_EVENTS);
    await endpointFor(app, b.organizationId, theirs.url, USER_EVENTS);
    await a.put("/users/u-4", { email: "u4@acme.test" });
    await a.patch("/users/u-4", { status: "disabled" });
    await expect
      .poll(() => ours.delivered().some((hit) => JSON.parse(hit.body).type === "user.disabled"), { timeout: 10_000 })
      .toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(theirs.received).toEqual([]);
    const bList = await app.request("/v1/events", { key: b.key });
    expect(bList.body.events).toEqual([]);
    await ours.close();
    await theirs.close();
  });

  it("signs with the old and the new secret for 24 hours after a roll", { timeout: 30_000 }, async () => {
    const receiver = await startReceiver();
    const p = await newPartner(app, { slug: "roll-los" });
    const { endpoint, secret: oldSecret } = await endpointFor(app, p.organizationId, receiver.url, ["user.disabled"]);
    const { secret: newSecret, endpoint: rolled } = await rollWebhookSecret(app.t.db, p.organizationId, endpoint.id);
    expect(newSecret).not.toBe(oldSecret);
    expect(rolled.previousSecretExpiresAt?.getTime()).toBeGreaterThan(Date.now() + 23.9 * 3600_000);
    await p.put("/users/u-5", { email: "u5@acme.test" });
    await p.patch("/users/u-5", { status: "disabled" });
    await expect.poll(() => receiver.delivered().length, { timeout: 10_000 }).toBe(1);
    const [hit] = receiver.received;
    if (!hit) throw new Error("no delivery");
    expect(String(hit.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verifiedByLibrary(newSecret, hit.headers, hit.body)).toBeTruthy();
    expect(verifiedByLibrary(oldSecret, hit.headers, hit.body)).toBeTruthy();
    // Once the overlap is over, only the new secret signs.
    await app.t.db.sql.query(
      "UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1",
      [endpoint.id],
    );
    await p.patch("/users/u-5", { status: "active" });
    await p.patch("/users/u-5", { status: "disabled" });
    await expect.poll(() => receiver.delivered().length, { timeout: 10_000 }).toBe(2);
    const last = receiver.received[1];
    if (!last) throw new Error("no second delivery");
    expect(String(last.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(() => verifiedByLibrary(oldSecret, last.headers, last.body)).toThrow();
    expect(verifiedByLibrary(newSecret, last.headers, last.body)).toBeTruthy();
    await receiver.close();
  });

  it("disables an endpoint that keeps failing, and says why; its deliveries give up", { timeout: 30_000 }, async () => {
    const receiver = await startReceiver({ otherwise: 503 });
    const p = await newPartner(app, { slug: "dead-los" });
    const { endpoint } = await endpointFor(app, p.organizationId, receiver.url, ["user.disabled"]);
    await p.put("/users/u-6", { email: "u6@acme.test" });
    await p.patch("/users/u-6", { status: "disabled" });
    await expect
      .poll(
        async () =>
          (
            await app.t.db.sql.query("SELECT status, disabled_reason FROM webhook_endpoints WHERE id = $1", [
              endpoint.id,
            ])
          ).rows[0],
        { timeout: 15_000 },
      )
      .toMatchObject({
        status: "disabled",
        disabled_reason: expect.stringMatching(
          /^disabled by the service: every delivery failed since .*; last error: HTTP 503$/,
        ),
      });
    await expect
      .poll(
        async () =>
          (await app.t.db.sql.query("SELECT status FROM webhook_deliveries WHERE endpoint_id = $1", [endpoint.id]))
            .rows[0]?.status,
        { timeout: 15_000 },
      )
      .toBe("failed");
    await receiver.close();
  });
});
