import cluster from "node:cluster";
import { createServer, type Server } from "node:http";

import { eventToWire } from "@mga/api";
import { pruneAnswerStreams, startAnswerStreams, stopAnswerStreams } from "@mga/core/answers";
import { HttpChatUpstream } from "@mga/core/conversations";
import { connect } from "@mga/core/db";
import { sweepExpiredRecords } from "@mga/core/idempotency";
import { JobQueue, startWorkers } from "@mga/core/jobs";
import { flushKeyUsage, startKeyCache } from "@mga/core/keys";
import { expireStaleVerifications } from "@mga/core/partners/operations";
import { reconcileAllSiteAccountLocks } from "@mga/core/partners/users";
import { flushUsage, sweepUsage } from "@mga/core/usage";
import { announceExpiringKeys, sweepOldEvents } from "@mga/core/webhooks";

import { clusterExposition } from "./cluster/cluster-metrics";
import { shareKeyChangesWithSiblings } from "./cluster/key-change-relay";
import { runPrimary } from "./cluster/run-primary";
import { workerListening } from "./cluster/worker-messages";
import { directoryFromEnv } from "./directory";
import { loadEnv } from "./env";
import { createAdminApp } from "./http/admin-app";
import { trustedProxies } from "./http/client-address";
import { createApp } from "./http/create-app";
import { LISTEN_BACKLOG } from "./http/listen-backlog";
import { createLogger } from "./log";
import { allocatorTrim } from "./ops/allocator-trim";
import { exposedGc, idleMemorySteps, startIdleMemoryRelease } from "./ops/idle-memory";
import { createMetrics } from "./ops/metrics";
import { createObserver } from "./ops/observer";
import { createReadiness } from "./ops/readiness";
import { startBanner } from "./start-banner";

/**
 * Starts the API: connects to DATABASE_URL or starts the embedded PostgreSQL, applies
 * pending migrations (safe with several instances), then serves HTTP until SIGINT/SIGTERM.
 */
async function main() {
  const env = loadEnv();
  // WORKERS > 1: this process supervises, and each worker it forks runs the rest of main (docs/architecture.md, "Every core").
  if (env.WORKERS > 1 && cluster.isPrimary) return runPrimary(env);
  const logger = createLogger(
    env.LOG_LEVEL,
    undefined,
    cluster.worker ? { worker: cluster.worker.id, pid: process.pid } : undefined,
  );
  // Metrics always (GET /metrics on the admin listener); traces only with a collector to send them to.
  const metrics = createMetrics();
  // The OpenTelemetry SDK is not even loaded without one.
  const tracing = env.OTEL_EXPORTER_OTLP_ENDPOINT
    ? (await import("./ops/tracing")).startTracing({
        endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT,
        serviceName: env.OTEL_SERVICE_NAME,
      })
    : undefined;
  const observer = createObserver(metrics, tracing);
  const connection = await connect({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    secretKey: env.SECRET_KEY,
    maxConnections: env.DB_POOL_MAX,
    // This process stops the embedded PostgreSQL itself, after its drain (see stop below).
    handlesSignals: true,
    wrapSql: observer.wrapSql,
  });
  // Verified keys answered from memory, kept true across instances by LISTEN/NOTIFY (docs/architecture.md, "Hot path").
  const keyCache = startKeyCache(connection.db, connection.url, {}, observer);
  // A worker's changes reach its siblings' caches before the change's request is answered (cluster/key-change-relay.ts).
  if (cluster.worker) shareKeyChangesWithSiblings(keyCache.cache);
  await keyCache.ready;
  // Streamed answers: generated whatever their connections do, resumable on any instance (docs/decisions.md, "Resumable answers").
  const answers = await startAnswerStreams(connection.db, connection.url, {}, (message, fields) =>
    logger.warn(message, fields),
  );
  // With no upstream configured, the bundled local assistant answers from its sample corpus.
  // Loaded only then: a server with an upstream would hold its corpus and search index for
  // nothing, about 1 MiB (docs/architecture.md, "Memory").
  const assistant = env.UPSTREAM_CHAT_URL
    ? undefined
    : await (await import("@mga/assistant")).startLocalAssistant({ token: env.UPSTREAM_CHAT_TOKEN, wordDelayMs: 15 });
  const upstream = new HttpChatUpstream({
    url: env.UPSTREAM_CHAT_URL ?? (assistant as { url: string }).url,
    token: env.UPSTREAM_CHAT_TOKEN,
    connectTimeoutMs: env.UPSTREAM_CONNECT_TIMEOUT_MS,
    idleTimeoutMs: env.UPSTREAM_IDLE_TIMEOUT_MS,
    totalTimeoutMs: env.UPSTREAM_TOTAL_TIMEOUT_MS,
    observer,
  });
  const directory = directoryFromEnv(env, connection.db);
  const queue = await JobQueue.start({
    connectionString: connection.url,
    observer,
    onError: (error) => logger.warn("job queue", { error: String(error) }),
  });
  metrics.watch({ db: connection.db, queue });
  const log = (message: string, fields: Record<string, unknown>) => logger.warn(message, fields);
  // Events fanned out to webhook endpoints and delivered from the queue (docs/decisions.md, "Events and webhooks").
  const webhooks = {
    renderEvent: eventToWire,
    allowPrivateAddresses: env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES === "1",
    log,
  };
  await startWorkers(queue, { db: connection.db, ...directory, log, webhooks });
  // Site-account locks placed under the old rules (before accounts could be shared) are brought in line, in the background.
  reconcileAllSiteAccountLocks({ db: connection.db, siteAccounts: directory.siteAccounts }).then(
    (count) => count > 0 && logger.info("site-account locks reconciled", { accounts: count }),
    (error: unknown) =>
      logger.warn("site-account locks not reconciled; retried at the next start", { error: String(error) }),
  );
  // Expired idempotency records, old rate-limit windows, unused verification links, events past 30 days, request-log and usage rows past retention; any instance may run it.
  const sweep = setInterval(() => {
    Promise.all([
      sweepExpiredRecords(connection.db),
      expireStaleVerifications(connection.db),
      pruneAnswerStreams(connection.db, env.ANSWER_RETENTION_HOURS),
      sweepOldEvents(connection.db),
      announceExpiringKeys(connection.db),
      sweepUsage(connection.db, {
        requestLogDays: env.REQUEST_LOG_RETENTION_DAYS,
        usageDays: env.USAGE_RETENTION_DAYS,
      }),
    ]).catch((error: unknown) => logger.warn("sweep failed", { error: String(error) }));
  }, 5 * 60_000);
  sweep.unref();

  const server = createServer();
  const adminServer = createServer();
  await Promise.all([listen(server, env.PORT, env.HOST), listen(adminServer, env.ADMIN_API_PORT, env.ADMIN_API_HOST)]);
  const port = portOf(server, env.PORT);
  const baseUrl = env.PUBLIC_BASE_URL ?? `http://${hostInUrl(env.HOST)}:${port}`;
  const adminUrl = `http://${hostInUrl(env.ADMIN_API_HOST)}:${portOf(adminServer, env.ADMIN_API_PORT)}`;
  const deps = {
    db: connection.db,
    upstream,
    directory,
    queue,
    appUrl: env.APP_URL ?? baseUrl,
    observer,
    allowPrivateWebhookAddresses: webhooks.allowPrivateAddresses,
  };
  let draining = false;
  const isDraining = () => draining;
  const ops = {
    metrics,
    tracing,
    readiness: createReadiness({ db: connection.db, queue, isDraining }),
    // A worker's scrape describes every worker (cluster/cluster-metrics.ts).
    exposition: cluster.worker ? clusterExposition(metrics.registry) : undefined,
  };
  server.on(
    "request",
    createApp({
      ...deps,
      isDraining,
      siteLoginUrl: env.SITE_LOGIN_URL,
      siteCallbackSecret: env.SITE_CALLBACK_SECRET,
      logger,
      publicBaseUrl: baseUrl,
      trustedProxy: trustedProxies(env.TRUST_PROXY),
      ops,
    }),
  );
  adminServer.on(
    "request",
    createAdminApp({ ...deps, logger, isDraining, trustedProxy: trustedProxies(env.TRUST_PROXY), ops }),
  );
  server.keepAliveTimeout = 65_000;
  const gc = exposedGc();
  if (!gc && env.IDLE_MEMORY_RELEASE === "full")
    logger.warn(
      "started without --expose-gc (apps/server/node-flags.json): memory grown by load is not given back when idle",
    );
  const idleMemory = startIdleMemoryRelease([server, adminServer], {
    ...idleMemorySteps(env.IDLE_MEMORY_RELEASE, { gc, trimAllocator: allocatorTrim() }),
    releaseAboveMiB: env.IDLE_MEMORY_RELEASE_ABOVE_MIB,
    onStep: (done) =>
      done.step === "keep"
        ? logger.debug("idle: V8's heap kept, the RSS at or under IDLE_MEMORY_RELEASE_ABOVE_MIB", {
            rss_mib: done.rssBeforeMiB,
          })
        : logger.info(done.step === "release" ? "idle: memory given back" : "idle: allocator trimmed", {
            rss_before_mib: done.rssBeforeMiB,
            rss_after_mib: done.rssAfterMiB,
            ms: done.ms,
          }),
  });

  logger.info("listening", {
    base_url: baseUrl,
    admin_api_url: adminUrl,
    database: connection.embedded ? `embedded PostgreSQL (${env.DATA_DIR}/postgres)` : "DATABASE_URL",
    upstream: assistant ? `local assistant (sample corpus) at ${assistant.url}` : "UPSTREAM_CHAT_URL",
    tracing: tracing ? "OTEL_EXPORTER_OTLP_ENDPOINT" : "off",
  });
  // A worker's primary prints the banner once, when all its workers listen.
  if (cluster.worker) process.send?.(workerListening(baseUrl));
  else if (process.stdout.isTTY || env.MGA_PRINT_BANNER !== "0") process.stderr.write(startBanner(baseUrl));

  let stopping = false;
  /**
   * A deploy's SIGTERM (docs/decisions.md, "Drain"): the listeners close (no new connection;
   * a request on a kept-alive one gets 503 with Retry-After), running answers keep their
   * connections for SHUTDOWN_DRAIN_MS, then each stream still open ends with a comment telling
   * its client to resume (on another instance, behind the same address) while its answer goes on
   * being generated here and written for that instance to follow. Only when every answer, key
   * use and job has been written does the embedded PostgreSQL stop.
   */
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    draining = true;
    idleMemory.stop();
    logger.info("stopping", { signal, answers_generating: answers.generating, drain_ms: env.SHUTDOWN_DRAIN_MS });
    for (const listener of [server, adminServer]) {
      listener.close();
      listener.closeIdleConnections();
    }
    const left = await answers.drain(env.SHUTDOWN_DRAIN_MS);
    const sentOff = answers.sendOffConnections();
    if (left > 0 || sentOff > 0)
      logger.info("drain over: streams told to resume elsewhere", { streams: sentOff, answers_generating: left });
    // Bounded by the upstream's own total timeout: no answer runs longer.
    await answers.drain(env.UPSTREAM_TOTAL_TIMEOUT_MS + 5_000);
    await stopAnswerStreams(connection.db);
    for (const listener of [server, adminServer]) listener.closeAllConnections();
    await queue.stop();
    await assistant?.close();
    await keyCache.stop();
    // Key uses still in memory: their last_used_at is written before the connection goes.
    await flushKeyUsage(connection.db).catch((error: unknown) =>
      logger.warn("key usage not written", { error: String(error) }),
    );
    // Usage and request-log rows still in memory likewise (the connections were all closed above, so nothing more is recorded).
    await flushUsage(connection.db).catch((error: unknown) =>
      logger.warn("usage not written", { error: String(error) }),
    );
    await connection.close();
    // The last spans (the drain's) go to the collector before the process exits.
    await tracing?.shutdown().catch((error: unknown) => logger.warn("traces not exported", { error: String(error) }));
    logger.info("stopped", {});
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, LISTEN_BACKLOG, resolve);
  });
}

function portOf(server: Server, fallback: number): number {
  const address = server.address();
  return typeof address === "object" && address ? address.port : fallback;
}

const hostInUrl = (host: string) => (host.includes(":") ? `[${host}]` : host);

main().catch((error: unknown) => {
  process.stderr.write(`failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
