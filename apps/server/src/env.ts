import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

import { MIN_SECRET_KEY_LENGTH } from "@mga/core/secrets";

import { trustedProxies } from "./http/client-address";
import { IDLE_MEMORY_RELEASE_MODES, RELEASE_ABOVE_MIB } from "./ops/idle-memory";

/** The repository root: `.data/` (embedded PostgreSQL) lives there whatever the working directory. */
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** Each worker has its own database pools: 64 of them already need thousands of PostgreSQL connections. */
const MAX_WORKERS = 64;
/** An empty value means unset (an `.env` line left blank), so the schema's default applies. */
const emptyIsUnset = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === "" ? undefined : value), schema);

/** Configuration, validated once at start; a bad value stops the process with a clear message. */
export const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  /** The admin listener: the staff console's /trpc, never on the public port. */
  ADMIN_API_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
  /** Loopback by default: only the console, on this machine, should reach it. */
  ADMIN_API_HOST: z.string().min(1).default("127.0.0.1"),
  /** Reverse proxies in front (addresses or CIDR networks, comma-separated) whose X-Forwarded-For the sign-in throttles believe. */
  TRUST_PROXY: z
    .string()
    .default("")
    .refine((list) => {
      try {
        trustedProxies(list);
        return true;
      } catch {
        return false;
      }
    }, "a comma-separated list of addresses or CIDR networks (e.g. 10.0.0.0/8)"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  DATA_DIR: z.string().min(1).default(path.join(REPO_ROOT, ".data")),
  /** Public origin of the API, used in the OpenAPI document's servers; defaults to http://HOST:PORT. */
  PUBLIC_BASE_URL: z.url().optional(),
  /** Origin of the hosted chat application that launch URLs point to; defaults to the API's origin. */
  APP_URL: z.url().optional(),
  /** Signs cursors and seals stored secrets; required with DATABASE_URL, generated into DATA_DIR otherwise. */
  SECRET_KEY: z
    .string()
    .min(MIN_SECRET_KEY_LENGTH, `at least ${MIN_SECRET_KEY_LENGTH} characters (e.g. openssl rand -base64 32)`)
    .optional()
    .or(z.literal("").transform(() => undefined)),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /** The upstream chat service; unset starts the bundled local assistant (apps/assistant). */
  UPSTREAM_CHAT_URL: z
    .url()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  UPSTREAM_CHAT_TOKEN: z.string().optional(),
  UPSTREAM_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  UPSTREAM_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  UPSTREAM_TOTAL_TIMEOUT_MS: z.coerce.number().int().min(1000).default(300_000),
  /** A real site-account system (WordPress REST contract); unset uses the built-in local one. */
  SITE_ACCOUNTS_URL: z
    .url()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  SITE_ACCOUNTS_USERNAME: z.string().optional(),
  SITE_ACCOUNTS_APP_PASSWORD: z.string().optional(),
  /** A real site's login page for the hosted chat's popup; unset uses the built-in /site/login. */
  SITE_LOGIN_URL: z
    .url()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  /** Shared secret with which a real site reports a completed login (POST /site/api/login-complete). */
  SITE_CALLBACK_SECRET: z
    .string()
    .min(32)
    .optional()
    .or(z.literal("").transform(() => undefined)),
  /** A real chat identity store; unset uses the built-in local one. */
  CHAT_IDENTITIES_URL: z
    .url()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  CHAT_IDENTITIES_TOKEN: z.string().optional(),
  /** "0" hides the start banner unless stdout is a terminal (for logs collected by a supervisor). */
  MGA_PRINT_BANNER: z.string().optional(),
  /**
   * Webhooks to loopback, private, link-local and reserved addresses: refused unless this is
   * "1" (local development and tests only; docs/decisions.md, "Webhook SSRF rules").
   */
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: z.enum(["0", "1"]).default("0"),
  /** On SIGTERM: how long running answers may keep their connections before they are told to resume elsewhere. */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
  /** An OTLP/HTTP collector (its base URL; /v1/traces is appended): set, the server exports OpenTelemetry traces; unset, tracing is off and costs nothing. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .url()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  /** The `service.name` of the traces. */
  OTEL_SERVICE_NAME: z.string().min(1).default("mga-api"),
  /** How long a streamed answer's frames are kept for resumption after it ended (at least a day). */
  ANSWER_RETENTION_HOURS: z.coerce
    .number()
    .int()
    .min(24)
    .max(24 * 90)
    .default(24),
  /** Days the request log keeps each /v1 request (docs/decisions.md, "Usage and the request log"). */
  REQUEST_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(90).default(7),
  /**
   * Server processes on one port (node:cluster): a number, or `auto` for the cores this process
   * may use. 1 (the default) runs one process, as before; docs/architecture.md, "Every core".
   */
  WORKERS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === "") return 1;
      if (value === "auto") return Math.min(MAX_WORKERS, os.availableParallelism());
      const workers = /^[0-9]+$/.test(value) ? Number(value) : Number.NaN;
      if (workers >= 1 && workers <= MAX_WORKERS) return workers;
      ctx.addIssue({ code: "custom", message: `a number from 1 to ${MAX_WORKERS}, or auto (one per core)` });
      return z.NEVER;
    }),
  /**
   * What the server gives back once idle after work (docs/architecture.md, "Memory"): `full`
   * (the default) trims the C allocator after 2 s and releases V8's heap after 10 s; `trim` only
   * trims, keeping V8's heap and its optimized code warm for the next burst; `off` neither.
   */
  IDLE_MEMORY_RELEASE: emptyIsUnset(
    z.enum(IDLE_MEMORY_RELEASE_MODES, { error: "full (the default), trim or off" }).default("full"),
  ),
  /**
   * Under `full`, V8's heap is released only while the idle server's RSS is above this many MiB
   * (0: whenever it is idle after work): below it, keeping the optimized code is worth more than
   * the memory (docs/architecture.md, "Memory").
   */
  IDLE_MEMORY_RELEASE_ABOVE_MIB: emptyIsUnset(z.coerce.number().int().min(0).max(1_048_576).default(RELEASE_ABOVE_MIB)),
  /** Days daily usage is kept: at least 400. */
  USAGE_RETENTION_DAYS: z.coerce.number().int().min(400).max(3650).default(400),
});

export type Env = z.infer<typeof envSchema>;

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`).join("\n");
    throw new Error(`invalid configuration:\n${problems}`);
  }
  return parsed.data;
}
