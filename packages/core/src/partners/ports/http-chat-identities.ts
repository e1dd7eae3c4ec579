import type { ChatIdentities } from "./chat-identities";
import { httpJson, HttpRefused, type HttpTarget } from "./http-json";

/**
 * The hosted chat's identity store over HTTP (contract: docs/site-accounts-contract.md,
 * "Chat identities"). Identities are keyed by partner user and generation, so creating one
 * is an idempotent PUT.
 */
export class HttpChatIdentities implements ChatIdentities {
  private readonly target: HttpTarget;

  constructor(options: { url: string; token: string; timeoutMs?: number }) {
    this.target = {
      baseUrl: options.url,
      service: "the chat identity store",
      timeoutMs: options.timeoutMs ?? 10_000,
      headers: { Authorization: `Bearer ${options.token}` },
    };
  }

  async create(input: { partnerUserId: string; generation: number }): Promise<{ id: string }> {
    const { data } = await httpJson<{ id: string }>(
      this.target,
      "PUT",
      `/v1/identities/${encodeURIComponent(input.partnerUserId)}/generations/${input.generation}`,
      {},
    );
    if (!data?.id) throw new HttpRefused(200, "the chat identity store answered without an id");
    return { id: data.id };
  }

  async block(identityId: string): Promise<void> {
    await httpJson(this.target, "POST", `/v1/identities/${encodeURIComponent(identityId)}/block`, {});
  }
}
