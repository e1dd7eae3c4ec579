import type { Database } from "../db/database";
import { withTransaction } from "../db/transaction";
import { ANSWER_FRAMES_CHANNEL } from "./answer-store";
import { answerText } from "./answer-text";

/**
 * The terminal frame of an answer whose instance died (the spec's `error` frame, status 502):
 * written by whichever instance finds its lease run out, so that every resume ends, never hangs.
 */
function interruptedFrame(requestId: string): string {
  return JSON.stringify({
    type: "error",
    status: 502,
    error: {
      code: "upstream_error",
      message: "the answer was interrupted: the server generating it stopped; ask again",
      request_id: requestId,
    },
  });
}

/**
 * Ends the answers whose generating instance is gone (its lease ran out: killed, or cut off
 * from the database): each gets its terminal error frame, is marked failed, and is stored as an
 * incomplete answer with what its frames carried (unless its message was stored before the
 * instance died). Any instance runs it; SKIP LOCKED keeps two from ending one answer twice.
 */
export async function endAbandonedAnswers(db: Database, limit = 50): Promise<number> {
  return withTransaction(db, async (tx) => {
    const { rows } = await tx.sql.query<{
      id: string;
      conversationId: string;
      messageId: string;
      requestId: string;
      seq: number;
    }>(
      `WITH lost AS (
         SELECT id FROM answer_streams WHERE status = 'generating' AND lease_expires_at < now()
         ORDER BY lease_expires_at LIMIT $1 FOR UPDATE SKIP LOCKED
       )
       UPDATE answer_streams a SET status = 'failed', last_seq = a.last_seq + 1, ended_at = now() FROM lost WHERE a.id = lost.id
       RETURNING a.id, a.conversation_id AS "conversationId", a.message_id AS "messageId", a.request_id AS "requestId", a.last_seq AS seq`,
      [limit],
    );
    for (const answer of rows) {
      const frames = await tx.sql.query<{ data: string }>(
        "SELECT data FROM answer_stream_frames WHERE stream_id = $1 ORDER BY seq",
        [answer.id],
      );
      await tx.sql.query(
        "INSERT INTO answer_stream_frames (stream_id, seq, data) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        [answer.id, answer.seq, interruptedFrame(answer.requestId)],
      );
      await tx.sql.query(
        `WITH c AS (
           UPDATE conversations SET message_count = message_count + 1, updated_at = now()
           WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM messages WHERE id = $2)
           RETURNING id, message_count AS position
         )
         INSERT INTO messages (id, conversation_id, position, role, content, citations, sources, metadata, status, created_at)
         SELECT $2, c.id, c.position, 'assistant', $3, '[]', '[]', $4, 'incomplete', now() FROM c`,
        [
          answer.conversationId,
          answer.messageId,
          answerText(frames.rows),
          JSON.stringify({ tokens_used: 0, incomplete: true, error_code: "interrupted" }),
        ],
      );
      await tx.sql.query(`SELECT pg_notify('${ANSWER_FRAMES_CHANNEL}', $1)`, [`${answer.id}:${answer.seq}`]);
    }
    return rows.length;
  });
}
