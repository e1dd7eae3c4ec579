import { describe, expect, it } from "vitest";

import { ACME_TENANT } from "../support/tenants";
import type { UntypedJson } from "../support/untyped-json";
import { answer, readSse, received, upstreamAnswers, useAppWithMockedUpstream } from "../support/upstream-mock";

/**
 * Resumable answers (issue 23), over real HTTP and PostgreSQL with two instances sharing the
 * database: every frame carries an id, a dropped client resumes from its last one (here or on
 * the other instance) and gets exactly the missing frames and one terminal frame, and the
 * answer is generated and stored whole whether or not anyone is connected.
 */
const setup = useAppWithMockedUpstream({ secondInstance: true });

/** An upstream answer of `fragments` content frames, paced, so that a client can leave mid-answer. */
function pacedAnswer(fragments: number, gapMs = 40) {
  const steps = Array.from({ length: fragments }, (_, i) => [
    { event: { type: "content", content: `part ${i}. ` } },
    { wait: gapMs },
  ]).flat();
  const text = Array.from({ length: fragments }, (_, i) => `part ${i}. `).join("");
  return { text, steps: [...steps, { event: { type: "complete", metadata: { tokens_used: 7 } } }] };
}

async function keyWithTenant() {
  return setup.app.newKey({ tenant: ACME_TENANT, scopes: ["chat:read", "chat:write"] });
}

/** Opens a stream and reads `frames` frames (with their ids), then drops the connection. */
async function streamThenDrop(key: string, frames: number) {
  const controller = new AbortController();
  const res = await fetch(`${setup.app.baseUrl}/v1/messages`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ message: "Tell me in parts", user: { external_user_id: "lo-1" }, stream: true }),
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  const seen: Array<{ frame: UntypedJson; id: string | undefined }> = [];
  await readSse(res, (frame, id) => {
    seen.push({ frame, id });
    if (seen.length === frames) controller.abort();
  }).catch((error: unknown) => {
    if ((error as Error).name !== "AbortError") throw error;
  });
  return seen;
}

const resume = (
  base: string,
  key: string,
  conversationId: string,
  lastEventId?: string,
  via: "header" | "query" = "header",
) =>
  fetch(
    `${base}/v1/conversations/${conversationId}/stream${lastEventId && via === "query" ? `?last_event_id=${encodeURIComponent(lastEventId)}` : ""}`,
    {
      headers: {
        Authorization: `Bearer ${key}`,
        ...(lastEventId && via === "header" ? { "Last-Event-ID": lastEventId } : {}),
      },
    },
  );

const assistantMessage = async (conversationId: string) =>
  (
    await setup.app.t.db.sql.query(
      "SELECT id, status, content, metadata FROM messages WHERE conversation_id = $1 AND role = 'assistant'",
      [conversationId],
    )
  ).rows;

/** Two keys, each with a streamed conversation, and how a refusal reads (status and code). */
async function twoStreamedConversations() {
  const { key } = await keyWithTenant();
  const other = await keyWithTenant();
  upstreamAnswers(answer());
  const mine = await readSse(
    await fetch(`${setup.app.baseUrl}/v1/messages`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ message: "FHA?", user: { external_user_id: "lo-1" }, stream: true }),
    }),
  );
  upstreamAnswers(answer());
  const theirs = await readSse(
    await fetch(`${setup.app.baseUrl}/v1/messages`, {
      method: "POST",
      headers: { Authorization: `Bearer ${other.key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ message: "FHA?", user: { external_user_id: "lo-1" }, stream: true }),
    }),
  );
  const conversationId = mine.frames[0]?.conversation_id as string;
  const theirConversation = theirs.frames[0]?.conversation_id as string;
  const status = async (res: Response) => ({
    status: res.status,
    code: ((await res.json()) as UntypedJson).error?.code,
  });
  return { key, conversationId, theirConversation, mine, theirs, status };
}

describe("GET /v1/conversations/{conversationId}/stream (and the frame ids of both message routes)", () => {
  describe("happy", () => {
    it("every frame of both routes carries an id, ordered within the answer; the frames are today's", async () => {
      const { key } = await keyWithTenant();
      upstreamAnswers(answer());
      const first = await fetch(`${setup.app.baseUrl}/v1/messages`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ message: "FHA?", user: { external_user_id: "lo-1" }, stream: true }),
      });
      const { frames, ids } = await readSse(first);
      expect(frames.map((frame) => frame.type)).toEqual([
        "public_api_conversation",
        "content",
        "content",
        "content_postprocessed",
        "complete",
        "public_api_complete",
      ]);
      expect(ids.every((id) => typeof id === "string")).toBe(true);
      const streamOf = (id: string | undefined) => id?.slice(0, id.lastIndexOf("."));
      expect(new Set(ids.map(streamOf)).size).toBe(1);
      expect(ids.map((id) => Number(id?.slice(id.lastIndexOf(".") + 1)))).toEqual([1, 2, 3, 4, 5, 6]);

      upstreamAnswers(answer("And VA?"));
      const second = await fetch(`${setup.app.baseUrl}/v1/conversations/${frames[0]?.conversation_id}/messages`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ message: "VA?", user: { external_user_id: "lo-1" }, stream: true }),
      });
      const next = await readSse(second);
      // No public_api_conversation on this route, and its ids do not depend on one.
      expect(next.frames.map((frame) => frame.type)).toEqual([
        "content",
        "content",
        "content_postprocessed",
        "complete",
        "public_api_complete",
      ]);
      expect(next.ids.map((id) => Number(id?.slice(id.lastIndexOf(".") + 1)))).toEqual([1, 2, 3, 4, 5]);
      expect(streamOf(next.ids[0])).not.toBe(streamOf(ids[0]));
    });

    it("does not stop the answer: resumed with the last id, the client gets exactly the missing frames and one terminal frame; the answer is stored whole", async () => {
      const { key } = await keyWithTenant();
      const paced = pacedAnswer(12);
      upstreamAnswers(paced.steps);
      const before = await streamThenDrop(key, 4);
      const conversationId = before[0]?.frame.conversation_id as string;
      const lastId = before.at(-1)?.id as string;
      const rest = await readSse(await resume(setup.app.baseUrl, key, conversationId, lastId));
      const all = [...before.map((seen) => seen.frame), ...rest.frames];
      expect(all.map((frame) => frame.type)).toEqual([
        "public_api_conversation",
        ...Array(12).fill("content"),
        "complete",
        "public_api_complete",
      ]);
      expect(
        rest.frames.filter((frame) => frame.type === "public_api_complete" || frame.type === "error"),
      ).toHaveLength(1);
      // Ids continue where the dropped stream stopped.
      expect(Number(rest.ids[0]?.split(".")[1])).toBe(Number(lastId.split(".")[1]) + 1);
      const text = all
        .filter((frame) => frame.type === "content")
        .map((frame) => frame.content)
        .join("");
      expect(text).toBe(paced.text);
      // Only one upstream call: resuming never asks again.
      expect(received).toHaveLength(1);
      expect(await assistantMessage(conversationId)).toEqual([
        {
          id: all.at(-1)?.message_id,
          status: "complete",
          content: paced.text,
          metadata: expect.objectContaining({ tokens_used: 7, client_disconnected: true }),
        },
      ]);
    });

    it("resumes on the other instance while the first still generates, following it live", async () => {
      const { key } = await keyWithTenant();
      const paced = pacedAnswer(20, 60);
      upstreamAnswers(paced.steps);
      const before = await streamThenDrop(key, 3);
      const conversationId = before[0]?.frame.conversation_id as string;
      const res = await resume(setup.second.baseUrl, key, conversationId, before.at(-1)?.id, "query");
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const rest = await readSse(res);
      const text = [...before.map((seen) => seen.frame), ...rest.frames]
        .filter((frame) => frame.type === "content")
        .map((frame) => frame.content)
        .join("");
      expect(text).toBe(paced.text);
      expect(rest.frames.at(-1)?.type).toBe("public_api_complete");
      expect(rest.frames.filter((frame) => frame.type === "public_api_complete")).toHaveLength(1);
    });

    it("a finished answer is replayed from the id (or whole, without one) and the stream ends at once", async () => {
      const { key } = await keyWithTenant();
      upstreamAnswers(answer());
      const all = await readSse(
        await fetch(`${setup.app.baseUrl}/v1/messages`, {
          method: "POST",
          headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
          body: JSON.stringify({ message: "FHA?", user: { external_user_id: "lo-1" }, stream: true }),
        }),
      );
      const conversationId = all.frames[0]?.conversation_id as string;
      for (const base of [setup.app.baseUrl, setup.second.baseUrl]) {
        const fromThird = await readSse(await resume(base, key, conversationId, all.ids[2]));
        expect(fromThird.frames).toEqual(all.frames.slice(3));
        expect(fromThird.ids).toEqual(all.ids.slice(3));
        const whole = await readSse(await resume(base, key, conversationId));
        expect(whole.frames).toEqual(all.frames);
        const fromLast = await readSse(await resume(base, key, conversationId, all.ids.at(-1)));
        expect(fromLast.frames).toEqual([]);
      }
    });
  });

  describe("errors", () => {
    it("a malformed id is 400, an unknown query parameter 400", async () => {
      const { key, conversationId, mine, status } = await twoStreamedConversations();
      for (const bad of ["nope", "ans_x.1", `${mine.ids[0]?.split(".")[0]}.-1`, `${mine.ids[0]}x`, "1"]) {
        expect(await status(await resume(setup.app.baseUrl, key, conversationId, bad)), bad).toEqual({
          status: 400,
          code: "invalid_request",
        });
      }
      expect(
        await status(
          await fetch(`${setup.app.baseUrl}/v1/conversations/${conversationId}/stream?from=1`, {
            headers: { Authorization: `Bearer ${key}` },
          }),
        ),
      ).toEqual({
        status: 400,
        code: "invalid_request",
      });
    });
  });

  describe("security", () => {
    it("another conversation's or another key's id is 404; no key 401, a key without chat:read 403", async () => {
      const { key, conversationId, theirConversation, theirs, status } = await twoStreamedConversations();
      // Their conversation's id, presented for mine: not an answer of this conversation.
      expect(await status(await resume(setup.app.baseUrl, key, conversationId, theirs.ids[1]))).toEqual({
        status: 404,
        code: "not_found",
      });
      // Their conversation, with my key: not mine to see.
      expect(await status(await resume(setup.app.baseUrl, key, theirConversation, theirs.ids[1]))).toEqual({
        status: 404,
        code: "not_found",
      });
      expect(await status(await resume(setup.app.baseUrl, key, theirConversation))).toEqual({
        status: 404,
        code: "not_found",
      });
      expect(await status(await fetch(`${setup.app.baseUrl}/v1/conversations/${conversationId}/stream`))).toEqual({
        status: 401,
        code: "unauthorized",
      });
      const writeOnly = await setup.app.newKey({ tenant: ACME_TENANT, scopes: ["chat:write"] });
      expect(await status(await resume(setup.app.baseUrl, writeOnly.key, conversationId))).toEqual({
        status: 403,
        code: "forbidden",
      });
    });
  });
});
