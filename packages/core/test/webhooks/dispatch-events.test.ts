import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { JobQueue, QUEUES } from "../../src/jobs/job-queue";
import { createOrganization } from "../../src/orgs/organizations";
import { createIntegration } from "../../src/partners/integrations/integrations";
import { createTestDatabase, type TestDatabase } from "../../src/testing/index";
import { dispatchEvents } from "../../src/webhooks/dispatch-events";
import { createWebhookEndpoint } from "../../src/webhooks/endpoints";
import type { EventType } from "../../src/webhooks/event-values";
import { recordEvents } from "../../src/webhooks/record-event";
import { recordingDatabase } from "../support/database-probes";

/**
 * The fan-out (issue 25's outbox relay): each event becomes one delivery, and one queued attempt,
 * per enabled endpoint of its organization that takes its type (and its integration, for an
 * endpoint limited to one); a batch costs the same statements however many events it holds.
 */
let t: TestDatabase;
let queue: JobQueue;
beforeAll(async () => {
  t = await createTestDatabase();
  // No worker: the test reads the queued jobs, nothing takes them.
  queue = await JobQueue.start({ connectionString: t.url });
});
afterAll(async () => {
  await queue.stop();
  await t.drop();
});

const render = (event: { id: string }) => ({ id: event.id });

/** Two organizations, each with endpoints that match some events and not others. */
async function organizationsWithEndpoints(label: string) {
  const a = await createOrganization(t.db, { name: `${label} A Lending` });
  const b = await createOrganization(t.db, { name: `${label} B Lending` });
  const [one, two] = [
    await createIntegration(t.db, { organizationId: a.id, slug: `${label}-one` }),
    await createIntegration(t.db, { organizationId: a.id, slug: `${label}-two` }),
  ];
  const endpoint = async (organizationId: string, eventTypes: EventType[], integration: string | null = null) =>
    (
      await createWebhookEndpoint(t.db, {
        organizationId,
        url: "http://127.0.0.1:9/hook",
        eventTypes,
        integration,
        allowPrivateAddresses: true,
      })
    ).endpoint.id;
  const endpoints = {
    wide: await endpoint(a.id, ["user.disabled", "user.deleted"]),
    onlyOne: await endpoint(a.id, ["user.disabled"], `${label}-one`),
    disabled: await endpoint(a.id, ["user.disabled"]),
    otherType: await endpoint(a.id, ["key.expiring_soon"]),
    otherOrganization: await endpoint(b.id, ["user.disabled"]),
  };
  await t.db.sql.query("UPDATE webhook_endpoints SET status = 'disabled' WHERE id = $1", [endpoints.disabled]);
  return { a, b, one, two, endpoints };
}

/** Dispatches whatever earlier tests left, so a test's batch holds only its own events. */
async function drain() {
  while ((await dispatchEvents(t.db, queue, { renderEvent: render })) > 0);
}

async function deliveriesOf(eventIds: string[]) {
  const { rows } = await t.db.sql.query<{ event_id: string; endpoint_id: string; id: string; payload: string }>(
    "SELECT event_id, endpoint_id, id, payload FROM webhook_deliveries WHERE event_id = ANY($1::text[]) ORDER BY event_id, endpoint_id",
    [eventIds],
  );
  return rows;
}

/** (event, endpoint) pairs in one order, whatever order they came in. */
const pairs = (list: Array<Array<string | undefined>>) => list.map((pair) => pair.join(" ")).sort();

describe("dispatchEvents", () => {
  it("makes one delivery and one queued attempt per matching endpoint, and none for any other", async () => {
    await drain();
    const { a, b, one, two, endpoints } = await organizationsWithEndpoints("match");
    const subject = { key: { id: "key", name: "k", lastFour: "abcd", expiresAt: new Date().toISOString() } };
    const inputs = [
      { type: "user.disabled" as const, organizationId: a.id, integrationId: one.id, subject },
      { type: "user.disabled" as const, organizationId: a.id, integrationId: two.id, subject },
      { type: "user.deleted" as const, organizationId: a.id, integrationId: one.id, subject },
      { type: "user.reactivated" as const, organizationId: a.id, integrationId: one.id, subject },
      { type: "user.disabled" as const, organizationId: b.id, integrationId: null, subject },
    ];
    const ids = await recordEvents(t.db, inputs);
    expect(await dispatchEvents(t.db, queue, { renderEvent: render })).toBe(inputs.length);

    const deliveries = await deliveriesOf(ids);
    const expected = [
      [ids[0], endpoints.wide],
      [ids[0], endpoints.onlyOne],
      [ids[1], endpoints.wide],
      [ids[2], endpoints.wide],
      [ids[4], endpoints.otherOrganization],
    ];
    expect(pairs(deliveries.map((d) => [d.event_id, d.endpoint_id]))).toEqual(pairs(expected));
    for (const delivery of deliveries) expect(JSON.parse(delivery.payload)).toEqual({ id: delivery.event_id });

    const jobs = await t.db.sql.query<{ delivery_id: string }>(
      "SELECT data->>'deliveryId' AS delivery_id FROM pgboss.job WHERE name = $1 AND data->>'deliveryId' = ANY($2::text[])",
      [QUEUES.webhooks, deliveries.map((d) => d.id)],
    );
    expect(jobs.rows.map((job) => job.delivery_id).sort()).toEqual(deliveries.map((d) => d.id).sort());
    const undispatched = await t.db.sql.query(
      "SELECT id FROM events WHERE id = ANY($1::text[]) AND dispatched_at IS NULL",
      [ids],
    );
    expect(undispatched.rows).toEqual([]);
  });

  it("leaves out an event the renderer refuses and delivers the others", async () => {
    await drain();
    const { a, endpoints } = await organizationsWithEndpoints("refused");
    const subject = { key: { id: "key", name: "k", lastFour: "abcd", expiresAt: new Date().toISOString() } };
    const ids = await recordEvents(t.db, [
      { type: "user.disabled", organizationId: a.id, integrationId: null, subject },
      { type: "user.deleted", organizationId: a.id, integrationId: null, subject },
    ]);
    const logged: string[] = [];
    const refusing = (event: { id: string; type: string }) => {
      if (event.type === "user.disabled") throw new Error("cannot render");
      return render(event);
    };
    await dispatchEvents(t.db, queue, { renderEvent: refusing, log: (message) => logged.push(message) });
    expect((await deliveriesOf(ids)).map((d) => [d.event_id, d.endpoint_id])).toEqual([[ids[1], endpoints.wide]]);
    expect(logged).toEqual(["webhook event not rendered; not delivered"]);
  });

  it("runs as many statements for 100 events as for 2", async () => {
    await drain();
    const { a, b, one } = await organizationsWithEndpoints("count");
    const subject = { key: { id: "key", name: "k", lastFour: "abcd", expiresAt: new Date().toISOString() } };
    const statementsFor = async (events: number) => {
      await recordEvents(
        t.db,
        Array.from({ length: events }, (_, i) => ({
          type: "user.disabled" as const,
          organizationId: i % 2 ? a.id : b.id,
          integrationId: i % 2 ? one.id : null,
          subject,
        })),
      );
      const recording = recordingDatabase(t.url, t.db.secrets);
      try {
        expect(await dispatchEvents(recording.db, queue, { renderEvent: render })).toBe(events);
        return recording.queries.length;
      } finally {
        await recording.db.close();
      }
    };
    const few = await statementsFor(2);
    const many = await statementsFor(100);
    expect(many).toBe(few);
    // The lock, the events, their endpoints, the deliveries, their jobs, the mark (and BEGIN, COMMIT).
    expect(many).toBeLessThanOrEqual(8);
  });
});
