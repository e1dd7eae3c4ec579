import { ListRefusal } from "@/components/list-refusal";
import { Pagination } from "@/components/pagination";
import { Empty, Section, Table, Time } from "@/components/ui";
import type { PagePosition } from "@/lib/paging";
import { loadOrRefusal } from "@/lib/session";
import Link from "next/link";

const PAGE_SIZE = 25;

/** A partner user's hosted-chat conversations, most recently active first, each opening in its key's conversation view. */
export async function UserConversations({
  integrationId,
  externalUserId,
  position,
}: {
  integrationId: string;
  externalUserId: string;
  position: PagePosition;
}) {
  const path = `/integrations/${integrationId}/users/${encodeURIComponent(externalUserId)}`;
  const result = await loadOrRefusal((api) =>
    api.staff.partnerUsers.conversations.query({
      integration_id: integrationId,
      external_user_id: externalUserId,
      cursor: position.cursor,
      limit: PAGE_SIZE,
    }),
  );
  const { conversations, next_cursor, previous_cursor, total } = result.ok
    ? result.value
    : { conversations: [], next_cursor: null, previous_cursor: null, total: 0 };
  return (
    <Section title="Conversations">
      {!result.ok ? (
        <ListRefusal refusal={result} firstPage={path} />
      ) : conversations.length === 0 ? (
        <Empty>No conversations in the hosted chat yet.</Empty>
      ) : (
        <Table
          headers={["Conversation", "Loan", "Key", "Messages", "Generation", "Last activity"]}
          className="user-conversations"
        >
          {conversations.map((conversation) => (
            <tr key={conversation.id}>
              <td>
                <Link href={`/keys/${conversation.key_id}/conversations/${conversation.id}`}>
                  {conversation.title ?? <code>{conversation.id}</code>}
                </Link>
              </td>
              <td>{conversation.external_loan_id ?? "—"}</td>
              <td>
                <Link href={`/keys/${conversation.key_id}`}>{conversation.key_name}</Link>
              </td>
              <td>{conversation.message_count}</td>
              <td>{conversation.account_generation ?? "—"}</td>
              <td>
                <Time iso={conversation.updated_at} />
              </td>
            </tr>
          ))}
        </Table>
      )}
      {result.ok ? (
        <Pagination
          path={path}
          filters={{}}
          position={position}
          pageSize={PAGE_SIZE}
          shown={conversations.length}
          total={total}
          nextCursor={next_cursor}
          previousCursor={previous_cursor}
        />
      ) : null}
    </Section>
  );
}
