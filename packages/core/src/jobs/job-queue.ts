import { PgBoss, type JobWithMetadata } from "pg-boss";

import type { Database } from "../db/database";
import { NO_OBSERVER, type Observer } from "../observe/observer";

/**
 * The durable job queue: pg-boss, in its own `pgboss` schema of the service's database.
 * Jobs are fetched with SKIP LOCKED, so with several server instances each job runs on one
 * of them; a failed job is retried with exponential backoff; a job whose process died is
 * taken up again once its expiry passes. Handlers are idempotent (every step checks what
 * is already done), so a retry after a crash finishes the work without repeating it.
 */
export const QUEUES = {
  lifecycle: "partner-user-lifecycle",
  imports: "partner-user-import",
  provisioning: "partner-user-provisioning",
  siteAccountSync: "partner-user-site-account",
  /** One attempt of one webhook delivery (webhooks/deliver.ts). */
  webhooks: "webhook-delivery",
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export const RETRY_LIMIT = 5;

export interface JobQueueOptions {
  connectionString: string;
  /** How long a job may stay active before it is considered lost and retried. */
  expireInSeconds?: number;
  retryDelaySeconds?: number;
  /** Retries after the first attempt (default RETRY_LIMIT). */
  retryLimit?: number;
  /** Seconds between polls of an idle worker. */
  pollingIntervalSeconds?: number;
  /** Seconds between pg-boss's checks for expired jobs (tests shorten it). */
  superviseIntervalSeconds?: number;
  onError?: (error: unknown) => void;
  /** Runs each job (the host's job metrics and spans). */
  observer?: Pick<Observer, "runJob">;
}

/** Jobs of one queue by state, as of pg-boss's last count of it. */
export interface QueueDepth {
  queue: QueueName;
  /** Waiting and runnable now. */
  ready: number;
  /** Waiting for a later start (a retry's backoff). */
  deferred: number;
  active: number;
}

/** pg-boss's statements run through `db`: in its transaction, when it is one. */
const throughDatabase = (db: Database) => ({
  executeSql: (text: string, values?: unknown[]) => db.sql.query(text, values as unknown[]),
});

export class JobQueue {
  private running = true;

  private constructor(
    readonly boss: PgBoss,
    private readonly pollingIntervalSeconds: number,
    private readonly observer: Pick<Observer, "runJob">,
  ) {}

  static async start(options: JobQueueOptions): Promise<JobQueue> {
    const boss = new PgBoss({
      connectionString: options.connectionString,
      schema: "pgboss",
      max: 4,
      // A job created anywhere wakes the workers at once (the queues' `notify`), over one LISTEN
      // connection per instance; polling stays on as the floor (a retry's delayed start).
      useListenNotify: true,
      // pg-boss 12 looks for expired jobs in its monitor pass, which runs on both timers: a shorter
      // supervision alone would leave expiry at the monitor's default of once a minute.
      ...(options.superviseIntervalSeconds
        ? {
            superviseIntervalSeconds: options.superviseIntervalSeconds,
            monitorIntervalSeconds: options.superviseIntervalSeconds,
          }
        : {}),
    });
    boss.on("error", (error) => options.onError?.(error));
    await boss.start();
    for (const name of Object.values(QUEUES)) {
      const existing = await boss.getQueue(name);
      if (!existing) {
        await boss
          .createQueue(name, {
            retryLimit: options.retryLimit ?? RETRY_LIMIT,
            retryDelay: options.retryDelaySeconds ?? 2,
            retryBackoff: true,
            retryDelayMax: 300,
            expireInSeconds: options.expireInSeconds ?? 300,
            notify: true,
          })
          .catch(async (error: unknown) => {
            // Another instance created it at the same moment.
            if (!(await boss.getQueue(name))) throw error;
          });
      } else if (!existing.notify) {
        // A queue created before jobs woke their workers.
        await boss.updateQueue(name, { notify: true });
      }
    }
    const queue = new JobQueue(boss, options.pollingIntervalSeconds ?? 1, options.observer ?? NO_OBSERVER);
    // pg-boss may also stop by itself (a fatal error): the instance is then no longer ready.
    boss.once("stopped", () => (queue.running = false));
    return queue;
  }

  /**
   * Enqueues through `db`: called with a transaction's `tx` (withTransaction), the job exists
   * if and only if the state change that needs it was committed.
   */
  async enqueue(
    db: Database,
    name: QueueName,
    data: object,
    singletonKey: string,
    options: { startAfter?: Date } = {},
  ): Promise<void> {
    await this.boss.send(name, data, {
      singletonKey,
      ...(options.startAfter ? { startAfter: options.startAfter } : {}),
      db: throughDatabase(db),
    });
  }

  /** Enqueues several jobs of one queue through `db` in one statement, as `enqueue` does one. */
  async enqueueMany(db: Database, name: QueueName, jobs: Array<{ data: object; singletonKey: string }>): Promise<void> {
    if (jobs.length === 0) return;
    await this.boss.insert(name, jobs, { db: throughDatabase(db) });
  }

  /**
   * Runs `handler` for each job of `name`. The handler learns whether this is the last
   * attempt, so it can record a final failure before the queue gives up.
   */
  async work<T extends object>(
    name: QueueName,
    handler: (data: T, attempt: { last: boolean }) => Promise<void>,
  ): Promise<void> {
    await this.boss.work<T>(
      name,
      {
        includeMetadata: true,
        pollingIntervalSeconds: this.pollingIntervalSeconds,
        // Not pg-boss's relaxed 30 s while notified: a retry's delayed start is only found by polling.
        notifyPollingIntervalSeconds: this.pollingIntervalSeconds,
      },
      async (jobs) => {
        for (const job of jobs as unknown as Array<JobWithMetadata<T>>)
          await this.observer.runJob(name, () => handler(job.data, { last: job.retryCount >= job.retryLimit }));
      },
    );
  }

  /** True from start until stop: jobs are being taken (the readiness check). */
  get isRunning(): boolean {
    return this.running;
  }

  /** How many jobs wait and run in each queue (the job-queue depth metric). */
  async depth(): Promise<QueueDepth[]> {
    const queues = await this.boss.getQueues(Object.values(QUEUES));
    return queues.map((queue) => ({
      queue: queue.name as QueueName,
      ready: queue.readyCount,
      deferred: queue.deferredCount,
      active: queue.activeCount,
    }));
  }

  private readonly stopHooks: Array<() => Promise<void>> = [];

  /** Work started beside the queue's workers (the webhook fan-out loop) that stops with them. */
  onStop(hook: () => Promise<void>): void {
    this.stopHooks.push(hook);
  }

  async stop(): Promise<void> {
    this.running = false;
    for (const hook of this.stopHooks.splice(0)) await hook();
    await this.boss.stop({ graceful: true, timeout: 5_000 });
  }
}
