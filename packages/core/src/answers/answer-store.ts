import type { Database } from "../db/database";
import { prepared } from "../db/prepared";
import type { AnswerStreamStatus } from "./answer-values";
import type { AnswerFrame } from "./live-answer";

/** Notified (at commit) after frames are written: `<stream id>:<last seq>,…`. */
export const ANSWER_FRAMES_CHANNEL = "mga_answer_frames";
/** Notified when a cancel is asked for an answer another instance may be generating: `<stream id>`. */
export const ANSWER_CANCEL_CHANNEL = "mga_answer_cancel";

/** An answer's row as a flush writes it. Its keys are the flush statement's column names (it reads them as JSON). */
export interface AnswerStreamState {
  id: string;
  conversationId: string;
  messageId: string;
  requestId: string;
  status: AnswerStreamStatus;
  lastSeq: number;
  clientGone: boolean;
}

/** A frame as a flush writes it; its keys, too, are the flush statement's column names. */
export interface StoredFrame extends AnswerFrame {
  streamId: string;
}

/**
 * A flush renews an answer's lease only once less than this share of it is left. The lease is
 * indexed (the sweep of abandoned answers reads it), so rewriting it moves the row's index
 * entries; a flush that leaves it as it is changes no indexed column, and PostgreSQL updates
 * the row in place (a HOT update). An answer goes into every flush that carries a frame of it,
 * up to 20 a second for a fast stream: its lease is now rewritten once every few seconds instead.
 */
const RENEW_BELOW = 2 / 3;

/** One flush's statement (writeFrames). */
const flushFrames = prepared(
  "answer-frames-flush",
  `
WITH ours AS (
  INSERT INTO answer_streams AS a (id, conversation_id, message_id, request_id, status, owner, lease_expires_at, last_seq, client_gone, ended_at)
  SELECT r.id, r."conversationId", r."messageId", r."requestId", r.status, $1, now() + make_interval(secs => $2), r."lastSeq", r."clientGone",
         CASE WHEN r.status = 'generating' THEN NULL ELSE now() END
  FROM json_to_recordset($3::json)
       AS r(id text, "conversationId" text, "messageId" text, "requestId" text, status text, "lastSeq" int, "clientGone" bool)
  ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, last_seq = EXCLUDED.last_seq, client_gone = EXCLUDED.client_gone,
                                 lease_expires_at = CASE WHEN a.lease_expires_at < now() + make_interval(secs => $2::float8 * ${RENEW_BELOW})
                                                         THEN EXCLUDED.lease_expires_at ELSE a.lease_expires_at END,
                                 ended_at = EXCLUDED.ended_at
  WHERE a.owner = $1 AND a.status = 'generating'
  RETURNING a.id, a.last_seq
),
written AS (
  INSERT INTO answer_stream_frames (stream_id, seq, data)
  SELECT f."streamId", f.seq, f.data FROM json_to_recordset($4::json) AS f("streamId" text, seq int, data text)
  WHERE f."streamId" IN (SELECT id FROM ours)
  ON CONFLICT DO NOTHING
),
told AS (
  SELECT pg_notify('${ANSWER_FRAMES_CHANNEL}', string_agg(id || ':' || last_seq, ',')) FROM (SELECT id, last_seq, (row_number() OVER ()) / 200 AS part FROM ours) o GROUP BY part
)
SELECT id FROM ours, (SELECT count(*) FROM told) t`,
);

/**
 * One flush of the frame writer, in one statement (one round trip for every answer of the
 * instance): the answers' rows (created, or moved on, their lease renewed), their new frames,
 * and one notification per 200 answers so that followers on other instances read on. An answer
 * that is no longer this instance's (its lease ran out and another instance ended it) is not
 * moved on, and is missing from the ids returned: its generation stops.
 *
 * The rows go as two JSON texts, not as one array per column: pg writes an array parameter as
 * a literal built element by element (each escaped into a string of its own, then joined), and
 * under a burst of a thousand streams that was the largest allocation of their opening (about
 * 9 KiB a stream, promoted before it died). `JSON.stringify` writes each text in one pass, from
 * the objects as they are: the records' columns are named after their keys.
 */
export async function writeFrames(
  db: Database,
  input: { owner: string; leaseSeconds: number; streams: AnswerStreamState[]; frames: StoredFrame[] },
): Promise<Set<string>> {
  const { rows } = await db.sql.query<{ id: string }>(
    flushFrames([input.owner, input.leaseSeconds, JSON.stringify(input.streams), JSON.stringify(input.frames)]),
  );
  return new Set(rows.map((row) => row.id));
}

/** Which of `ids` are conversations still there. */
export async function existingConversations(db: Database, ids: string[]): Promise<Set<string>> {
  const { rows } = await db.sql.query<{ id: string }>("SELECT id FROM conversations WHERE id = ANY($1)", [ids]);
  return new Set(rows.map((row) => row.id));
}

export interface AnswerStreamRow {
  id: string;
  conversationId: string;
  messageId: string;
  status: AnswerStreamStatus;
  lastSeq: number;
  owner: string;
}

const STREAM_COLUMNS = `id, conversation_id AS "conversationId", message_id AS "messageId", status, last_seq AS "lastSeq", owner`;

export async function findAnswerStream(db: Database, streamId: string): Promise<AnswerStreamRow | undefined> {
  const { rows } = await db.sql.query<AnswerStreamRow>(`SELECT ${STREAM_COLUMNS} FROM answer_streams WHERE id = $1`, [
    streamId,
  ]);
  return rows[0];
}

/** The conversation's newest answer stream, if any is still kept. */
export async function latestAnswerStream(db: Database, conversationId: string): Promise<AnswerStreamRow | undefined> {
  const { rows } = await db.sql.query<AnswerStreamRow>(
    `SELECT ${STREAM_COLUMNS} FROM answer_streams WHERE conversation_id = $1 ORDER BY created_at DESC LIMIT 1`,
    [conversationId],
  );
  return rows[0];
}

/** Frames after `afterSeq`, in order, at most `limit`. */
export async function readFrames(
  db: Database,
  streamId: string,
  afterSeq: number,
  limit = 1000,
): Promise<AnswerFrame[]> {
  const { rows } = await db.sql.query<AnswerFrame>(
    "SELECT seq, data FROM answer_stream_frames WHERE stream_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
    [streamId, afterSeq, limit],
  );
  return rows;
}

/** Marks a generating answer's cancel and tells every instance (the one generating it stops it). */
export async function requestCancel(db: Database, streamId: string): Promise<boolean> {
  const { rowCount } = await db.sql.query(
    `WITH asked AS (UPDATE answer_streams SET cancel_requested_at = coalesce(cancel_requested_at, now()) WHERE id = $1 AND status = 'generating' RETURNING id)
     SELECT pg_notify('${ANSWER_CANCEL_CHANNEL}', id) FROM asked`,
    [streamId],
  );
  return rowCount === 1;
}

/** Answers that ended more than `hours` ago go, with their frames. */
export async function pruneAnswerStreams(db: Database, hours: number): Promise<number> {
  const { rowCount } = await db.sql.query(
    "DELETE FROM answer_streams WHERE ended_at < now() - make_interval(hours => $1)",
    [hours],
  );
  return rowCount ?? 0;
}
