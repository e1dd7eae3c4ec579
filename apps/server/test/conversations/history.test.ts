import { describe, expect, it } from "vitest";

import { listMessagesOutput } from "@mga/api";
import { createApiKey } from "@mga/core/keys";

import { ACME_TENANT } from "../support/tenants";
import { expectEnvelope } from "../support/test-app";
import type { UntypedJson } from "../support/untyped-json";
import { answer, readSse, upstreamAnswers, useAppWithMockedUpstream } from "../support/upstream-mock";

/**
 * GET /v1/conversations/{id}/messages with paging (issue 23): by position, in both orders,
 * stable while messages are added; signed cursors bound to the conversation and the order; the
 * unpaged answer as it always was; and an answer still being generated shown as such, read on
 * the instance generating it and on another one (from the database).
 */
const setup = useAppWithMockedUpstream({ secondInstance: true });

const json = { "Content-Type": "application/json" };
const user = { external_user_id: "lo-25" };
type Message = { message_id: string; role: string; content: string; metadata: Record<string, unknown> };

const history = (key: string, conversationId: string, query = "", base = setup.app) =>
  base.request(`/v1/conversations/${conversationId}/messages${query}`, { key });

/** A conversation of `exchanges` questions and answers (2 × exchanges stored messages), numbered in its text. */
async function conversationOf(key: string, exchanges: number): Promise<string> {
  let conversationId: string | undefined;
  for (let i = 1; i <= exchanges; i += 1) {
    upstreamAnswers(answer(`answer ${i}`));
    const path = conversationId ? `/v1/conversations/${conversationId}/messages` : "/v1/messages";
    const res = await setup.app.request(path, {
      method: "POST",
      key,
      headers: json,
      body: JSON.stringify({ message: `question ${i}`, user }),
    });
    expect(res.status, res.text).toBe(200);
    conversationId = res.body.conversation_id as string;
  }
  return conversationId as string;
}

async function ask(key: string, conversationId: string, text: string) {
  upstreamAnswers(answer(`answer to ${text}`));
  const res = await setup.app.request(`/v1/conversations/${conversationId}/messages`, {
    method: "POST",
    key,
    headers: json,
    body: JSON.stringify({ message: text, user }),
  });
  expect(res.status, res.text).toBe(200);
}

/** Every page from the first, following next_cursor; `between` runs after each page. */
async function walk(key: string, conversationId: string, query: string, between?: (page: number) => Promise<void>) {
  const pages: Message[][] = [];
  let cursor: string | null = null;
  do {
    const res = await history(key, conversationId, `?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(res.status, res.text).toBe(200);
    listMessagesOutput.parse(res.body);
    expect(Object.keys(res.body).sort()).toEqual(["conversation_id", "messages", "next_cursor", "request_id"]);
    pages.push(res.body.messages);
    cursor = res.body.next_cursor as string | null;
    await between?.(pages.length);
    expect(pages.length).toBeLessThan(100);
  } while (cursor !== null);
  return pages;
}

const contents = (messages: Message[]) => messages.map((message) => message.content);

/** An upstream answer of `fragments` content frames, 60 ms apart. */
function pacedAnswer(fragments: number) {
  const steps = Array.from({ length: fragments }, (_, i) => [
    { event: { type: "content", content: `part ${i}. ` } },
    { wait: 60 },
  ]).flat();
  const text = Array.from({ length: fragments }, (_, i) => `part ${i}. `).join("");
  return { text, steps: [...steps, { event: { type: "complete", metadata: { tokens_used: 9 } } }] };
}

describe("GET /v1/conversations/{conversationId}/messages", () => {
  describe("happy", () => {
    it("without limit or cursor: every message oldest first, in exactly today's shape", async () => {
      const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
      const conversationId = await conversationOf(key, 3);
      const res = await history(key, conversationId);
      expect(res.status).toBe(200);
      listMessagesOutput.parse(res.body);
      expect(Object.keys(res.body).sort()).toEqual(["conversation_id", "messages", "request_id"]);
      expect(contents(res.body.messages)).toEqual([
        "question 1",
        "answer 1",
        "question 2",
        "answer 2",
        "question 3",
        "answer 3",
      ]);
      expect(res.body.messages.map((message: Message) => message.role)).toEqual([
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
        "assistant",
      ]);
      expect(res.body.messages[1].metadata).toEqual({ tokens_used: 42 });
      // The stored rows, in position order: nothing added, nothing left out.
      const stored = await setup.app.t.db.sql.query(
        "SELECT id FROM messages WHERE conversation_id = $1 ORDER BY position",
        [conversationId],
      );
      expect(res.body.messages.map((message: Message) => message.message_id)).toEqual(stored.rows.map((row) => row.id));

      // The order alone does not page either: the whole history newest first.
      const newestFirst = await history(key, conversationId, "?order=desc");
      expect(Object.keys(newestFirst.body).sort()).toEqual(["conversation_id", "messages", "request_id"]);
      expect(newestFirst.body.messages).toEqual([...res.body.messages].reverse());
    });

    it(
      "25 messages and more, forward and backward, at several page sizes: every message exactly once, in order",
      { timeout: 60_000 },
      async () => {
        const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
        const conversationId = await conversationOf(key, 13);
        const all = (await history(key, conversationId)).body.messages as Message[];
        expect(all).toHaveLength(26);
        for (const limit of [1, 4, 7, 25, 26, 100]) {
          const forward = await walk(key, conversationId, `limit=${limit}`);
          expect(
            forward.every((page) => page.length <= limit && page.length > 0),
            `limit ${limit}`,
          ).toBe(true);
          expect(forward.flat(), `limit ${limit}, oldest first`).toEqual(all);
          expect(forward).toHaveLength(Math.max(1, Math.ceil(26 / limit)));
          const backward = await walk(key, conversationId, `limit=${limit}&order=desc`);
          expect(backward.flat(), `limit ${limit}, newest first`).toEqual([...all].reverse());
        }
        // `order=asc` is the default, spelled out or not.
        expect((await walk(key, conversationId, "limit=10&order=asc")).flat()).toEqual(all);
      },
    );

    it("messages added while a client pages: oldest first they come at the end; newest first no page shifts", async () => {
      const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
      const conversationId = await conversationOf(key, 5);
      const before = contents((await history(key, conversationId)).body.messages);

      const forward = await walk(key, conversationId, "limit=3", async (page) => {
        if (page === 1) await ask(key, conversationId, "asked while paging forward");
      });
      expect(contents(forward.flat())).toEqual([
        ...before,
        "asked while paging forward",
        "answer to asked while paging forward",
      ]);

      const now = contents((await history(key, conversationId)).body.messages);
      const backward = await walk(key, conversationId, "limit=3&order=desc", async (page) => {
        if (page === 1) await ask(key, conversationId, "asked while paging backward");
      });
      // Newer than the first page: for the next walk's first page, never repeated or shifted into this one.
      expect(contents(backward.flat())).toEqual([...now].reverse());
    });

    it(
      "shows as an assistant message with what it said so far, generating, where it is resumed; stored, it shows as usual",
      { timeout: 30_000 },
      async () => {
        const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
        const conversationId = await conversationOf(key, 2);
        // Oldest first, the page after this one is the last: it will end with the answer.
        const beforeLastPage = (await history(key, conversationId, "?limit=3")).body.next_cursor as string;
        const paced = pacedAnswer(25);
        upstreamAnswers(paced.steps);
        const res = await fetch(`${setup.app.baseUrl}/v1/conversations/${conversationId}/messages`, {
          method: "POST",
          headers: { Authorization: `Bearer ${key}`, ...json },
          body: JSON.stringify({ message: "Tell me in parts", user, stream: true }),
        });
        expect(res.status).toBe(200);

        const seen: Array<{ frame: UntypedJson; id: string | undefined }> = [];
        let reads: Record<string, UntypedJson> | undefined;
        const streamed = readSse(res, (frame, id) => {
          seen.push({ frame, id });
          // Mid-answer: read the history on this instance and on the other one (which has the frames from the database).
          if (seen.length === 8) {
            reads = {};
            void (async () => {
              const pending = {
                here: history(key, conversationId),
                elsewhere: history(key, conversationId, "", setup.second),
                newestPage: history(key, conversationId, "?limit=1&order=desc"),
                lastPage: history(key, conversationId, `?limit=3&cursor=${encodeURIComponent(beforeLastPage)}`),
              };
              for (const [name, request] of Object.entries(pending))
                (reads as Record<string, UntypedJson>)[name] = await request;
            })();
          }
        });
        await streamed;
        const ended = seen.at(-1)?.frame;
        expect(ended?.type).toBe("public_api_complete");
        const messageId = ended?.message_id as string;
        await expect.poll(() => reads && Object.keys(reads).length, { timeout: 5_000 }).toBe(4);
        const { here, elsewhere, newestPage, lastPage } = reads as Record<string, UntypedJson>;

        for (const [where, read] of Object.entries({ here, elsewhere })) {
          expect(read.status, where).toBe(200);
          listMessagesOutput.parse(read.body);
          expect(Object.keys(read.body).sort(), where).toEqual(["conversation_id", "messages", "request_id"]);
          const messages = read.body.messages as Message[];
          expect(contents(messages.slice(0, 5)), where).toEqual([
            "question 1",
            "answer 1",
            "question 2",
            "answer 2",
            "Tell me in parts",
          ]);
          expect(messages, where).toHaveLength(6);
          const generating = messages[5] as Message & { citations: unknown[]; sources: unknown[]; created_at: string };
          expect(generating, where).toMatchObject({
            message_id: messageId,
            role: "assistant",
            citations: [],
            sources: [],
            metadata: { generating: true, tokens_used: 0 },
          });
          expect(Object.keys(generating.metadata).sort()).toEqual([
            "generating",
            "last_event_id",
            "resume_path",
            "tokens_used",
          ]);
          // What it said so far: a beginning of the answer, up to the frame its last_event_id names.
          expect(generating.content.length, where).toBeGreaterThan(0);
          expect(paced.text.startsWith(generating.content), where).toBe(true);
          const lastEventId = generating.metadata.last_event_id as string;
          const covered = seen.slice(0, Number(lastEventId.split(".")[1]));
          expect(covered.at(-1)?.id, where).toBe(lastEventId);
          expect(
            covered
              .map(({ frame }) => frame)
              .filter((frame) => frame.type === "content")
              .map((frame) => frame.content)
              .join(""),
            where,
          ).toBe(generating.content);
          expect(generating.metadata.resume_path).toBe(
            `/v1/conversations/${conversationId}/stream?last_event_id=${encodeURIComponent(lastEventId)}`,
          );
          expect(Date.parse(generating.created_at)).not.toBeNaN();
        }

        // Paged: at the newest end, beyond the limit (which counts stored messages).
        expect(newestPage.body.messages.map((message: Message) => message.content).slice(1)).toEqual([
          "Tell me in parts",
        ]);
        expect(newestPage.body.messages[0]).toMatchObject({ message_id: messageId, metadata: { generating: true } });
        expect(newestPage.body.next_cursor).toEqual(expect.any(String));
        expect(contents(lastPage.body.messages).slice(0, 2)).toEqual(["answer 2", "Tell me in parts"]);
        expect(lastPage.body.messages[2]).toMatchObject({ message_id: messageId, metadata: { generating: true } });
        expect(lastPage.body.next_cursor).toBeNull();
        // Ended by now: the stored answer in its place on the same page, generating no more.
        const lastPageNow = await history(key, conversationId, `?limit=3&cursor=${encodeURIComponent(beforeLastPage)}`);
        expect(
          lastPageNow.body.messages.map((message: Message) => [message.message_id, message.metadata.generating]),
        ).toEqual([
          [lastPage.body.messages[0].message_id, undefined],
          [lastPage.body.messages[1].message_id, undefined],
          [messageId, undefined],
        ]);

        // Where the placeholder said to resume: exactly the rest of the answer, and its one terminal frame.
        const generatingHere = (here.body.messages as Message[])[5] as Message;
        const rest = await readSse(
          await fetch(`${setup.app.baseUrl}${generatingHere.metadata.resume_path as string}`, {
            headers: { Authorization: `Bearer ${key}` },
          }),
        );
        const restText = rest.frames
          .filter((frame) => frame.type === "content")
          .map((frame) => frame.content)
          .join("");
        expect(`${generatingHere.content}${restText}`).toBe(paced.text);
        expect(rest.frames.at(-1)?.type).toBe("public_api_complete");

        const stored = await history(key, conversationId);
        expect(stored.body.messages).toHaveLength(6);
        expect(stored.body.messages[5]).toMatchObject({
          message_id: messageId,
          role: "assistant",
          content: paced.text,
        });
        expect(stored.body.messages[5].metadata).toEqual({ tokens_used: 9, client_disconnected: false });
        expect(
          (await setup.app.request(`/v1/conversations/${conversationId}`, { key })).body.conversation.message_count,
        ).toBe(6);
      },
    );
  });

  describe("errors", () => {
    it("a cursor alone pages by the most a page holds; limit and order are checked", async () => {
      const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
      const conversationId = await conversationOf(key, 3);
      const first = await history(key, conversationId, "?limit=2");
      const rest = await history(key, conversationId, `?cursor=${encodeURIComponent(first.body.next_cursor)}`);
      expect(rest.status).toBe(200);
      expect(contents(rest.body.messages)).toEqual(["question 2", "answer 2", "question 3", "answer 3"]);
      expect(rest.body.next_cursor).toBeNull();
      for (const query of [
        "limit=0",
        "limit=101",
        "limit=-1",
        "limit=1.5",
        "limit=abc",
        "limit=",
        "order=up",
        "order=DESC",
        "order=",
        "cursor=",
        "sort=desc",
      ]) {
        expectEnvelope(await history(key, conversationId, `?${query}`), 400, "invalid_request");
      }
    });
  });

  describe("security", () => {
    it("refuses a forged, altered or foreign cursor (400), and another key's conversation stays a 404", async () => {
      const { key, id, organizationId } = await setup.app.newKey({ tenant: ACME_TENANT });
      const conversationId = await conversationOf(key, 2);
      const otherConversationId = await conversationOf(key, 2);
      const cursor = (await history(key, conversationId, "?limit=1")).body.next_cursor as string;
      const newestFirstCursor = (await history(key, conversationId, "?limit=1&order=desc")).body.next_cursor as string;
      const [payload, mac] = cursor.split(".") as [string, string];
      const altered = `${Buffer.from(JSON.stringify({ p: 0, f: JSON.parse(Buffer.from(payload, "base64url").toString()).f })).toString("base64url")}.${mac}`;
      const refusals: Array<[string, string, RegExp]> = [
        ["made up", "eyJwIjoxfQ.bm90LWEtbWFj", /not a cursor returned by this API/],
        ["altered position", altered, /not a cursor returned by this API/],
        [
          "a flipped signature",
          `${payload}.${mac.startsWith("A") ? "B" : "A"}${mac.slice(1)}`,
          /not a cursor returned by this API/,
        ],
        [
          "another conversation's",
          (await history(key, otherConversationId, "?limit=1")).body.next_cursor,
          /same filters/,
        ],
        ["the other order's", newestFirstCursor, /same filters/],
        [
          "a conversation list's",
          (await setup.app.request(`/v1/conversations?external_user_id=${user.external_user_id}&limit=1`, { key })).body
            .next_cursor,
          /not a cursor returned by this API/,
        ],
      ];
      for (const [what, presented, message] of refusals) {
        expect(presented, what).toEqual(expect.any(String));
        const error = expectEnvelope(
          await history(key, conversationId, `?limit=1&cursor=${encodeURIComponent(presented)}`),
          400,
          "invalid_request",
        );
        expect(error.message, what).toMatch(message);
      }
      // The cursor itself is fine with its own conversation and order.
      expect((await history(key, conversationId, `?limit=1&cursor=${encodeURIComponent(cursor)}`)).status).toBe(200);

      const other = await createApiKey(setup.app.t.db, { organizationId, name: "another key", scopes: ["chat:read"] });
      expect(other.key.id).not.toBe(id);
      for (const query of ["", "?limit=1", `?limit=1&cursor=${encodeURIComponent(cursor)}`]) {
        expectEnvelope(await history(other.plaintext, conversationId, query), 404, "not_found");
      }
    });
  });
});
