import { conversationOverview, getApiKey, listAudit, listOutbox, staffConversationMessages } from "@mga/core";
import { z } from "zod";
import { router, staffProcedure } from "../../trpc";
import { staffCursor, staffId, staffLimit } from "./staff.types";

/** Read-only views for support: a key's conversations, the site-account outbox, the audit log. */
export const staffConversationsRouter = router({
  overview: staffProcedure.input(z.strictObject({ key_id: staffId, limit: staffLimit(20) })).query(async ({ ctx, input }) => {
    await getApiKey(ctx.db, input.key_id);
    const overview = await conversationOverview(ctx.db, input.key_id, { limit: input.limit });
    return {
      counts: overview.counts,
      last_activity_at: overview.lastActivityAt?.toISOString() ?? null,
      recent: overview.recent.map((conversation) => ({
        id: conversation.id,
        title: conversation.title,
        external_user_id: conversation.externalUserId,
        embedded: conversation.embedded,
        message_count: conversation.messageCount,
        created_at: conversation.createdAt.toISOString(),
        updated_at: conversation.updatedAt.toISOString(),
      })),
    };
  }),

  messages: staffProcedure.input(z.strictObject({ key_id: staffId, conversation_id: staffId })).query(async ({ ctx, input }) => {
    const { conversation, messages } = await staffConversationMessages(ctx.db, input.key_id, input.conversation_id);
    return {
      conversation: { id: conversation.id, title: conversation.title, external_user_id: conversation.externalUserId, created_at: conversation.createdAt.toISOString() },
      messages: messages.map((message) => ({
        id: message.id,
        role: message.role,
        content: message.content,
        status: message.status,
        citations: message.citations.length,
        created_at: message.createdAt.toISOString(),
      })),
    };
  }),
});

export const staffOutboxRouter = router({
  list: staffProcedure
    .input(z.strictObject({ email: z.string().trim().max(254).optional(), limit: staffLimit(50), cursor: staffCursor }))
    .query(async ({ ctx, input }) => {
      const page = await listOutbox(ctx.db, input);
      return {
        notifications: page.notifications.map((row) => ({
          id: row.id,
          kind: row.kind,
          recipient: row.recipient,
          created_at: row.createdAt.toISOString(),
          used: row.used,
          // A live password-setup link lets whoever holds it set the account's password: admins only.
          link: row.linkPath && ctx.staff.role === "admin" ? `${ctx.appUrl.replace(/\/+$/, "")}${row.linkPath}` : null,
          link_hidden: row.linkPath !== null && ctx.staff.role !== "admin",
        })),
        next_cursor: page.nextCursor,
        total: page.total,
      };
    }),
});

export const staffAuditRouter = router({
  list: staffProcedure
    .input(z.strictObject({ actor: z.string().trim().min(1).max(254).optional(), action: z.string().trim().min(1).max(100).optional(), limit: staffLimit(50), cursor: staffCursor }))
    .query(async ({ ctx, input }) => {
      const page = await listAudit(ctx.db, input);
      return {
        entries: page.entries.map((entry) => ({ id: entry.id, actor: entry.actor, action: entry.action, target: entry.target, details: entry.details, created_at: entry.createdAt.toISOString() })),
        next_cursor: page.nextCursor,
        total: page.total,
      };
    }),
});
