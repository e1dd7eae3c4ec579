import { createServer, type AddressInfo } from "node:net";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";

import { bindLaunchKey } from "@mga/core/launches";
import { ApiConnectionError, ApiError, Client, MgaError, type RetryEvent, type StreamEvent } from "@mga/sdk";

import { ALL_PARTNER_SCOPES, anotherKey, newPartner } from "../support/partners";
import { ACME_TENANT } from "../support/tenants";
import { answer, upstreamAnswers, useAppWithMockedUpstream } from "../support/upstream-mock";

const setup = useAppWithMockedUpstream();
const sdk = (apiKey: string) => new Client({ apiKey, baseUrl: setup.app.baseUrl });

/** Every resource of the SDK against the real server and PostgreSQL: the README's partner walkthrough, then a streamed answer. */
describe("the SDK against the real service", () => {
  it("the partner walkthrough: team, users, import, disable, profile change, deletion, reprovision, launch", async () => {
    // The README's key separation (spec 5.5): a directory key, a deletion-only key, a launch key.
    const partner = await newPartner(setup.app, {
      scopes: ALL_PARTNER_SCOPES.filter((scope) => scope !== "embed:users:delete"),
    });
    const directory = sdk(partner.key).integration(partner.slug);

    const me = await sdk(partner.key).me.get();
    expect(me.key.scopes).toEqual(expect.arrayContaining(["embed:users:write", "embed:teams:write"]));

    const team = await directory.teams.put("loan-officers", { name: "Loan officers" });
    expect(team.team).toMatchObject({ external_team_id: "loan-officers", status: "active", user_count: 0 });
    expect((await directory.teams.update("loan-officers", { name: "Loan officers (East)" })).team.name).toBe(
      "Loan officers (East)",
    );
    expect((await directory.teams.get("loan-officers")).team.name).toBe("Loan officers (East)");

    const created = await directory.users.put("lo-1001", {
      email: "lo1001@example.test",
      name: "Lee Officer",
      team_external_id: "loan-officers",
    });
    expect(created.user).toMatchObject({
      external_user_id: "lo-1001",
      status: "active",
      team: { external_team_id: "loan-officers" },
    });

    const job = await directory.imports.create({
      users: Array.from({ length: 30 }, (_, i) => ({ external_user_id: `bulk-${i}`, email: `bulk${i}@example.test` })),
    });
    const imported = await directory.imports.waitFor(job.import.job_id, { intervalMs: 100, timeoutMs: 30_000 });
    expect(imported).toMatchObject({ status: "completed", summary: { processed: 30, created: 30 } });

    const everyone: string[] = [];
    for await (const user of directory.users.listAll({ limit: 7 })) everyone.push(user.external_user_id);
    expect(everyone).toHaveLength(31);
    expect(new Set(everyone).size).toBe(31);
    const teams: string[] = [];
    for await (const t of directory.teams.listAll({ limit: 1 })) teams.push(t.external_team_id);
    expect(teams).toEqual(["loan-officers"]);

    expect((await directory.users.update("lo-1001", { status: "disabled" })).user.status).toBe("disabled");
    expect((await directory.users.update("lo-1001", { status: "active" })).user.status).toBe("active");

    const change = await directory.users.requestProfileChange("lo-1001", { name: "Lee Officer-Smith" });
    expect(
      (await directory.operations.waitFor(change.operation.operation_id, { intervalMs: 100, timeoutMs: 30_000 }))
        .status,
    ).toBe("completed");

    await expect(directory.users.requestDeletion("lo-1001", { note: "left" })).rejects.toMatchObject({
      status: 403,
      code: "forbidden",
    });
    const deleter = await anotherKey(setup.app, partner.organizationId, ["embed:users:delete"]);
    const deletion = await sdk(deleter.key)
      .integration(partner.slug)
      .users.requestDeletion("lo-1001", { note: "left" });
    expect(
      (await directory.operations.waitFor(deletion.operation.operation_id, { intervalMs: 100, timeoutMs: 30_000 }))
        .status,
    ).toBe("completed");
    expect((await directory.users.get("lo-1001")).user.status).toBe("deleted");

    const reprovision = await directory.users.reprovision("lo-1001", { email: "lo1001@example.test" });
    expect(
      (await directory.operations.waitFor(reprovision.operation.operation_id, { intervalMs: 100, timeoutMs: 30_000 }))
        .status,
    ).toBe("completed");
    const returned = await directory.users.get("lo-1001");
    expect(returned.user).toMatchObject({ status: "active", account_generation: 2 });
    expect((await directory.users.list({ limit: 1 })).counts).toMatchObject({ total: 31 });

    const launcher = await anotherKey(setup.app, partner.organizationId, ["embed:launch"]);
    await bindLaunchKey(setup.app.t.db, { apiKeyId: launcher.id, publicName: partner.slug });
    const launch = await sdk(launcher.key).embedSessions.create({
      integration: partner.slug,
      user: { external_user_id: "lo-1001" },
      loan_context: { external_loan_id: "LN-1", program: "fha" },
    });
    expect(new URL(launch.launch_url).hash).toMatch(/code=/);

    // Another organization's key sees none of it.
    const stranger = await newPartner(setup.app, { slug: "other-los" });
    const refused = await sdk(stranger.key)
      .integration(partner.slug)
      .users.get("lo-1001")
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBeGreaterThanOrEqual(400);
    expect((refused as ApiError).status).toBeLessThan(500);
  });

  it("conversations, sources and a streamed answer, with its final text, citations and message id", async () => {
    const { key } = await setup.app.newKey({
      scopes: ["chat:read", "chat:write", "sources:read"],
      tenant: ACME_TENANT,
    });
    const client = sdk(key);
    expect((await client.sources.list()).tenant_source_keys).toEqual(expect.arrayContaining(["acme_overlays"]));

    upstreamAnswers(answer());
    const frames: StreamEvent[] = [];
    const stream = await client.messages.stream({
      message: "What is the minimum down payment for an FHA loan?",
      user: { external_user_id: "lo-17" },
    });
    for await (const frame of stream) frames.push(frame);
    expect(frames.map((frame) => frame.type)).toEqual([
      "public_api_conversation",
      "content",
      "content",
      "content_postprocessed",
      "complete",
      "public_api_complete",
    ]);
    const final = await stream.finalAnswer();
    expect(final).toMatchObject({
      text: "FHA requires 3.5 percent down. [1]",
      tokensUsed: 42,
      conversationCreated: true,
      citations: [{ id: "fha-1" }],
    });

    upstreamAnswers(answer("Yes, a gift from a relative is allowed."));
    const followUp = await (
      await client.conversations.messages.stream(final.conversationId, {
        message: "Can it be a gift?",
        user: { external_user_id: "lo-17" },
      })
    ).finalAnswer();
    expect(followUp.text).toBe("Yes, a gift from a relative is allowed.");

    upstreamAnswers(answer("Also 3.5 percent."));
    const json = await client.messages.create({
      message: "And for a condo?",
      user: { external_user_id: "lo-17" },
      conversation_id: final.conversationId,
    });
    expect(json.response).toBe("Also 3.5 percent.");

    const conversation = await client.conversations.get(final.conversationId);
    expect(conversation.conversation.message_count).toBe(6);
    const history = await client.conversations.messages.list(final.conversationId);
    expect(history.messages.map((m) => m.message_id)).toEqual(
      expect.arrayContaining([final.messageId, followUp.messageId, json.message_id]),
    );

    const empty = await client.conversations.create({ user: { external_user_id: "lo-17" }, title: "Condo questions" });
    upstreamAnswers(answer("Condos need project approval."));
    expect(
      (
        await client.conversations.messages.create(empty.conversation_id, {
          message: "Condo?",
          user: { external_user_id: "lo-17" },
        })
      ).response,
    ).toBe("Condos need project approval.");

    // The user's recent chats, most recently active first, one page or all of them.
    const recent = await client.conversations.list({ external_user_id: "lo-17" });
    expect(recent.conversations.map((c) => c.conversation_id)).toEqual([empty.conversation_id, final.conversationId]);
    expect(recent.next_cursor).toBeNull();
    const walked: string[] = [];
    for await (const c of client.conversations.listAll({ external_user_id: "lo-17", limit: 1 }))
      walked.push(c.conversation_id);
    expect(walked).toEqual([empty.conversation_id, final.conversationId]);
    expect((await client.conversations.list({ external_user_id: "lo-18" })).conversations).toEqual([]);

    // The history page by page, newest first: the whole history reversed.
    const newestFirst: string[] = [];
    for await (const m of client.conversations.messages.listAll(final.conversationId, { limit: 4, order: "desc" }))
      newestFirst.push(m.message_id);
    expect(newestFirst).toEqual(history.messages.map((m) => m.message_id).reverse());
    const firstPage = await client.conversations.messages.list(final.conversationId, { limit: 4 });
    expect(firstPage.messages).toEqual(history.messages.slice(0, 4));
    expect(firstPage.next_cursor).toEqual(expect.any(String));

    await expect(client.conversations.get("conv_missing")).rejects.toMatchObject({ status: 404, code: "not_found" });
  });

  it("errors by class, as built: a refusal is an ApiError with its request id in String() and console.log; a closed port an ApiConnectionError", async () => {
    const { key } = await setup.app.newKey({ scopes: ["chat:read"], tenant: ACME_TENANT });
    const missing = await sdk(key)
      .conversations.get("conv_missing")
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ApiError);
    expect(missing).toBeInstanceOf(MgaError);
    const { requestId, message } = missing as ApiError;
    expect(requestId).toMatch(/^req_/);
    expect(String(missing)).toBe(`ApiError [404 not_found]: ${message} (request_id ${requestId})`);
    expect(inspect(missing).split("\n")[0]).toBe(String(missing));

    const retries: RetryEvent[] = [];
    const unreachable = new Client({
      apiKey: key,
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      initialRetryDelayMs: 1,
      onRetry: (event) => retries.push(event),
    });
    const refused = await unreachable.me.get().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiConnectionError);
    expect(refused).toBeInstanceOf(MgaError);
    expect(refused).not.toBeInstanceOf(ApiError);
    expect(String(refused)).toMatch(/^ApiConnectionError: .*ECONNREFUSED/);
    expect(retries.map((event) => event.attempt)).toEqual([1, 2]);
  });
});

/** A loopback port nothing listens on (bound, then released), so a connection to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
