import type { Database } from "../../db/database";
import { AppError } from "../../errors/app-error";
import { newId } from "../../ids/new-id";
import type { ChatIdentities } from "./chat-identities";

/** The built-in chat identity store of the embedded default. Idempotent per (user, generation). */
export class LocalChatIdentities implements ChatIdentities {
  constructor(private readonly db: Database) {}

  async create(input: { partnerUserId: string; generation: number }): Promise<{ id: string }> {
    // The identity already made for this generation is the one returned, unchanged (the no-op update only returns it).
    const { rows } = await this.db.sql.query<{ id: string }>(
      `INSERT INTO chat_identities (id, partner_user_id, generation) VALUES ($1, $2, $3)
       ON CONFLICT (partner_user_id, generation) DO UPDATE SET generation = chat_identities.generation RETURNING id`,
      [newId("chat"), input.partnerUserId, input.generation],
    );
    return { id: (rows[0] as { id: string }).id };
  }

  async block(identityId: string): Promise<void> {
    const { rowCount } = await this.db.sql.query("UPDATE chat_identities SET blocked = true WHERE id = $1", [identityId]);
    // A missing identity is a 404, as Prisma's update made it.
    if (!rowCount) throw new AppError("not_found", "this record no longer exists");
  }
}
