import type { Database } from "../db/database";
import { answerStreamsOf } from "./answer-streams";
import { answerText } from "./answer-text";

/** An answer being generated, which has no stored message until it ends. */
export interface GeneratingAnswer {
  streamId: string;
  /** The assistant message it is stored as when it ends. */
  messageId: string;
  startedAt: Date;
  /** The last frame `content` covers: a resume after `<streamId>.<lastSeq>` continues exactly where it stops. */
  lastSeq: number;
  /** The answer text generated so far. */
  content: string;
}

interface GeneratingRow {
  id: string;
  messageId: string;
  createdAt: Date;
  frames: Array<{ seq: number; data: string }>;
}

/**
 * A conversation's answers being generated whose message is not stored yet, oldest first: from
 * this instance's memory where it generates them (the freshest frames, even those not written
 * yet), else as the database has them (one flush, 50 ms, behind the instance generating them).
 *
 * Read this before the stored messages, and drop an answer whose message the stored messages
 * hold: an answer that ends in between is then among those. Read after them, an answer ending in
 * between would be in neither (its message is stored before its status leaves `generating`).
 */
export async function generatingAnswers(db: Database, conversationId: string): Promise<GeneratingAnswer[]> {
  // A copy of the frames as they are now: the answer goes on while the database is asked.
  const local = (answerStreamsOf(db)?.generatingIn(conversationId) ?? []).map((answer) => ({
    answer,
    frames: answer.frames.slice(),
  }));
  const [written, stored] = await Promise.all([
    db.sql.query<GeneratingRow>(
      `SELECT a.id, a.message_id AS "messageId", a.created_at AS "createdAt",
              coalesce(json_agg(json_build_object('seq', f.seq, 'data', f.data) ORDER BY f.seq) FILTER (WHERE f.seq IS NOT NULL), '[]') AS frames
       FROM answer_streams a LEFT JOIN answer_stream_frames f ON f.stream_id = a.id
       WHERE a.conversation_id = $1 AND a.status = 'generating' AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = a.message_id)
       GROUP BY a.id`,
      [conversationId],
    ),
    // An answer of this instance is stored a moment before its status changes: not generating any more.
    local.length > 0
      ? db.sql.query<{ id: string }>("SELECT id FROM messages WHERE id = ANY($1::text[])", [
          local.map(({ answer }) => answer.identity?.messageId),
        ])
      : undefined,
  ]);
  const answers = new Map<string, GeneratingAnswer>();
  for (const row of written.rows) {
    answers.set(row.id, {
      streamId: row.id,
      messageId: row.messageId,
      startedAt: row.createdAt,
      lastSeq: row.frames.at(-1)?.seq ?? 0,
      content: answerText(row.frames),
    });
  }
  const ended = new Set(stored?.rows.map((row) => row.id));
  for (const { answer, frames } of local) {
    const messageId = answer.identity?.messageId as string;
    if (ended.has(messageId)) continue;
    answers.set(answer.id, {
      streamId: answer.id,
      messageId,
      startedAt: answers.get(answer.id)?.startedAt ?? answer.startedAt,
      lastSeq: frames.length,
      content: answerText(frames),
    });
  }
  return [...answers.values()].sort(
    (a, b) => a.startedAt.getTime() - b.startedAt.getTime() || (a.streamId < b.streamId ? -1 : 1),
  );
}
