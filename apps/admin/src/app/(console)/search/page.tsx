import { CopyableId } from "@/components/copyable-id";
import { Badge, Empty, PageHeader, Section, Table } from "@/components/ui";
import { param } from "@/lib/format";
import { loadOrRefusal } from "@/lib/session";
import Link from "next/link";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";

/**
 * The header's search: one term against users (part of the external id, email or name), keys
 * (id, last four or part of the name), conversations and operations (id), organizations and
 * integrations; results grouped by kind, each a link to its page. The API ranks the kinds:
 * exact matches first, then organizations, integrations and keys before users.
 */
export default async function SearchPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const q = param(await searchParams, "q");
  if (!q) {
    return (
      <>
        <PageHeader title="Search" />
        <Section title="Results">
          <Empty>
            Type a name, a user&apos;s id or email, a key&apos;s id or last four characters, or a conversation or
            operation id in the search box above (press / to get there).
          </Empty>
        </Section>
      </>
    );
  }
  // A request id (X-Request-Id, as support is given it) opens that request in the request log.
  if (/^req_[A-Za-z0-9]{22}$/.test(q)) redirect(`/requests/${q}`);
  const result = await loadOrRefusal((api) => api.staff.search.query({ q }));
  if (!result.ok) {
    return (
      <>
        <PageHeader title="Search" />
        <p className="form-error" role="alert">
          This search could not be run. {result.message}
        </p>
      </>
    );
  }
  const found = result.value;
  const count = found.order.reduce((sum, kind) => sum + found[kind].items.length, 0);
  const org = (organization: { id: string; name: string }) => (
    <Link href={`/organizations/${organization.id}`}>{organization.name}</Link>
  );
  const groups: Record<(typeof found.order)[number], ReactNode> = {
    users: (
      <Group key="users" title="Users" noun="users" more={found.users.more} empty={found.users.items.length === 0}>
        <Table headers={["External user id", "Name", "Email", "Status", "Integration", "Organization"]}>
          {found.users.items.map((user) => (
            <tr key={`${user.integration.id}/${user.external_user_id}`}>
              <td>
                <Link href={`/integrations/${user.integration.id}/users/${encodeURIComponent(user.external_user_id)}`}>
                  {user.external_user_id}
                </Link>
              </td>
              <td>{user.name ?? "—"}</td>
              <td>{user.email}</td>
              <td>
                <Badge value={user.status} />
              </td>
              <td>
                <Link href={`/integrations/${user.integration.id}`}>{user.integration.slug}</Link>
              </td>
              <td>{org(user.organization)}</td>
            </tr>
          ))}
        </Table>
      </Group>
    ),
    keys: (
      <Group key="keys" title="API keys" noun="API keys" more={found.keys.more} empty={found.keys.items.length === 0}>
        <Table headers={["Name", "Id", "Key", "Status", "Organization"]}>
          {found.keys.items.map((key) => (
            <tr key={key.id}>
              <td>
                <Link href={`/keys/${key.id}`}>{key.name}</Link>
              </td>
              <td>
                <CopyableId value={key.id} />
              </td>
              <td>
                <code>…{key.last_four}</code>
              </td>
              <td>
                <Badge value={key.status} />
              </td>
              <td>{org(key.organization)}</td>
            </tr>
          ))}
        </Table>
      </Group>
    ),
    conversations: (
      <Group
        key="conversations"
        title="Conversations"
        noun="conversations"
        more={found.conversations.more}
        empty={found.conversations.items.length === 0}
      >
        <Table headers={["Conversation", "User", "Organization"]}>
          {found.conversations.items.map((conversation) => (
            <tr key={conversation.id}>
              <td>
                <Link href={`/keys/${conversation.key_id}/conversations/${conversation.id}`}>
                  {conversation.title ?? conversation.id}
                </Link>
              </td>
              <td>{conversation.external_user_id}</td>
              <td>{org(conversation.organization)}</td>
            </tr>
          ))}
        </Table>
      </Group>
    ),
    operations: (
      <Group
        key="operations"
        title="Lifecycle operations"
        noun="lifecycle operations"
        more={found.operations.more}
        empty={found.operations.items.length === 0}
      >
        <Table headers={["Operation", "Type", "Status", "User", "Organization"]}>
          {found.operations.items.map((operation) => (
            <tr key={operation.id}>
              <td>
                <CopyableId value={operation.id} />
              </td>
              <td>{operation.type.replaceAll("_", " ")}</td>
              <td>
                <Badge value={operation.status} />
              </td>
              <td>
                <Link
                  href={`/integrations/${operation.integration_id}/users/${encodeURIComponent(operation.external_user_id)}`}
                >
                  {operation.external_user_id}
                </Link>
              </td>
              <td>{org(operation.organization)}</td>
            </tr>
          ))}
        </Table>
      </Group>
    ),
    organizations: (
      <Group
        key="organizations"
        title="Organizations"
        noun="organizations"
        more={found.organizations.more}
        empty={found.organizations.items.length === 0}
      >
        <Table headers={["Name", "Id"]}>
          {found.organizations.items.map((organization) => (
            <tr key={organization.id}>
              <td>{org(organization)}</td>
              <td>
                <CopyableId value={organization.id} />
              </td>
            </tr>
          ))}
        </Table>
      </Group>
    ),
    integrations: (
      <Group
        key="integrations"
        title="Integrations"
        noun="integrations"
        more={found.integrations.more}
        empty={found.integrations.items.length === 0}
      >
        <Table headers={["Slug", "Status", "Organization"]}>
          {found.integrations.items.map((integration) => (
            <tr key={integration.id}>
              <td>
                <Link href={`/integrations/${integration.id}`}>{integration.slug}</Link>
              </td>
              <td>
                <Badge value={integration.status} />
              </td>
              <td>{org(integration.organization)}</td>
            </tr>
          ))}
        </Table>
      </Group>
    ),
  };
  return (
    <>
      <PageHeader title="Search">
        <p className="hint">Results for “{q}”.</p>
      </PageHeader>
      {count === 0 ? <Empty>Nothing matches “{q}”.</Empty> : null}
      {found.order.map((kind) => groups[kind])}
    </>
  );
}

/** One kind of result: its table, or in words that none matched; says when only the first ones are shown. */
function Group({
  title,
  noun,
  more,
  empty,
  children,
}: {
  title: string;
  noun: string;
  more: boolean;
  empty: boolean;
  children: ReactNode;
}) {
  return (
    <Section title={title}>
      {empty ? <Empty>No {noun} match.</Empty> : children}
      {more ? (
        <p className="hint">
          Only the first matches are shown: search for more of the name, id or email to narrow them down.
        </p>
      ) : null}
    </Section>
  );
}
