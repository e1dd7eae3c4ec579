import type { UpstreamFailure } from "../conversations/upstream/chat-upstream";
import type { Sql } from "../db/database";
import type { RateLimitPolicy } from "../rate-limits/rate-limit";

/** How an upstream answer ended: completed, or the reason it failed. */
export type UpstreamOutcome = "completed" | UpstreamFailure;

/**
 * What the host (apps/server) learns of core's work for its metrics and traces. Core names no
 * metrics library and no tracer: the host injects one object (NO_OBSERVER where nobody looks),
 * and each call sits on a hot path, so an implementation does a counter increment or starts a
 * span, nothing that waits.
 */
export interface Observer {
  /** A presented key was answered from this instance's key cache (hit) or needed the database (miss). */
  keyCacheLookup(hit: boolean): void;
  /** A request (or hosted-chat answer) was refused by a rate limit. */
  rateLimitRefused(policy: RateLimitPolicy): void;
  /** An event stream's headers went out; the returned function is called once when it closes. */
  sseStreamOpened(): () => void;
  /** An upstream chat call begins; the returned function is called once with how it ended. */
  upstreamCall(): (outcome: UpstreamOutcome) => void;
  /** Runs one job of `queue` (the host may time it, count a failure, open a span around it); rethrows its error. */
  runJob<T>(queue: string, work: () => Promise<T>): Promise<T>;
  /**
   * The SQL every domain function runs through (the pool, and each transaction's connection):
   * the host may wrap it (a span per query); undefined leaves it as it is, at no cost.
   */
  wrapSql?: ((sql: Sql) => Sql) | undefined;
}

const done = () => {};

/** Observes nothing (the CLI, tests that do not look, and the default everywhere). */
export const NO_OBSERVER: Observer = {
  keyCacheLookup: done,
  rateLimitRefused: done,
  sseStreamOpened: () => done,
  upstreamCall: () => done,
  runJob: (_queue, work) => work(),
};
