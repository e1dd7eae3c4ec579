import type pg from "pg";
import type { RateLimiterPostgres } from "rate-limiter-flexible";

import type { AnswerStreams } from "../answers/answer-streams";
import type { ConversationStartWriter } from "../conversations/conversation-start-writer";
import type { KeyCache } from "../keys/key-cache";
import type { PendingKeyUses } from "../keys/key-usage";
import type { KeyBudgets } from "../rate-limits/key-budgets";
import type { UsageBuffer } from "../usage/usage-buffer";
import type { Sql } from "./database";

/**
 * What one process keeps beside the database it shares with other instances: its pool, caches,
 * buffers written in batches and in-memory limiters (docs/architecture.md, "Instances"). One per
 * `openDatabase`, reached as `db.instance`; a transaction's handle shares its opener's. Each area
 * fills its own field: those created on first use by the area's functions, those started by the
 * host (the key cache, the answer streams) by their `start…` function.
 *
 * Nothing here is the truth: whatever must hold across instances is in PostgreSQL, and each
 * field's area says how it stays true (the key cache by LISTEN, budgets by leases).
 */
export interface InstanceState {
  /** The pool `sql` draws on outside a transaction, and that withTransaction takes a connection of. */
  pool: pg.Pool | undefined;
  /** Wraps the SQL of each transaction's connection as openDatabase wrapped the pool's (query spans). */
  wrapSql: ((sql: Sql) => Sql) | undefined;
  /** Verified keys (keys/start-key-cache.ts); absent where no cache runs (the CLI, most tests). */
  keyCache: KeyCache | undefined;
  /** Rate-limit tokens leased for this window (rate-limits/key-budgets.ts). */
  rateLimitBudgets: KeyBudgets | undefined;
  /** Keys used since `last_used_at` was last written (keys/key-usage.ts). */
  keyUses: PendingKeyUses | undefined;
  /** New conversations waiting for their batched INSERT (conversations/conversation-start-writer.ts). */
  conversationStarts: ConversationStartWriter | undefined;
  /** Usage counters and request-log rows waiting for their flush (usage/usage-buffer.ts). */
  usage: UsageBuffer | undefined;
  /** The answers this instance generates, and their followers (answers/answer-streams.ts). */
  answerStreams: AnswerStreams | undefined;
  /** The sign-in throttles' limiters by surface and counter (sign-ins/sign-in-throttle.ts). */
  signInLimiters: Map<string, RateLimiterPostgres>;
}

export function newInstanceState(pool?: pg.Pool, wrapSql?: (sql: Sql) => Sql): InstanceState {
  return {
    pool,
    wrapSql,
    keyCache: undefined,
    rateLimitBudgets: undefined,
    keyUses: undefined,
    conversationStarts: undefined,
    usage: undefined,
    answerStreams: undefined,
    signInLimiters: new Map(),
  };
}
