import { beforeAll, describe, expect, it } from "vitest";

import { ok, type StaffSession } from "../support/staff-client";
import { TENANT, useStaffProcedures } from "../support/staff-procedures";
import { answer, upstreamAnswers } from "../support/upstream-mock";

/** Staff procedures: a key's conversations, after messages sent over the partner REST API. */
const { query, mutate, rest, newOrg, newKey, sessions } = useStaffProcedures();
let admin: StaffSession;
let viewer: StaffSession;
beforeAll(() => {
  ({ admin, viewer } = sessions);
});

describe("conversations of a key", () => {
  it("overview counts a key's conversations and messages after a message sent over the API; messages shows them", async () => {
    const org = await newOrg("Chat Lender");
    ok(await mutate(admin, "staff.organizations.configureTenant", { id: org.id, config: TENANT }));
    const chat = await newKey(org.id, ["chat:read", "chat:write"]);
    const quiet = await newKey(org.id, ["chat:read", "chat:write"]);
    const empty = ok(await query(viewer, "staff.conversations.overview", { key_id: chat.key.id }));
    expect(empty).toEqual({
      counts: { conversations: 0, messages: 0, embedded: 0 },
      last_activity_at: null,
      recent: [],
    });

    upstreamAnswers(answer("FHA requires 3.5 percent down. [1]"));
    const sent = await rest("POST", "/v1/messages", chat.plaintext, {
      message: "What is the minimum down payment for an FHA loan?",
      user: { external_user_id: "lo-9", email: "lo9@chat.test", name: "Loan Officer" },
      conversation: { title: "FHA question" },
    });
    expect(sent.status, sent.text).toBe(200);

    const overview = ok(await query(viewer, "staff.conversations.overview", { key_id: chat.key.id }));
    expect(overview.counts).toEqual({ conversations: 1, messages: 2, embedded: 0 });
    expect(Date.parse(overview.last_activity_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(overview.recent).toEqual([
      {
        id: sent.body.conversation_id,
        title: "FHA question",
        external_user_id: "lo-9",
        embedded: false,
        message_count: 2,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);

    const messages = ok(
      await query(viewer, "staff.conversations.messages", {
        key_id: chat.key.id,
        conversation_id: sent.body.conversation_id,
      }),
    );
    expect(messages.conversation).toMatchObject({
      id: sent.body.conversation_id,
      title: "FHA question",
      external_user_id: "lo-9",
    });
    expect(
      messages.messages.map((m: { role: string; content: string; citations: number }) => [
        m.role,
        m.content,
        m.citations,
      ]),
    ).toEqual([
      ["user", "What is the minimum down payment for an FHA loan?", 0],
      ["assistant", "FHA requires 3.5 percent down. [1]", 1],
    ]);
    expect(messages.messages[1].id).toBe(sent.body.message_id);

    // Another key of the same organization sees none of it.
    expect(ok(await query(viewer, "staff.conversations.overview", { key_id: quiet.key.id })).counts).toEqual({
      conversations: 0,
      messages: 0,
      embedded: 0,
    });
    expect(
      (
        await query(viewer, "staff.conversations.messages", {
          key_id: quiet.key.id,
          conversation_id: sent.body.conversation_id,
        })
      ).status,
    ).toBe(404);
    expect((await query(viewer, "staff.conversations.overview", { key_id: "key_missing" })).status).toBe(404);
  });
});
