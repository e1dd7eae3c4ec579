import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startWorkers } from "@mga/core/jobs";
import { LocalChatIdentities, LocalSiteAccounts } from "@mga/core/local-site";

import { newPartner } from "../support/partners";
import { startServerProcess } from "../support/server-process";
import { startTestApp, type TestApp } from "../support/test-app";
import { startReceiver } from "../support/webhook-receiver";
import { endpointFor, signedPerSpecification } from "./webhook-helpers";

/**
 * Several instances on one database: each attempt is made by one of them only, and a delivery
 * whose instance died mid-attempt is made again by another (at least once).
 */
let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  a = await startTestApp({ jobExpireInSeconds: 3 });
  b = await startTestApp({ shareDatabaseWith: a });
});
afterAll(async () => {
  await b.close();
  await a.close();
});

describe("webhook delivery across instances", () => {
  it("two instances deliver each event once", { timeout: 60_000 }, async () => {
    const receiver = await startReceiver({ otherwise: { status: 200, delayMs: 150 } });
    const p = await newPartner(a, { slug: "twin-hooks-los" });
    await endpointFor(a, p.organizationId, receiver.url, ["user.disabled", "user.reactivated"]);
    const ids = Array.from({ length: 8 }, (_, i) => `tw-${i}`);
    for (const id of ids) await p.put(`/users/${id}`, { email: `${id}@acme.test` });
    await Promise.all(
      ids.map((id, i) =>
        (i % 2 ? a : b).request(`${p.base}/users/${id}`, {
          method: "PATCH",
          key: p.key,
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ status: "disabled" }),
        }),
      ),
    );
    await expect.poll(() => receiver.delivered().length, { timeout: 30_000 }).toBe(ids.length);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const webhookIds = receiver.received.map((hit) => hit.headers["webhook-id"]);
    expect(webhookIds).toHaveLength(ids.length);
    expect(new Set(webhookIds).size).toBe(ids.length);
    await receiver.close();
  });

  it("jobs racing for one delivery on two instances make one attempt", { timeout: 60_000 }, async () => {
    const receiver = await startReceiver({ otherwise: { status: 200, delayMs: 500 } });
    const p = await newPartner(a, { slug: "race-hooks-los" });
    await endpointFor(a, p.organizationId, receiver.url, ["user.disabled"]);
    await p.put("/users/r-1", { email: "r1@acme.test" });
    await p.patch("/users/r-1", { status: "disabled" });
    await expect.poll(() => receiver.delivered().length, { timeout: 10_000 }).toBe(1);
    // Its outcome recorded too: made due again before that, the first attempt would write `succeeded` over it.
    const succeeded = async () =>
      (
        await a.t.db.sql.query<{ id: string }>(
          "SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE e.organization_id = $1 AND d.status = 'succeeded'",
          [p.organizationId],
        )
      ).rows[0]?.id;
    await expect.poll(succeeded, { timeout: 10_000 }).toBeDefined();
    const deliveryId = (await succeeded()) as string;
    // Made due again, with six jobs for it at once on both instances (a redelivery pressed repeatedly, a job retried after an expiry…).
    await a.t.db.sql.query("UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now() WHERE id = $1", [
      deliveryId,
    ]);
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 ? a : b).queue.enqueue(a.t.db, "webhook-delivery", { deliveryId }, `race-${i}`),
      ),
    );
    await expect.poll(() => receiver.delivered().length, { timeout: 10_000 }).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(receiver.received).toHaveLength(2);
    await receiver.close();
  });

  it(
    "a delivery whose server process was killed mid-attempt is made again by another instance",
    { timeout: 90_000 },
    async () => {
      // The first attempt never gets an answer; the next one is answered.
      const receiver = await startReceiver({ replies: ["hang"] });
      const p = await newPartner(a, { slug: "crash-hooks-los" });
      const { secret } = await endpointFor(a, p.organizationId, receiver.url, ["user.disabled"]);
      await p.put("/users/c-1", { email: "c1@acme.test" });
      // Only the child process works the webhook queue until it dies.
      await a.queue.boss.offWork("webhook-delivery");
      await b.queue.boss.offWork("webhook-delivery");
      const child = await startServerProcess({
        databaseUrl: a.t.url,
        upstreamUrl: "http://127.0.0.1:9",
        env: { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: "1" },
      });
      try {
        await p.patch("/users/c-1", { status: "disabled" });
        await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(1);
        child.child.kill("SIGKILL");
        await child.exited;
      } finally {
        if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill("SIGKILL");
      }
      const { rows } = await a.t.db.sql.query("SELECT status, attempts FROM webhook_deliveries WHERE event_id = $1", [
        receiver.received[0]?.headers["webhook-id"],
      ]);
      expect(rows[0]).toMatchObject({ status: "pending", attempts: 1 });

      // This instance works the queue again: once the job's expiry (3 s, found within the queue's
      // 1 s supervision) and the attempt's lease (15 s) pass, it delivers.
      await startWorkers(a.queue, {
        db: a.t.db,
        siteAccounts: new LocalSiteAccounts(a.t.db),
        chatIdentities: new LocalChatIdentities(a.t.db),
        webhooks: a.webhooks,
      });
      await expect.poll(() => receiver.delivered().length, { timeout: 35_000, interval: 500 }).toBe(1);
      const [first, second] = receiver.received;
      expect(second?.headers["webhook-id"]).toBe(first?.headers["webhook-id"]);
      expect(second?.body).toBe(first?.body);
      expect(signedPerSpecification(secret, second?.headers ?? {}, second?.body ?? "")).toBe(true);
      await expect
        .poll(
          async () =>
            (
              await a.t.db.sql.query("SELECT status, attempts FROM webhook_deliveries WHERE event_id = $1", [
                first?.headers["webhook-id"],
              ])
            ).rows[0],
          { timeout: 5_000 },
        )
        .toMatchObject({ status: "succeeded", attempts: 2 });
      await receiver.close();
    },
  );
});
