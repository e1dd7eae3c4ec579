import type { inferRouterOutputs } from "@trpc/server";
import { z } from "zod";

import type { AdminRouter } from "@mga/api";

/** What `system.status` returns, inferred from the API's router. */
export type SystemStatus = inferRouterOutputs<AdminRouter>["system"]["status"];

/** The outcome of asking the API for its status: its answer, or whatever the call threw. */
export type StatusOutcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export interface StatusItem {
  label: string;
  value: string;
  tone: "neutral" | "good" | "bad";
}

/** What the home page renders: a healthy or degraded API, or an error state. */
export type StatusView =
  | { state: "healthy" | "degraded"; title: string; summary: string; items: StatusItem[] }
  | { state: "error"; title: string; summary: string; detail: string };

// Checked at runtime too: a console talking to an API of another version may get another shape.
const systemStatusSchema = z.object({
  service: z.string(),
  api_version: z.string(),
  database: z.enum(["ok", "unavailable"]),
}) satisfies z.ZodType<SystemStatus>;

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ETIMEDOUT",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_SOCKET",
]);

/**
 * Turns the outcome of the `system.status` call into what the page shows. Pure. `apiUrl` is
 * the API's admin listener (staff only), not the public one partners call: the page says so,
 * or staff would give partners an address that refuses them.
 */
export function describeStatus(outcome: StatusOutcome, apiUrl: string): StatusView {
  if (!outcome.ok) return describeError(outcome.error, apiUrl);

  const parsed = systemStatusSchema.safeParse(outcome.value);
  if (!parsed.success) {
    return {
      state: "error",
      title: "Unexpected API answer",
      summary: `The API's admin listener at ${apiUrl} answered, but not with the status this console understands.`,
      detail: parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; "),
    };
  }

  const status = parsed.data;
  const databaseOk = status.database === "ok";
  return {
    state: databaseOk ? "healthy" : "degraded",
    title: databaseOk ? "API is up" : "API is up, database unavailable",
    summary: databaseOk
      ? `The API's admin listener at ${apiUrl} answered and reached its database.`
      : `The API's admin listener at ${apiUrl} answered but could not reach its database.`,
    items: [
      { label: "Service", value: status.service, tone: "neutral" },
      { label: "API version", value: status.api_version, tone: "neutral" },
      { label: "Database", value: status.database, tone: databaseOk ? "good" : "bad" },
    ],
  };
}

function describeError(error: unknown, apiUrl: string): StatusView {
  const chain = causeChain(error);
  const innermost = chain[chain.length - 1];
  const detail = innermost ? messageOf(innermost) : String(error);

  const timedOut = chain.some((e) => isRecord(e) && (e.name === "TimeoutError" || e.name === "AbortError"));
  const networkFailure = chain.some(
    (e) => isRecord(e) && ((typeof e.code === "string" && NETWORK_CODES.has(e.code)) || e.message === "fetch failed"),
  );
  if (timedOut || networkFailure) {
    return {
      state: "error",
      title: "API unreachable",
      summary: timedOut
        ? `The API's admin listener at ${apiUrl} did not answer in time.`
        : `The API's admin listener at ${apiUrl} could not be reached.`,
      detail,
    };
  }

  const httpStatus = chain.map(httpStatusOf).find((s) => s !== undefined);
  return {
    state: "error",
    title: "API error",
    summary: httpStatus
      ? `The API's admin listener at ${apiUrl} answered with an error (HTTP ${httpStatus}).`
      : `The status of the API at ${apiUrl} could not be read.`,
    detail,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** The error and its `cause`s, outermost first (bounded, in case of a cycle). */
function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 8 && !chain.includes(current)) {
    chain.push(current);
    current = isRecord(current) ? current.cause : undefined;
  }
  return chain;
}

function messageOf(error: unknown): string {
  if (isRecord(error) && typeof error.message === "string" && error.message !== "") {
    return typeof error.code === "string" && !error.message.includes(error.code)
      ? `${error.code}: ${error.message}`
      : error.message;
  }
  return String(error);
}

/** tRPC client errors carry the HTTP status of the answer in `data.httpStatus`. */
function httpStatusOf(error: unknown): number | undefined {
  if (!isRecord(error) || !isRecord(error.data)) return undefined;
  return typeof error.data.httpStatus === "number" ? error.data.httpStatus : undefined;
}
