import { createServer } from "node:http";
import { startLocalAssistant } from "@mga/assistant";
import { connect, expireStaleVerifications, HttpChatUpstream, JobQueue, startWorkers, sweepExpiredRecords } from "@mga/core";
import { directoryFromEnv } from "./directory";
import { loadEnv } from "./env";
import { createApp } from "./http/create-app";
import { createLogger } from "./log";

/**
 * Starts the API: connects to DATABASE_URL or starts the embedded PostgreSQL, applies
 * pending migrations (safe with several instances), then serves HTTP until SIGINT/SIGTERM.
 */
async function main() {
  const env = loadEnv();
  const logger = createLogger(env.LOG_LEVEL);
  const connection = await connect({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    secretKey: env.SECRET_KEY,
    maxConnections: env.DB_POOL_MAX,
  });
  // With no upstream configured, the bundled local assistant answers from its sample corpus.
  const assistant = env.UPSTREAM_CHAT_URL
    ? undefined
    : await startLocalAssistant({ databaseUrl: connection.url, token: env.UPSTREAM_CHAT_TOKEN, wordDelayMs: 15 });
  const upstream = new HttpChatUpstream({
    url: env.UPSTREAM_CHAT_URL ?? (assistant as { url: string }).url,
    token: env.UPSTREAM_CHAT_TOKEN,
    connectTimeoutMs: env.UPSTREAM_CONNECT_TIMEOUT_MS,
    idleTimeoutMs: env.UPSTREAM_IDLE_TIMEOUT_MS,
    totalTimeoutMs: env.UPSTREAM_TOTAL_TIMEOUT_MS,
  });
  const directory = directoryFromEnv(env, connection.db);
  const queue = await JobQueue.start({ connectionString: connection.url, onError: (error) => logger.warn("job queue", { error: String(error) }) });
  await startWorkers(queue, { db: connection.db, ...directory, log: (message, fields) => logger.warn(message, fields) });
  // Expired idempotency records, old rate-limit windows, unused verification links; any instance may run it.
  const sweep = setInterval(() => {
    Promise.all([sweepExpiredRecords(connection.db), expireStaleVerifications(connection.db)]).catch((error: unknown) =>
      logger.warn("sweep failed", { error: String(error) }),
    );
  }, 5 * 60_000);
  sweep.unref();

  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(env.PORT, env.HOST, resolve);
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  const baseUrl = env.PUBLIC_BASE_URL ?? `http://${env.HOST.includes(":") ? `[${env.HOST}]` : env.HOST}:${port}`;
  server.on(
    "request",
    createApp({
      db: connection.db,
      upstream,
      directory,
      queue,
      appUrl: env.APP_URL ?? baseUrl,
      siteLoginUrl: env.SITE_LOGIN_URL,
      siteCallbackSecret: env.SITE_CALLBACK_SECRET,
      logger,
      publicBaseUrl: baseUrl,
    }),
  );
  server.keepAliveTimeout = 65_000;

  logger.info("listening", {
    base_url: baseUrl,
    database: connection.embedded ? `embedded PostgreSQL (${env.DATA_DIR}/postgres)` : "DATABASE_URL",
    upstream: assistant ? `local assistant (sample corpus) at ${assistant.url}` : "UPSTREAM_CHAT_URL",
  });
  if (process.stdout.isTTY || process.env.MGA_PRINT_BANNER !== "0") {
    process.stderr.write(banner(baseUrl));
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info("stopping", { signal });
    server.close();
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 5_000).unref();
    await queue.stop();
    await assistant?.close();
    await connection.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

function banner(baseUrl: string): string {
  return `
  Mortgage-guideline API is up: ${baseUrl}
  OpenAPI document:             ${baseUrl}/v1/openapi.json

  Create an organization and a key (in another terminal, from the repository root):
    pnpm cli org:create --name "Acme Lending" --json
    pnpm cli key:create --org <org id> --name "my server" --scopes chat:read,chat:write,sources:read --json
  Then:
    curl -H "Authorization: Bearer <key>" ${baseUrl}/v1/me
    curl -H "Authorization: Bearer <key>" -H "Content-Type: application/json" \\
      -d '{"message":"What is the minimum down payment for an FHA loan?","user":{"external_user_id":"u1"}}' \\
      ${baseUrl}/v1/messages

`;
}

main().catch((error: unknown) => {
  process.stderr.write(`failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
