import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { ConversationStart } from "../../src/conversations/append-messages";
import { writeConversationStart } from "../../src/conversations/conversation-start-writer";
import type { Database } from "../../src/db/database";
import { newId } from "../../src/ids/new-id";
import { createApiKey } from "../../src/keys/api-keys";
import { createOrganization } from "../../src/orgs/organizations";
import { createTestDatabase, type TestDatabase } from "../../src/testing/index";
import { recordStatements } from "../support/database-probes";

/**
 * sendMessage's early write of new streamed conversations: a burst goes to PostgreSQL in a few
 * statements, each start lands whole (conversation and first message), and a start the
 * database refuses fails alone, not the ones it was batched with.
 */
let t: TestDatabase;
let db: Database;
let statements: string[];
let org: { id: string };
let keyId: string;

beforeAll(async () => {
  t = await createTestDatabase();
  db = t.db;
  statements = recordStatements(db);
  org = await createOrganization(db, { name: "Burst Lending" });
  keyId = (await createApiKey(db, { organizationId: org.id, name: "k", scopes: ["chat:write"] })).key.id;
});
afterAll(() => t.drop());

function start(apiKeyId = keyId): ConversationStart {
  const id = newId("conv");
  return {
    apiKeyId,
    conversation: { id, organizationId: org.id, user: { external_user_id: `lo-${id}` }, title: "Burst" },
    messages: [
      {
        id: newId("msg"),
        role: "user",
        content: `question of ${id}`,
        metadata: { external_user_id: `lo-${id}` },
        createdAt: new Date(),
      },
    ],
  };
}

async function stored(starts: ConversationStart[]) {
  const { rows } = await t.db.sql.query<{ id: string; message_count: number; positions: number[]; contents: string[] }>(
    `SELECT c.id, c.message_count, array_agg(m.position ORDER BY m.position) AS positions, array_agg(m.content ORDER BY m.position) AS contents
     FROM conversations c JOIN messages m ON m.conversation_id = c.id WHERE c.id = ANY($1) GROUP BY c.id`,
    [starts.map((s) => s.conversation.id)],
  );
  return rows;
}

describe("conversation start writer", () => {
  it("writes a burst of 300 starts in a few statements, each conversation with its first message", async () => {
    const starts = Array.from({ length: 300 }, () => start());
    statements.length = 0;
    await Promise.all(starts.map((s) => writeConversationStart(db, s)));
    expect(statements.length).toBeLessThanOrEqual(4);
    const rows = await stored(starts);
    expect(rows).toHaveLength(300);
    for (const row of rows) {
      const original = starts.find((s) => s.conversation.id === row.id);
      expect(row).toMatchObject({ message_count: 1, positions: [1], contents: [original?.messages[0]?.content] });
    }
  });

  it("a lone start is written at once, in one statement", async () => {
    const one = start();
    statements.length = 0;
    await writeConversationStart(db, one);
    expect(statements).toHaveLength(1);
    expect(await stored([one])).toHaveLength(1);
  });

  it("a start the database refuses fails alone; the others of its batch are written", async () => {
    const starts = Array.from({ length: 40 }, () => start());
    const refused = start("key_that_does_not_exist");
    starts.splice(20, 0, refused);
    const results = await Promise.allSettled(starts.map((s) => writeConversationStart(db, s)));
    const failed = results.flatMap((result, index) =>
      result.status === "rejected" ? [starts[index]?.conversation.id] : [],
    );
    expect(failed).toEqual([refused.conversation.id]);
    const rows = await stored(starts);
    expect(rows.map((row) => row.id).sort()).toEqual(
      starts
        .filter((s) => s !== refused)
        .map((s) => s.conversation.id)
        .sort(),
    );
  });
});

describe("conversation start writer, behind a lock", () => {
  it("starts of one key waiting on a lock do not hold back another key's", async () => {
    const otherKeyId = (await createApiKey(db, { organizationId: org.id, name: "other", scopes: ["chat:write"] })).key
      .id;
    const locker = await t.db.lockPool.connect();
    try {
      // As an organization's deletion does: its keys' rows locked until it commits.
      await locker.query("BEGIN");
      await locker.query("SELECT id FROM api_keys WHERE id = $1 FOR UPDATE", [keyId]);
      const blocked = [start(), start()];
      const blockedWrites = blocked.map((s) => writeConversationStart(db, s));
      // Two statements under way, both waiting on the lock: every slot taken.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const free = start(otherKeyId);
      const started = Date.now();
      await writeConversationStart(db, free);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(await stored([free])).toHaveLength(1);
      await locker.query("COMMIT");
      await Promise.all(blockedWrites);
      expect(await stored(blocked)).toHaveLength(2);
    } finally {
      await locker.query("ROLLBACK").catch(() => {});
      locker.release();
    }
  });
});
