import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { endAbandonedAnswers } from "../../src/answers/abandoned-answers";
import { AnswerStreams } from "../../src/answers/answer-streams";
import { insertConversationStarts } from "../../src/conversations/append-messages";
import { openDatabase, type Database } from "../../src/db/database";
import { createApiKey } from "../../src/keys/api-keys";
import { createOrganization } from "../../src/orgs/organizations";
import { createTestDatabase, type TestDatabase } from "../../src/testing/index";
import { recordStatements, statementText } from "../support/database-probes";

/**
 * Answer streams without HTTP: frames written in batches (one statement per flush for every
 * answer of the instance), followed from another instance's handle through LISTEN/NOTIFY, and
 * an answer whose instance stopped renewing its lease ended by another with a terminal frame.
 */
let t: TestDatabase;
let apiKeyId: string;
let organizationId: string;
beforeAll(async () => {
  t = await createTestDatabase();
  const org = await createOrganization(t.db, { name: "Streams Lending" });
  organizationId = org.id;
  apiKeyId = (await createApiKey(t.db, { organizationId, name: "streams", scopes: "chat:write" })).key.id;
});
afterAll(() => t.drop());

let conversations = 0;
async function conversation(): Promise<string> {
  const id = `conv_test${String((conversations += 1)).padStart(18, "0")}`;
  await insertConversationStarts(t.db, [
    { apiKeyId, conversation: { id, organizationId, user: { external_user_id: "lo-1" } }, messages: [] },
  ]);
  return id;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const frame = (i: number) => JSON.stringify({ type: "content", content: `part ${i}. ` });

describe("the frame writer", () => {
  it("writes 20 answers of 100 frames each in a handful of statements, every frame in order", async () => {
    const db = openDatabase(t.url, { secrets: t.db.secrets });
    const streams = new AnswerStreams(db, { flushMs: 50 });
    const statements = recordStatements(db);
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, async (_, n) => {
          const answer = streams.begin(`req_${n}`);
          answer.identity = { conversationId: await conversation(), messageId: `msg_${n}` };
          return answer;
        }),
      );
      statements.length = 0;
      const started = Date.now();
      // 100 frames each, 5 ms apart: a token stream of 20 answers at once.
      for (let i = 0; i < 100; i += 1) {
        for (const answer of answers) answer.push(frame(i), i === 99 ? "complete" : undefined);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      for (const answer of answers) await streams.written(answer);
      const elapsed = Date.now() - started;
      const writes = statements.filter((text) => text.includes("INSERT INTO answer_streams"));
      // 2,000 frames in one statement per 50 ms flush (and one for the ends), never one per frame.
      expect(writes.length).toBeLessThanOrEqual(Math.ceil(elapsed / 50) + 3);
      expect(writes.length).toBeLessThan(2_000 / 20);
      const { rows } = await t.db.sql.query<{ stream_id: string; n: number; seqs: number[] }>(
        "SELECT stream_id, count(*)::int AS n, array_agg(seq ORDER BY seq) AS seqs FROM answer_stream_frames WHERE stream_id = ANY($1) GROUP BY stream_id",
        [answers.map((answer) => answer.id)],
      );
      expect(rows).toHaveLength(20);
      for (const row of rows) expect(row.seqs).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
      const ended = await t.db.sql.query(
        "SELECT count(*)::int AS n FROM answer_streams WHERE id = ANY($1) AND status = 'complete' AND last_seq = 100",
        [answers.map((answer) => answer.id)],
      );
      expect(ended.rows[0].n).toBe(20);
    } finally {
      await streams.stop();
      await db.close();
    }
  });
});

describe("a flush the database refuses", () => {
  it("is written by a later flush with what came since: every frame once and in order", async () => {
    const db = openDatabase(t.url, { secrets: t.db.secrets });
    const streams = new AnswerStreams(db, { flushMs: 20 });
    const sql = db.sql;
    let refused = 0;
    // The first two flushes fail as a lost connection would; the frames keep coming meanwhile.
    db.sql = {
      query: ((query: string | { text: string }, params?: unknown[]) => {
        if (statementText(query).includes("INSERT INTO answer_streams") && refused < 2) {
          refused += 1;
          return Promise.reject(new Error("Connection terminated unexpectedly"));
        }
        return sql.query(query as string, params);
      }) as Database["sql"]["query"],
    };
    try {
      const answer = streams.begin("req_refused");
      answer.identity = { conversationId: await conversation(), messageId: "msg_refused" };
      for (let i = 0; i < 30; i += 1) {
        answer.push(frame(i), i === 29 ? "complete" : undefined);
        await sleep(10);
      }
      await streams.written(answer);
      expect(refused).toBe(2);
      const { rows } = await t.db.sql.query<{ seq: number; data: string }>(
        "SELECT seq, data FROM answer_stream_frames WHERE stream_id = $1 ORDER BY seq",
        [answer.id],
      );
      expect(rows.map((row) => row.seq)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      expect(rows.map((row) => row.data)).toEqual(Array.from({ length: 30 }, (_, i) => frame(i)));
      const stored = await t.db.sql.query("SELECT status, last_seq FROM answer_streams WHERE id = $1", [answer.id]);
      expect(stored.rows[0]).toEqual({ status: "complete", last_seq: 30 });
    } finally {
      await streams.stop();
      await db.close();
    }
  });
});

describe("an answer whose conversation is deleted while it is generated", () => {
  it("stops, and the other answers of the instance are written as before", async () => {
    const db = openDatabase(t.url, { secrets: t.db.secrets });
    const streams = new AnswerStreams(db, { flushMs: 10 });
    try {
      const [kept, orphan, early] = await Promise.all(
        ["req_kept", "req_orphan", "req_early"].map(async (requestId) => {
          const answer = streams.begin(requestId);
          answer.identity = { conversationId: await conversation(), messageId: `msg_${requestId}` };
          return answer;
        }),
      );
      for (const answer of [kept!, orphan!]) answer.push(frame(0));
      await streams.flush();
      // One conversation goes after its answer's row was written, one before (its key or
      // organization deleted): the next flush's upsert inserts their rows anew, which the
      // foreign key to conversations refuses, for the whole statement.
      await t.db.sql.query("DELETE FROM conversations WHERE id = ANY($1)", [
        [orphan!.identity!.conversationId, early!.identity!.conversationId],
      ]);
      for (const answer of [kept!, orphan!, early!]) answer.push(frame(1));
      kept!.push(frame(2), "complete");
      const started = Date.now();
      await streams.written(kept!);
      const { rows } = await t.db.sql.query("SELECT status, last_seq FROM answer_streams WHERE id = $1", [kept!.id]);
      expect(rows).toEqual([{ status: "complete", last_seq: 3 }]);
      // The orphan's stream is not held waiting for writes that cannot happen.
      await streams.written(orphan!);
      expect(Date.now() - started).toBeLessThan(2_000);
      for (const answer of [orphan!, early!]) expect(answer.abort.signal.reason).toBe("conversation deleted");
      const left = await t.db.sql.query("SELECT count(*)::int AS n FROM answer_streams WHERE id = ANY($1)", [
        [orphan!.id, early!.id],
      ]);
      expect(left.rows[0].n).toBe(0);
      // Nothing more of them is queued: a later flush writes the others with no refusal.
      const next = streams.begin("req_next");
      next.identity = { conversationId: await conversation(), messageId: "msg_next" };
      orphan!.push(frame(3), "failed");
      next.push(frame(0), "complete");
      await streams.written(next);
      expect((await t.db.sql.query("SELECT last_seq FROM answer_streams WHERE id = $1", [next.id])).rows).toEqual([
        { last_seq: 1 },
      ]);
    } finally {
      await streams.stop();
      await db.close();
    }
  });
});

describe("following from another instance", () => {
  it("reads what is written and follows new frames as they are notified, to the terminal frame", async () => {
    const [a, b] = [openDatabase(t.url, { secrets: t.db.secrets }), openDatabase(t.url, { secrets: t.db.secrets })];
    const here = new AnswerStreams(a, { flushMs: 20 });
    const elsewhere = new AnswerStreams(b, { flushMs: 20, pollMs: 60_000 });
    await Promise.all([here.start(t.url), elsewhere.start(t.url)]);
    try {
      const answer = here.begin("req_follow");
      answer.identity = { conversationId: await conversation(), messageId: "msg_follow" };
      for (let i = 0; i < 3; i += 1) answer.push(frame(i));
      await here.flush();
      const seen: number[] = [];
      // No poll for a minute: only the notifications can bring the later frames.
      const followed = elsewhere.follow(answer.id, 1, (f) => seen.push(f.seq), new AbortController().signal);
      for (let i = 3; i < 8; i += 1) {
        answer.push(frame(i));
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
      answer.push(JSON.stringify({ type: "public_api_complete" }), "complete");
      await expect(followed).resolves.toBe(true);
      expect(seen).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    } finally {
      await Promise.all([here.stop(), elsewhere.stop()]);
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe("lease renewal", () => {
  it("is left as it is by a flush while more than two thirds of it remain, and renewed by the first one after", async () => {
    const db = openDatabase(t.url, { secrets: t.db.secrets });
    // No renewal passes during the test (start() is not called): only the flushes write the lease.
    const streams = new AnswerStreams(db, { flushMs: 10, leaseSeconds: 3 });
    const lease = async (id: string) =>
      (
        await t.db.sql.query<{ at: Date }>("SELECT lease_expires_at AS at FROM answer_streams WHERE id = $1", [id])
      ).rows[0]?.at.getTime();
    const answer = streams.begin("req_lease");
    try {
      answer.identity = { conversationId: await conversation(), messageId: "msg_lease" };
      answer.push(frame(0));
      await streams.flush();
      const first = await lease(answer.id);
      answer.push(frame(1));
      await streams.flush();
      // The second flush wrote its frame and moved the answer on, not its lease (an in-place update).
      expect(await lease(answer.id)).toBe(first);
      await sleep(1_200);
      answer.push(frame(2));
      await streams.flush();
      expect(await lease(answer.id)).toBeGreaterThan((first ?? 0) + 1_000);
      const row = await t.db.sql.query("SELECT last_seq FROM answer_streams WHERE id = $1", [answer.id]);
      expect(row.rows).toEqual([{ last_seq: 3 }]);
    } finally {
      // Ended, so that no sweep of a later test finds it abandoned.
      answer.push(frame(3), "complete");
      await streams.written(answer);
      await streams.stop();
      await db.close();
    }
  });

  it("never takes an answer whose first write is still under way for one whose lease was lost", async () => {
    const db = openDatabase(t.url, { secrets: t.db.secrets });
    const pool = db.sql;
    // A busy database: each write of the answers' rows takes 1.5 s, across a renewal (every 1 s).
    db.sql = {
      query: (async (text: string | { text: string }, params?: unknown[]) => {
        if (statementText(text).includes("INSERT INTO answer_streams")) await sleep(1_500);
        return pool.query(text as string, params);
      }) as Database["sql"]["query"],
    };
    const streams = new AnswerStreams(db, { flushMs: 10, leaseSeconds: 3, sweepMs: 60_000 });
    await streams.start(t.url);
    try {
      const answer = streams.begin("req_slow_write");
      answer.identity = { conversationId: await conversation(), messageId: "msg_slow_write" };
      answer.push(frame(0));
      await sleep(2_500);
      expect(answer.abort.signal.aborted).toBe(false);
      answer.push(frame(1), "complete");
      await streams.written(answer);
      const stored = await t.db.sql.query("SELECT status, last_seq FROM answer_streams WHERE id = $1", [answer.id]);
      expect(stored.rows).toEqual([{ status: "complete", last_seq: 2 }]);
    } finally {
      await streams.stop();
      await db.close();
    }
  });
});

describe("an answer whose instance stopped", () => {
  it("is ended by any instance once its lease ran out: a terminal error frame, failed, and stored as incomplete with what it had", async () => {
    const db: Database = openDatabase(t.url, { secrets: t.db.secrets });
    const dead = new AnswerStreams(db, { flushMs: 10, leaseSeconds: 1 });
    try {
      const conversationId = await conversation();
      const answer = dead.begin("req_dead");
      answer.identity = { conversationId, messageId: "msg_dead0000000000000000" };
      answer.push(frame(0));
      answer.push(frame(1));
      await dead.flush();
      // The instance is gone: no renewal, no end. A sweep before the lease runs out leaves it be.
      expect(await endAbandonedAnswers(t.db)).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      expect(await endAbandonedAnswers(t.db)).toBe(1);
      expect(await endAbandonedAnswers(t.db)).toBe(0);
      const stream = await t.db.sql.query("SELECT status, last_seq FROM answer_streams WHERE id = $1", [answer.id]);
      expect(stream.rows).toEqual([{ status: "failed", last_seq: 3 }]);
      const last = await t.db.sql.query("SELECT data FROM answer_stream_frames WHERE stream_id = $1 AND seq = 3", [
        answer.id,
      ]);
      expect(JSON.parse(last.rows[0].data)).toMatchObject({
        type: "error",
        status: 502,
        error: { code: "upstream_error", request_id: "req_dead" },
      });
      const stored = await t.db.sql.query(
        "SELECT id, status, content, position FROM messages WHERE conversation_id = $1",
        [conversationId],
      );
      expect(stored.rows).toEqual([
        { id: "msg_dead0000000000000000", status: "incomplete", content: "part 0. part 1. ", position: 1 },
      ]);
    } finally {
      await db.close();
    }
  });
});
