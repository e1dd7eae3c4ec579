import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { withTransaction } from "../../src/db/transaction";
import { JobQueue, QUEUES } from "../../src/jobs/job-queue";
import { createTestDatabase, type TestDatabase } from "../../src/testing/index";

/**
 * Two instances' queues on one database, polling only every 30 s: a job created through one is
 * taken at once by the other's worker (pg-boss's LISTEN/NOTIFY), and only once it is committed.
 */
const POLL_SECONDS = 30;
let t: TestDatabase;
let producer: JobQueue;
let consumer: JobQueue;
const ran: Array<{ id: string }> = [];

beforeAll(async () => {
  t = await createTestDatabase();
  producer = await JobQueue.start({ connectionString: t.url, pollingIntervalSeconds: POLL_SECONDS });
  consumer = await JobQueue.start({ connectionString: t.url, pollingIntervalSeconds: POLL_SECONDS });
  await consumer.work<{ id: string }>(QUEUES.imports, async (data) => {
    ran.push({ id: data.id });
  });
  // The worker's first fetch happens at once; the jobs below wait for a poll 30 s away, or a notification.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
});
afterAll(async () => {
  await consumer.stop();
  await producer.stop();
  await t.drop();
});

describe("job queue", () => {
  it("wakes another instance's worker when a job is committed, long before its next poll", async () => {
    await withTransaction(t.db, (tx) => producer.enqueue(tx, QUEUES.imports, { id: "woken" }, "woken"));
    await expect.poll(() => ran.find((job) => job.id === "woken"), { timeout: 10_000, interval: 50 }).toBeDefined();
  });

  it("runs nothing for a job whose transaction rolled back", async () => {
    await expect(
      withTransaction(t.db, async (tx) => {
        await producer.enqueue(tx, QUEUES.imports, { id: "rolled-back" }, "rolled-back");
        throw new Error("the change fails after the job was enqueued");
      }),
    ).rejects.toThrow("the change fails");
    await withTransaction(t.db, (tx) => producer.enqueue(tx, QUEUES.imports, { id: "after" }, "after"));
    await expect.poll(() => ran.find((job) => job.id === "after"), { timeout: 10_000, interval: 50 }).toBeDefined();
    expect(ran.map((job) => job.id)).not.toContain("rolled-back");
  });

  it("turns notifications on for the queues of a database that has them off (one created by an earlier build)", async () => {
    await producer.boss.updateQueue(QUEUES.provisioning, { notify: false });
    expect((await producer.boss.getQueue(QUEUES.provisioning))?.notify).toBe(false);
    const upgraded = await JobQueue.start({ connectionString: t.url, pollingIntervalSeconds: POLL_SECONDS });
    try {
      expect((await upgraded.boss.getQueue(QUEUES.provisioning))?.notify).toBe(true);
    } finally {
      await upgraded.stop();
    }
  });
});
