import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  pruneAnswerStreams,
  writeFrames,
  type AnswerStreamState,
  type StoredFrame,
} from "../../src/answers/answer-store";
import { insertConversationStarts } from "../../src/conversations/append-messages";
import { withTransaction } from "../../src/db/transaction";
import { newId } from "../../src/ids/new-id";
import { createApiKey } from "../../src/keys/api-keys";
import { createOrganization } from "../../src/orgs/organizations";
import { createTestDatabase, type TestDatabase } from "../../src/testing/index";
import { recordingDatabase } from "../support/database-probes";

/**
 * What the frame writer's one statement costs the database, and how long frames live: they have
 * no foreign key to their answer (one check per frame was a third of a flush), so they must still
 * go with it whatever deletes it.
 */
let t: TestDatabase;
let apiKeyId: string;
let organizationId: string;
const OWNER = "host:1:test";
beforeAll(async () => {
  t = await createTestDatabase();
  organizationId = (await createOrganization(t.db, { name: "Store Lending" })).id;
  apiKeyId = (await createApiKey(t.db, { organizationId, name: "store", scopes: "chat:write" })).key.id;
});
afterAll(() => t.drop());

/** `count` new conversations, each with one answer being generated (not written yet). */
async function answers(count: number): Promise<AnswerStreamState[]> {
  const states = Array.from({ length: count }, () => ({
    id: newId("ans"),
    conversationId: newId("conv"),
    messageId: newId("msg"),
    requestId: newId("req"),
    status: "generating" as const,
    lastSeq: 0,
    clientGone: false,
  }));
  await insertConversationStarts(
    t.db,
    states.map((s) => ({
      apiKeyId,
      conversation: { id: s.conversationId, organizationId, user: { external_user_id: "lo-1" } },
      messages: [],
    })),
  );
  return states;
}

/** One flush: each answer moved on to `seqs`' last frame, with those frames. */
function flush(states: AnswerStreamState[], seqs: number[], status: AnswerStreamState["status"] = "generating") {
  const streams = states.map((s) => ({ ...s, status, lastSeq: seqs.at(-1) ?? s.lastSeq }));
  const frames: StoredFrame[] = states.flatMap((s) =>
    seqs.map((seq) => ({ streamId: s.id, seq, data: JSON.stringify({ type: "content", content: `part ${seq}. ` }) })),
  );
  return { owner: OWNER, leaseSeconds: 60, streams, frames };
}

const framesOf = async (ids: string[]) =>
  (
    await t.db.sql.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM answer_stream_frames WHERE stream_id = ANY($1)",
      [ids],
    )
  ).rows[0]?.n;

describe("a flush", () => {
  it("checks no key for the frames it writes, only its answers' one to their conversation", async () => {
    const recorder = recordingDatabase(t.url, t.db.secrets);
    try {
      // A flush's statement (new answers, two frames each), recorded, undone, then run again under EXPLAIN ANALYZE.
      const next = await answers(50);
      await writeFrames(recorder.db, flush(next, [1, 2]));
      const statement = recorder.queries.at(-1)!;
      await t.db.sql.query("DELETE FROM answer_streams WHERE id = ANY($1)", [next.map((s) => s.id)]);
      const triggers = await withTransaction(t.db, async (tx) => {
        const { rows } = await tx.sql.query<{
          "QUERY PLAN": [{ Triggers?: Array<{ Relation: string; Calls: number }> }];
        }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`, statement.values);
        return rows[0]!["QUERY PLAN"][0].Triggers ?? [];
      });
      // Before 20261128022749_answer_frames_without_foreign_key: 100 checks on answer_stream_frames as well.
      expect(triggers.map(({ Relation, Calls }) => [Relation, Calls])).toEqual([["answer_streams", 50]]);
      expect(await framesOf(next.map((s) => s.id))).toBe(100);
    } finally {
      await recorder.db.close();
    }
  });

  it("updates its answers' rows on their own pages (HOT: no index entry written)", async () => {
    const states = await answers(120);
    await writeFrames(t.db, flush(states, [1, 2]));
    const blocks = async () =>
      (
        await t.db.sql.query<{ id: string; block: string }>(
          "SELECT id, (ctid::text::point)[0]::text AS block FROM answer_streams WHERE id = ANY($1) ORDER BY id",
          [states.map((s) => s.id)],
        )
      ).rows;
    const before = await blocks();
    // Each flush moves every answer on by a frame and leaves its lease: no indexed column changes.
    for (const seq of [3, 4]) await writeFrames(t.db, flush(states, [seq]));
    const after = await blocks();
    // At fillfactor 70 (before 20261128022749_answer_frames_without_foreign_key) the new versions
    // of most rows went to other pages, each with new entries in the table's four indexes.
    expect(after).toEqual(before);
    const { rows } = await t.db.sql.query("SELECT DISTINCT last_seq FROM answer_streams WHERE id = ANY($1)", [
      states.map((s) => s.id),
    ]);
    expect(rows).toEqual([{ last_seq: 4 }]);
  });
});

describe("an answer's frames", () => {
  it("are stored byte for byte, whatever their text holds (the flush sends them as JSON)", async () => {
    const [state] = await answers(1);
    const texts = [
      'quotes " and \\" and backslashes \\ \\\\',
      "lines\nand\ttabs\r, braces {} [] and commas ,",
      "accents é, CJK 住宅, an emoji 🏠",
      // Escaped by the frame's own JSON (PostgreSQL's text holds neither): what a partner's content may carry.
      "a NUL \u0000 and a lone surrogate \ud800",
    ];
    const frames = texts.map((content, index) => ({
      streamId: state!.id,
      seq: index + 1,
      data: JSON.stringify({ type: "content", content }),
    }));
    await writeFrames(t.db, {
      owner: OWNER,
      leaseSeconds: 60,
      streams: [{ ...state!, lastSeq: frames.length }],
      frames,
    });
    const { rows } = await t.db.sql.query<{ seq: number; data: string }>(
      "SELECT seq, data FROM answer_stream_frames WHERE stream_id = $1 ORDER BY seq",
      [state!.id],
    );
    expect(rows).toEqual(frames.map(({ seq, data }) => ({ seq, data })));
    expect(rows.map((row) => (JSON.parse(row.data) as { content: string }).content)).toEqual(texts);
  });

  it("go with the answers the prune deletes, and only with them", async () => {
    const [ended, generating] = [await answers(3), await answers(2)];
    await writeFrames(t.db, flush(ended, [1, 2], "complete"));
    await writeFrames(t.db, flush(generating, [1, 2]));
    await t.db.sql.query("UPDATE answer_streams SET ended_at = now() - interval '2 hours' WHERE id = ANY($1)", [
      ended.map((s) => s.id),
    ]);
    expect(await pruneAnswerStreams(t.db, 1)).toBeGreaterThanOrEqual(3);
    expect(await framesOf(ended.map((s) => s.id))).toBe(0);
    expect(await framesOf(generating.map((s) => s.id))).toBe(4);
  });

  it("go with the answers a deleted conversation takes with it (the key's cascade)", async () => {
    const [gone, kept] = [await answers(2), await answers(1)];
    await writeFrames(t.db, flush([...gone, ...kept], [1, 2, 3]));
    await t.db.sql.query("DELETE FROM conversations WHERE id = ANY($1)", [gone.map((s) => s.conversationId)]);
    expect(await framesOf(gone.map((s) => s.id))).toBe(0);
    expect(await framesOf(kept.map((s) => s.id))).toBe(3);
  });

  it("written by a flush while their answer is being deleted are deleted too, once the flush commits", async () => {
    const [state] = await answers(1);
    await writeFrames(t.db, flush([state!], [1]));
    // The flush holds the answer's row (it updates it) until it commits; the delete waits for it.
    await withTransaction(t.db, async (tx) => {
      await writeFrames(tx, flush([state!], [2, 3]));
      const deleting = t.db.sql.query("DELETE FROM conversations WHERE id = $1", [state!.conversationId]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await framesOf([state!.id])).toBe(1); // the delete has not gone through
      return { deleting };
    }).then(({ deleting }) => deleting);
    expect(await framesOf([state!.id])).toBe(0);
  });
});
