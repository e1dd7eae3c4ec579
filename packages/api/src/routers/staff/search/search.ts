import { searchDirectory } from "@mga/core/search";

import { staffProcedure } from "../../../trpc";
import { searchInput, searchOutput } from "./search.types";

/**
 * The console's global search, for any signed-in staff member (a read: not audited, like
 * every other staff read). Email matching lives here and in core only: no /v1 route searches
 * by email.
 */
export const search = staffProcedure
  .input(searchInput)
  .output(searchOutput)
  .query(async ({ ctx, input }) => {
    const found = await searchDirectory(ctx.db, input.q);
    const org = (hit: { organizationId: string; organizationName: string }) => ({
      id: hit.organizationId,
      name: hit.organizationName,
    });
    return {
      order: found.order,
      users: {
        more: found.users.more,
        items: found.users.items.map((user) => ({
          external_user_id: user.externalUserId,
          email: user.email,
          name: user.name,
          status: user.status,
          integration: { id: user.integrationId, slug: user.integrationSlug },
          organization: org(user),
        })),
      },
      organizations: {
        more: found.organizations.more,
        items: found.organizations.items.map((hit) => ({ id: hit.id, name: hit.name })),
      },
      integrations: {
        more: found.integrations.more,
        items: found.integrations.items.map((integration) => ({
          id: integration.id,
          slug: integration.slug,
          status: integration.status,
          organization: org(integration),
        })),
      },
      keys: {
        more: found.keys.more,
        items: found.keys.items.map((key) => ({
          id: key.id,
          name: key.name,
          last_four: key.lastFour,
          status: key.status,
          organization: org(key),
        })),
      },
      conversations: {
        more: found.conversations.more,
        items: found.conversations.items.map((conversation) => ({
          id: conversation.id,
          key_id: conversation.keyId,
          title: conversation.title,
          external_user_id: conversation.externalUserId,
          organization: org(conversation),
        })),
      },
      operations: {
        more: found.operations.more,
        items: found.operations.items.map((operation) => ({
          id: operation.id,
          type: operation.type,
          status: operation.status,
          integration_id: operation.integrationId,
          external_user_id: operation.externalUserId,
          organization: org(operation),
        })),
      },
    };
  });
