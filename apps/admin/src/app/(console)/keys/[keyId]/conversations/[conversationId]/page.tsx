import { Breadcrumbs, organizationTrail } from "@/components/breadcrumbs";
import { CopyableId } from "@/components/copyable-id";
import { Badge, Empty, PageHeader, Section } from "@/components/ui";
import { formatTime } from "@/lib/format";
import { load } from "@/lib/session";
import { capitalise } from "@/lib/words";
import Link from "next/link";

import { ConversationOrigin } from "./conversation-origin";
import { ConversationSources } from "./conversation-sources";

/** A conversation's messages, read only, for support: with the excerpts its answers cite, and its loan and launch when it came through the hosted chat. */
export default async function ConversationPage({
  params,
}: {
  params: Promise<{ keyId: string; conversationId: string }>;
}) {
  const { keyId, conversationId } = await params;
  const { conversation, messages, sources } = await load((api) =>
    api.staff.conversations.messages.query({ key_id: keyId, conversation_id: conversationId }),
  );
  const key = await load((api) => api.staff.keys.get.query({ id: keyId }));
  const org = await load((api) => api.staff.organizations.get.query({ id: key.organization_id }));
  return (
    <>
      <Breadcrumbs
        trail={[
          ...organizationTrail(org),
          { label: "API keys", href: `/organizations/${org.id}/keys` },
          { label: key.name, href: `/keys/${key.id}` },
          { label: "Conversation" },
        ]}
      />
      <PageHeader title={conversation.title ?? conversation.id}>
        <p className="hint">
          <CopyableId value={conversation.id} />
        </p>
        <p className="hint">
          User{" "}
          {conversation.launch ? (
            <Link
              href={`/integrations/${conversation.launch.integration_id}/users/${encodeURIComponent(conversation.external_user_id)}`}
            >
              {conversation.external_user_id}
            </Link>
          ) : (
            conversation.external_user_id
          )}
          , started {formatTime(conversation.created_at)}
          {conversation.loan ? " in the hosted chat" : " through the API"}.
        </p>
      </PageHeader>
      <ConversationOrigin conversation={conversation} />
      <Section title="Messages">
        {messages.length === 0 ? (
          <Empty>No messages.</Empty>
        ) : (
          <ol className="messages">
            {messages.map((message) => (
              <li key={message.id} className={`message message-${message.role}`}>
                <div className="message-meta">
                  <strong>{capitalise(message.role)}</strong> · {formatTime(message.created_at)}
                  {message.citations ? ` · ${message.citations} citations` : ""}{" "}
                  {message.status !== "complete" ? <Badge kind="messageStatus" value={message.status} /> : null}
                </div>
                <p className="message-content">{message.content}</p>
              </li>
            ))}
          </ol>
        )}
      </Section>
      <ConversationSources sources={sources} messageIds={messages.map((message) => message.id)} />
    </>
  );
}
