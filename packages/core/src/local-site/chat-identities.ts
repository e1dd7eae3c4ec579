import type { Database } from "../db/database";
import { AppError } from "../errors/app-error";
import { newId } from "../ids/new-id";
import type { ChatIdentities, ChatIdentityInput } from "../partners/ports/chat-identities";

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

  /** create for several users in one statement; an input repeated gets the same identity. */
  async createMany(inputs: ChatIdentityInput[]): Promise<Array<PromiseSettledResult<{ id: string }>>> {
    const key = (input: ChatIdentityInput) => `${input.generation}:${input.partnerUserId}`;
    // Each (user, generation) once: one statement may not update the same row twice.
    const unique = [...new Map(inputs.map((input) => [key(input), input])).values()];
    const { rows } = await this.db.sql.query<{ id: string; partner_user_id: string; generation: number }>(
      `INSERT INTO chat_identities (id, partner_user_id, generation)
       SELECT * FROM unnest($1::text[], $2::text[], $3::int[])
       ON CONFLICT (partner_user_id, generation) DO UPDATE SET generation = chat_identities.generation RETURNING id, partner_user_id, generation`,
      [
        unique.map(() => newId("chat")),
        unique.map((input) => input.partnerUserId),
        unique.map((input) => input.generation),
      ],
    );
    const ids = new Map(
      rows.map((row) => [key({ partnerUserId: row.partner_user_id, generation: row.generation }), row.id]),
    );
    return inputs.map((input): PromiseSettledResult<{ id: string }> => {
      const id = ids.get(key(input));
      return id
        ? { status: "fulfilled", value: { id } }
        : { status: "rejected", reason: new Error("the chat identity was not stored") };
    });
  }

  async block(identityId: string): Promise<void> {
    const { rowCount } = await this.db.sql.query("UPDATE chat_identities SET blocked = true WHERE id = $1", [
      identityId,
    ]);
    // A missing identity is a 404, as Prisma's update made it.
    if (!rowCount) throw new AppError("not_found", "this record no longer exists");
  }
}
