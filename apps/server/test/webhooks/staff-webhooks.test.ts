import { beforeAll, describe, expect, it } from "vitest";

import { ok, type StaffSession } from "../support/staff-client";
import { useStaffProcedures } from "../support/staff-procedures";
import { startReceiver } from "../support/webhook-receiver";
import { verifiedByLibrary } from "./webhook-helpers";

/** The console's webhook procedures: endpoints (secret shown once), deliveries, redeliver, test event. */
const { setup, query, mutate, rows, auditList, newOrg, sessions } = useStaffProcedures();
let admin: StaffSession;
let viewer: StaffSession;
beforeAll(() => {
  ({ admin, viewer } = sessions);
});

describe("staff webhooks", () => {
  it(
    "creates an endpoint whose secret is shown once, sends a test event and redelivers it",
    { timeout: 30_000 },
    async () => {
      const receiver = await startReceiver();
      const org = await newOrg("Hooks Lender");
      const created = ok(
        await mutate(admin, "staff.webhooks.create", {
          organization_id: org.id,
          url: receiver.url,
          event_types: ["user.disabled", "operation.failed"],
          description: "LOS",
        }),
      );
      expect(created.secret).toMatch(/^whsec_/);
      expect(created.endpoint).toMatchObject({
        organization_id: org.id,
        url: receiver.url,
        status: "enabled",
        event_types: ["user.disabled", "operation.failed"],
        integration: null,
      });
      const listed = ok(await query(viewer, "staff.webhooks.list", { organization_id: org.id }));
      expect(JSON.stringify(listed)).not.toContain(created.secret);
      const [stored] = await rows("SELECT secret_sealed FROM webhook_endpoints WHERE id = $1", [created.endpoint.id]);
      expect(stored.secret_sealed).not.toContain(created.secret.slice(6, 20));

      // A viewer reads but cannot act.
      expect(
        (
          await mutate(viewer, "staff.webhooks.sendTestEvent", {
            organization_id: org.id,
            endpoint_id: created.endpoint.id,
          })
        ).status,
      ).toBe(403);
      const test = ok(
        await mutate(admin, "staff.webhooks.sendTestEvent", {
          organization_id: org.id,
          endpoint_id: created.endpoint.id,
        }),
      );
      await expect.poll(() => receiver.delivered().length, { timeout: 10_000 }).toBe(1);
      const event = verifiedByLibrary(
        created.secret,
        receiver.received[0]?.headers ?? {},
        receiver.received[0]?.body ?? "",
      ) as Record<string, unknown>;
      expect(event).toMatchObject({ type: "webhook.test", data: { endpoint_id: created.endpoint.id } });

      await expect
        .poll(
          async () =>
            ok(
              await query(viewer, "staff.webhooks.deliveries", {
                organization_id: org.id,
                endpoint_id: created.endpoint.id,
              }),
            ).deliveries[0],
          { timeout: 5_000 },
        )
        .toMatchObject({
          id: test.delivery_id,
          status: "succeeded",
          attempts: 1,
          last_status_code: 200,
          last_latency_ms: expect.any(Number),
          next_attempt_at: null,
        });
      ok(await mutate(admin, "staff.webhooks.redeliver", { organization_id: org.id, delivery_id: test.delivery_id }));
      await expect.poll(() => receiver.delivered().length, { timeout: 10_000 }).toBe(2);
      expect(receiver.received[1]?.headers["webhook-id"]).toBe(receiver.received[0]?.headers["webhook-id"]);
      await expect
        .poll(
          async () =>
            ok(
              await query(viewer, "staff.webhooks.deliveries", {
                organization_id: org.id,
                endpoint_id: created.endpoint.id,
              }),
            ).deliveries[0],
          { timeout: 5_000 },
        )
        .toMatchObject({ status: "succeeded", attempts: 2 });

      // Another organization's id does not reach it.
      const other = await newOrg("Other Lender");
      expect(
        (await mutate(admin, "staff.webhooks.redeliver", { organization_id: other.id, delivery_id: test.delivery_id }))
          .status,
      ).toBe(404);
      expect(
        (
          await query(viewer, "staff.webhooks.deliveries", {
            organization_id: other.id,
            endpoint_id: created.endpoint.id,
          })
        ).status,
      ).toBe(404);

      const rolled = ok(
        await mutate(admin, "staff.webhooks.rollSecret", { organization_id: org.id, endpoint_id: created.endpoint.id }),
      );
      expect(rolled.secret).not.toBe(created.secret);
      expect(rolled.endpoint.previous_secret_expires_at).not.toBeNull();
      const disabled = ok(
        await mutate(admin, "staff.webhooks.update", {
          organization_id: org.id,
          endpoint_id: created.endpoint.id,
          status: "disabled",
        }),
      );
      expect(disabled.endpoint.status).toBe("disabled");
      expect(
        (
          await mutate(admin, "staff.webhooks.sendTestEvent", {
            organization_id: org.id,
            endpoint_id: created.endpoint.id,
          })
        ).status,
      ).toBe(409);
      ok(await mutate(admin, "staff.webhooks.delete", { organization_id: org.id, endpoint_id: created.endpoint.id }));
      expect(ok(await query(viewer, "staff.webhooks.list", { organization_id: org.id })).endpoints).toEqual([]);

      const actions = (await auditList({})).map((entry) => entry.action);
      for (const action of [
        "webhook_endpoint.create",
        "webhook_endpoint.send_test",
        "webhook_delivery.redeliver",
        "webhook_endpoint.roll_secret",
        "webhook_endpoint.update",
        "webhook_endpoint.delete",
      ]) {
        expect(actions).toContain(action);
      }
      expect(JSON.stringify(await auditList({}))).not.toContain(created.secret);
      void setup;
      await receiver.close();
    },
  );
});
