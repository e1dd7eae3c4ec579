import type { Database } from "../../db/database";
import { newId } from "../../ids/new-id";
import type { ChatIdentities } from "./chat-identities";

/** The built-in chat identity store of the embedded default. Idempotent per (user, generation). */
export class LocalChatIdentities implements ChatIdentities {
  constructor(private readonly db: Database) {}

  async create(input: { partnerUserId: string; generation: number }): Promise<{ id: string }> {
    const row = await this.db.prisma.chatIdentity.upsert({
      where: { partnerUserId_generation: { partnerUserId: input.partnerUserId, generation: input.generation } },
      create: { id: newId("chat"), partnerUserId: input.partnerUserId, generation: input.generation },
      update: {},
    });
    return { id: row.id };
  }

  async block(identityId: string): Promise<void> {
    await this.db.prisma.chatIdentity.update({ where: { id: identityId }, data: { blocked: true } });
  }
}
