import { beforeAll, describe, expect, it } from "vitest";

import { configureTenant } from "@mga/core/tenants";

import { boundLaunchKey, openChat } from "../support/launches";
import { newPartner } from "../support/partners";
import { ok, type StaffSession } from "../support/staff-client";
import { TENANT, useStaffProcedures } from "../support/staff-procedures";
import { ACME_TENANT } from "../support/tenants";
import { answer, readSse, upstreamAnswers } from "../support/upstream-mock";

/**
 * Staff procedures for a conversation's sources, loan and launch, and a partner user's
 * conversations (issue 24, item 15): hosted-chat conversations made over real HTTP as the
 * chat page makes them, read back as the console reads them.
 */
const { setup, query, mutate, rest, newOrg, newKey, sessions } = useStaffProcedures();
let admin: StaffSession;
let viewer: StaffSession;
beforeAll(() => {
  ({ admin, viewer } = sessions);
});

/** The hosted chat page's question, read to its end. */
async function ask(chatToken: string, message: string): Promise<void> {
  const res = await fetch(`${setup.app.baseUrl}/embed/api/chat/messages`, {
    method: "POST",
    headers: { Authorization: `Bearer ${chatToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ message }),
  });
  expect(res.status).toBe(200);
  expect((await readSse(res)).frames.at(-1)?.type).toBe("public_api_complete");
}

type Listed = { id: string; key_id: string; external_loan_id: string | null; message_count: number };

describe("a conversation's sources, loan and launch; a partner user's conversations", () => {
  it("an API conversation lists the excerpts its answer cites, and has no loan or launch", async () => {
    const org = await newOrg("Sources Lender");
    ok(await mutate(admin, "staff.organizations.configureTenant", { id: org.id, config: TENANT }));
    const chat = await newKey(org.id, ["chat:read", "chat:write"]);
    upstreamAnswers(
      answer("FHA requires 3.5 percent down [1], VA none [2].", {
        citations: [
          {
            id: "fha-1",
            title: "FHA down payment",
            source_label: "FHA (sample)",
            section: "II.A.2",
            excerpt: "3.5 percent of the price",
            url: "https://example.test/fha",
            page: 12,
          },
          { id: "va-1", title: "VA down payment", excerpt: "No down payment", url: "javascript:alert(1)" },
        ],
      }),
    );
    const sent = await rest("POST", "/v1/messages", chat.plaintext, {
      message: "Down payments?",
      user: { external_user_id: "lo-1" },
    });
    expect(sent.status, sent.text).toBe(200);

    const read = ok(
      await query(viewer, "staff.conversations.messages", {
        key_id: chat.key.id,
        conversation_id: sent.body.conversation_id,
      }),
    );
    expect(read.conversation).toEqual({
      id: sent.body.conversation_id,
      title: null,
      external_user_id: "lo-1",
      created_at: expect.any(String),
      account_generation: null,
      loan: null,
      launch: null,
    });
    // Only web addresses are kept from the upstream (core's sanitizer drops the script URL).
    expect(read.sources).toEqual([
      {
        message_id: sent.body.message_id,
        number: 1,
        title: "FHA down payment",
        source_label: "FHA (sample)",
        section: "II.A.2",
        excerpt: "3.5 percent of the price",
        url: "https://example.test/fha",
        page: 12,
      },
      {
        message_id: sent.body.message_id,
        number: 2,
        title: "VA down payment",
        source_label: null,
        section: null,
        excerpt: "No down payment",
        url: null,
        page: null,
      },
    ]);
  });

  it("a hosted-chat conversation shows its loan and launch; each user's page lists only that user's conversations, paged; another key's URL is a 404", async () => {
    const p = await newPartner(setup.app, { slug: "origin-los" });
    await configureTenant(setup.app.t.db, { organizationId: p.organizationId, config: ACME_TENANT });
    for (const user of ["lo-a", "lo-b"])
      expect(
        (await p.put(`/users/${user}`, { email: `${user}-${p.organizationId.toLowerCase()}@acme.test` })).status,
      ).toBe(201);
    const launcher = await boundLaunchKey(setup.app, p);
    const { rows } = await setup.app.t.db.sql.query<{ id: string }>(
      "SELECT id FROM integrations WHERE organization_id = $1 AND slug = $2",
      [p.organizationId, p.slug],
    );
    const integrationId = rows[0]?.id as string;

    upstreamAnswers(answer());
    const [a, b] = [await openChat(setup.app, p, "lo-a", launcher), await openChat(setup.app, p, "lo-b", launcher)];
    await ask(a, "first question of lo-a");
    await ask(b, "the question of lo-b");
    // A new chat token (a second launch) starts a second conversation for lo-a.
    await ask(await openChat(setup.app, p, "lo-a", launcher), "second question of lo-a");

    const list = async (externalUserId: string, extra: Record<string, unknown> = {}) =>
      ok(
        await query(viewer, "staff.partnerUsers.conversations", {
          integration_id: integrationId,
          external_user_id: externalUserId,
          ...extra,
        }),
      );
    const ofA = await list("lo-a");
    expect(ofA.total).toBe(2);
    expect(ofA.conversations.map((c: Listed) => [c.key_id, c.external_loan_id, c.message_count])).toEqual([
      [launcher.id, "LN-1", 2],
      [launcher.id, "LN-1", 2],
    ]);
    const ofB = await list("lo-b");
    expect(ofB.total).toBe(1);
    // Each user's list holds only their own conversations.
    expect(
      ofB.conversations
        .map((c: Listed) => c.id)
        .filter((id: string) => ofA.conversations.some((c: Listed) => c.id === id)),
    ).toEqual([]);

    // Paged one at a time: Next reaches the older one, Previous comes back to the newest.
    const first = await list("lo-a", { limit: 1 });
    expect(first.conversations.map((c: Listed) => c.id)).toEqual([ofA.conversations[0].id]);
    expect(first.previous_cursor).toBeNull();
    const second = await list("lo-a", { limit: 1, cursor: first.next_cursor });
    expect(second.conversations.map((c: Listed) => c.id)).toEqual([ofA.conversations[1].id]);
    expect(second.next_cursor).toBeNull();
    const back = await list("lo-a", { limit: 1, cursor: second.previous_cursor });
    expect(back.conversations.map((c: Listed) => c.id)).toEqual([ofA.conversations[0].id]);
    // Another user's cursor does not page this user's list.
    expect(
      (
        await query(viewer, "staff.partnerUsers.conversations", {
          integration_id: integrationId,
          external_user_id: "lo-b",
          limit: 1,
          cursor: first.next_cursor,
        })
      ).status,
    ).toBe(400);

    const conversationId = ofB.conversations[0].id as string;
    const read = ok(
      await query(viewer, "staff.conversations.messages", { key_id: launcher.id, conversation_id: conversationId }),
    );
    expect(read.conversation).toMatchObject({
      id: conversationId,
      external_user_id: "lo-b",
      account_generation: 1,
      loan: { external_loan_id: "LN-1" },
    });
    expect(read.conversation.launch).toEqual({
      id: expect.stringMatching(/^lch_/),
      integration_id: integrationId,
      integration: "origin-los",
      public_name: "origin-los",
      external_user_id: "lo-b",
      created_at: expect.any(String),
      consumed_at: expect.any(String),
      expires_at: expect.any(String),
    });
    expect(read.messages.map((m: { content: string }) => m.content)).toEqual([
      "the question of lo-b",
      "FHA requires 3.5 percent down. [1]",
    ]);
    expect(read.sources).toEqual([
      {
        message_id: read.messages[1].id,
        number: 1,
        title: "FHA down payment",
        source_label: null,
        section: null,
        excerpt: "3.5 percent",
        url: "https://example.test/fha",
        page: null,
      },
    ]);

    // Staff see every organization, but a conversation shows only under its own key's URL.
    expect(
      (await query(viewer, "staff.conversations.messages", { key_id: p.keyId, conversation_id: conversationId }))
        .status,
    ).toBe(404);
    expect(
      (
        await query(viewer, "staff.partnerUsers.conversations", {
          integration_id: integrationId,
          external_user_id: "nobody",
        })
      ).status,
    ).toBe(404);
  });
});
