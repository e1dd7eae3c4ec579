import type { Database } from "../db/database";
import { insertConversationStarts, type ConversationStart } from "./append-messages";

/** Starts written in one statement at most. */
const MAX_BATCH = 200;
/** Statements of starts under way at once per instance: what arrives meanwhile waits, and goes in the next one together. */
const MAX_IN_FLIGHT = 2;
/**
 * A statement still under way after this stops counting against MAX_IN_FLIGHT: one that waits
 * on a lock (an organization's deletion holding its keys' rows) must not hold back the starts
 * of every other organization behind it.
 */
const STALLED_AFTER_MS = 250;

interface Pending {
  start: ConversationStart;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * One instance's writes of new streamed conversations (sendMessage's early write). Alone, a
 * start is written at once, as one statement; in a burst, those that arrive while earlier
 * statements are under way go together in the next, so a thousand streams opened at once cost
 * a few statements, not a thousand (the pool and PostgreSQL stop being the queue before the
 * first frames).
 */
export class ConversationStartWriter {
  private queue: Pending[] = [];
  private inFlight = 0;

  constructor(private readonly db: Database) {}

  write(start: ConversationStart): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ start, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < MAX_IN_FLIGHT && this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      this.inFlight += 1;
      let counted = true;
      const release = () => {
        if (!counted) return;
        counted = false;
        clearTimeout(stalled);
        this.inFlight -= 1;
        this.pump();
      };
      const stalled = setTimeout(release, STALLED_AFTER_MS);
      stalled.unref();
      void this.flush(batch).finally(release);
    }
  }

  private async flush(batch: Pending[]): Promise<void> {
    try {
      await insertConversationStarts(
        this.db,
        batch.map((pending) => pending.start),
      );
      for (const pending of batch) pending.resolve();
    } catch (error) {
      if (batch.length === 1) return batch[0]?.reject(error);
      // One start the database refuses must not fail the others: each is written alone.
      await Promise.all(
        batch.map((pending) =>
          insertConversationStarts(this.db, [pending.start]).then(pending.resolve, pending.reject),
        ),
      );
    }
  }
}

/** Creates a conversation with its first messages, batched with the instance's other starts (a transaction's writes go straight into it). */
export function writeConversationStart(db: Database, start: ConversationStart): Promise<void> {
  if (db.transaction) return insertConversationStarts(db, [start]);
  return (db.instance.conversationStarts ??= new ConversationStartWriter(db)).write(start);
}
