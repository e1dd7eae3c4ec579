import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { eventToWire, type DirectoryPorts } from "@mga/api";
import {
  startAnswerStreams,
  stopAnswerStreams,
  type AnswerStreams,
  type AnswerStreamsOptions,
} from "@mga/core/answers";
import { HttpChatUpstream, type ChatUpstream } from "@mga/core/conversations";
import { openDatabase, type Database } from "@mga/core/db";
import { JobQueue, startWorkers } from "@mga/core/jobs";
import { createApiKey, flushKeyUsage, startKeyCache, type RunningKeyCache, type Scope } from "@mga/core/keys";
import { localDirectory } from "@mga/core/local-site";
import { createOrganization } from "@mga/core/orgs";
import { configureTenant } from "@mga/core/tenants";
import { createTestDatabase, type TestDatabase } from "@mga/core/testing";
import { flushUsage } from "@mga/core/usage";
import type { WebhookOptions } from "@mga/core/webhooks";

import { createAdminApp } from "../../src/http/admin-app";
import { trustedProxies } from "../../src/http/client-address";
import { createApp } from "../../src/http/create-app";
import { createLogger } from "../../src/log";
import { createMetrics, type Metrics } from "../../src/ops/metrics";
import { createObserver } from "../../src/ops/observer";
import { createReadiness } from "../../src/ops/readiness";
import type { Tracing } from "../../src/ops/tracing";
import { undocumentedStatus } from "./documented-statuses";
import type { UntypedJson } from "./untyped-json";

/** Where tests' msw handlers answer as the upstream chat service. */
export const UPSTREAM_URL = "http://upstream.test";
export const UPSTREAM_TOKEN = "upstream-test-token";

/** Real HTTP servers (the public listener and the admin listener) over a database of this test file's own. */
export interface TestApp {
  baseUrl: string;
  /** The public listener itself: a test can act on its connections (cut one, as a network drop would). */
  server: Server;
  /** The admin listener: the staff console's /trpc. */
  adminUrl: string;
  t: TestDatabase;
  logs: string[];
  queue: JobQueue;
  /** The webhook settings its workers run with (to start them again in a test). */
  webhooks: WebhookOptions;
  /** This instance's key cache, as the server's main runs it. */
  keyCache: RunningKeyCache;
  /** This instance's streamed answers. */
  answers: AnswerStreams;
  /** This instance's Prometheus registry (scraped on the admin listener's /metrics). */
  metrics: Metrics;
  /** Turns the instance's drain on or off, as SIGTERM does in main.ts. */
  setDraining(draining: boolean): void;
  /** Creates an organization (optionally with a tenant configuration) and a key in it. */
  newKey(options?: {
    scopes?: Scope[];
    tenant?: unknown;
    rateLimitPerMinute?: number;
  }): Promise<{ key: string; id: string; organizationId: string }>;
  request(
    path: string,
    init?: RequestInit & { key?: string; via?: "bearer" | "x-api-key" },
  ): Promise<{ status: number; headers: Headers; body: UntypedJson; text: string }>;
  close(): Promise<void>;
}

export async function startTestApp(
  options: {
    upstream?: ChatUpstream;
    /** The site-account system and chat store, or a factory given this app's database. */
    directory?: DirectoryPorts | ((db: Database) => DirectoryPorts);
    sseKeepAliveMs?: number;
    shareDatabaseWith?: TestApp;
    /** Run the job workers in this instance (default true). */
    workers?: boolean;
    /** Seconds before a job whose worker died is retried (pg-boss expiry). */
    jobExpireInSeconds?: number;
    siteCallbackSecret?: string;
    /** TRUST_PROXY of the public listener: `127.0.0.1` lets a test speak from many addresses through X-Forwarded-For. */
    trustProxy?: string;
    /** Shorter leases and polls for tests of resumable answers. */
    answerStreams?: Partial<AnswerStreamsOptions>;
    /** Traces (a test's in-memory exporter); off by default, as in production without OTEL_EXPORTER_OTLP_ENDPOINT. */
    tracing?: Tracing;
    /** With shareDatabaseWith: the URL this instance's pool connects through (a proxy a test can cut). */
    databaseUrlVia?: (url: string) => string;
    /** Webhook delivery settings (default: private addresses allowed, so tests' receivers on 127.0.0.1 work). */
    webhooks?: Partial<WebhookOptions>;
  } = {},
): Promise<TestApp> {
  const metrics = createMetrics();
  const observer = createObserver(metrics, options.tracing);
  const shared = options.shareDatabaseWith?.t;
  const t = shared
    ? {
        ...shared,
        db: openDatabase(options.databaseUrlVia?.(shared.url) ?? shared.url, {
          secrets: shared.db.secrets,
          wrapSql: observer.wrapSql,
        }),
        drop: async () => {},
      }
    : await createTestDatabase({ wrapSql: observer.wrapSql });
  const keyCache = startKeyCache(t.db, t.url, {}, observer);
  await keyCache.ready;
  const answers = await startAnswerStreams(t.db, t.url, options.answerStreams);
  const logs: string[] = [];
  const server: Server = createServer();
  const adminServer: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  await new Promise<void>((resolve) => adminServer.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const adminUrl = `http://127.0.0.1:${(adminServer.address() as AddressInfo).port}`;
  const upstream =
    options.upstream ??
    new HttpChatUpstream({
      url: UPSTREAM_URL,
      token: UPSTREAM_TOKEN,
      connectTimeoutMs: 2_000,
      idleTimeoutMs: 800,
      observer,
    });
  const directory =
    typeof options.directory === "function" ? options.directory(t.db) : (options.directory ?? localDirectory(t.db));
  const queue = await JobQueue.start({
    connectionString: t.url,
    pollingIntervalSeconds: 0.5,
    superviseIntervalSeconds: 1,
    retryDelaySeconds: 1,
    retryLimit: 2,
    expireInSeconds: options.jobExpireInSeconds ?? 60,
    observer,
  });
  metrics.watch({ db: t.db, queue });
  const webhooks: WebhookOptions = {
    renderEvent: eventToWire,
    allowPrivateAddresses: true,
    dispatchIntervalMs: 200,
    ...options.webhooks,
  };
  if (options.workers !== false) await startWorkers(queue, { db: t.db, ...directory, webhooks });
  const logger = createLogger("debug", (line) => logs.push(line));
  const deps = {
    db: t.db,
    upstream,
    directory,
    queue,
    appUrl: baseUrl,
    observer,
    allowPrivateWebhookAddresses: webhooks.allowPrivateAddresses,
  };
  let draining = false;
  const isDraining = () => draining;
  const ops = { metrics, tracing: options.tracing, readiness: createReadiness({ db: t.db, queue, isDraining }) };
  server.on(
    "request",
    createApp({
      ...deps,
      logger,
      publicBaseUrl: baseUrl,
      sseKeepAliveMs: options.sseKeepAliveMs,
      siteCallbackSecret: options.siteCallbackSecret,
      trustedProxy: trustedProxies(options.trustProxy ?? ""),
      isDraining,
      ops,
    }),
  );
  adminServer.on("request", createAdminApp({ ...deps, logger, isDraining, ops }));

  return {
    baseUrl,
    server,
    adminUrl,
    t,
    logs,
    queue,
    webhooks,
    keyCache,
    answers,
    metrics,
    setDraining(value) {
      draining = value;
    },
    async newKey(options = {}) {
      const org = await createOrganization(t.db, { name: "Test Lender" });
      if (options.tenant) await configureTenant(t.db, { organizationId: org.id, config: options.tenant });
      const { key, plaintext } = await createApiKey(t.db, {
        organizationId: org.id,
        name: "test key",
        scopes: options.scopes ?? ["chat:read", "chat:write", "sources:read"],
        rateLimitPerMinute: options.rateLimitPerMinute,
      });
      return { key: plaintext, id: key.id, organizationId: org.id };
    },
    async request(path, init = {}) {
      const headers = new Headers(init.headers);
      if (init.key) {
        if (init.via === "x-api-key") headers.set("X-API-Key", init.key);
        else headers.set("Authorization", `Bearer ${init.key}`);
      }
      const response = await fetch(`${baseUrl}${path}`, { ...init, headers });
      const text = await response.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      const undocumented = undocumentedStatus(init.method ?? "GET", path, response.status);
      if (undocumented) throw new Error(`${undocumented}: ${text.slice(0, 300)}`);
      return { status: response.status, headers: response.headers, body, text };
    },
    async close() {
      for (const listener of [server, adminServer]) {
        listener.closeAllConnections();
        await new Promise((resolve) => listener.close(resolve));
      }
      // Answers still generated stop here (a test's upstream may never finish); what they wrote is flushed.
      answers.abortAll();
      await answers.drain(5_000);
      await stopAnswerStreams(t.db);
      await queue.stop();
      // As the server's main stops: the cache's listener goes, the key uses still in memory are written.
      await keyCache.stop();
      await flushKeyUsage(t.db);
      await flushUsage(t.db);
      if (options.shareDatabaseWith) await t.db.close();
      else await t.drop();
    },
  };
}

/** Asserts the spec's error envelope and returns its code. */
export function expectEnvelope(
  response: { status: number; headers: Headers; body: UntypedJson },
  status: number,
  code: string,
) {
  if (response.status !== status || response.body?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${response.status} ${JSON.stringify(response.body)}`);
  }
  const keys = Object.keys(response.body).sort();
  const errorKeys = Object.keys(response.body.error).sort();
  if (keys.join() !== "error" || errorKeys.join() !== "code,message,request_id") {
    throw new Error(`not exactly the error envelope: ${JSON.stringify(response.body)}`);
  }
  if (!response.body.error.request_id || response.body.error.request_id !== response.headers.get("x-request-id")) {
    throw new Error(`request_id missing or different from X-Request-Id: ${JSON.stringify(response.body)}`);
  }
  return response.body.error as { code: string; message: string; request_id: string };
}
