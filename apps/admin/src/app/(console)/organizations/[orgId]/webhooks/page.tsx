import { Badge, Empty, ReadOnlyNote, Section, Table } from "@/components/ui";
import { isAdmin } from "@/lib/current-staff";
import { formatTime } from "@/lib/format";
import { load } from "@/lib/session";
import Link from "next/link";

import { CreateEndpointForm } from "./create-endpoint-form";

export default async function WebhooksPage({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  const [list, integrations, admin] = await Promise.all([
    load((api) => api.staff.webhooks.list.query({ organization_id: orgId })),
    load((api) => api.staff.integrations.list.query({ organization_id: orgId })),
    isAdmin(),
  ]);
  return (
    <>
      <Section title="Webhook endpoints">
        {list.endpoints.length === 0 ? (
          <Empty>No webhook endpoints yet. Partners can still catch up on events with GET /v1/events.</Empty>
        ) : (
          <Table headers={["URL", "Events", "Integration", "Status", "Failing since", "Added"]}>
            {list.endpoints.map((endpoint) => (
              <tr key={endpoint.id}>
                <td>
                  <Link href={`/organizations/${orgId}/webhooks/${endpoint.id}`}>{endpoint.url}</Link>
                  {endpoint.disabled_reason ? <p className="hint">{endpoint.disabled_reason}</p> : null}
                </td>
                <td className="scopes-cell">{endpoint.event_types.join(", ")}</td>
                <td>{endpoint.integration ?? "All"}</td>
                <td>
                  <Badge value={endpoint.status} kind="webhookEndpoint" />
                </td>
                <td>{endpoint.failing_since ? formatTime(endpoint.failing_since) : "—"}</td>
                <td>{formatTime(endpoint.created_at)}</td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
      <Section title="Add a webhook endpoint">
        {admin ? (
          <CreateEndpointForm
            orgId={orgId}
            eventTypes={list.event_types}
            integrations={integrations.map((integration) => integration.slug)}
          />
        ) : (
          <ReadOnlyNote />
        )}
      </Section>
    </>
  );
}
