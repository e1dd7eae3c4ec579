import { ActionForm } from "@/components/action-form";
import { ConfirmAction } from "@/components/confirm-action";
import { SubmitButton } from "@/components/fields";
import { OneTimeSecret } from "@/components/one-time-secret";
import { Badge, Empty, ReadOnlyNote, Section, Table } from "@/components/ui";
import { isAdmin } from "@/lib/current-staff";
import { formatTime } from "@/lib/format";
import { load } from "@/lib/session";

import {
  deleteEndpointAction,
  redeliverAction,
  rollSecretAction,
  sendTestEventAction,
  setEndpointStatusAction,
} from "../actions";

/** One endpoint: its settings, its signing secret's roll, and its deliveries with redeliver and "send test event". */
export default async function EndpointPage({ params }: { params: Promise<{ orgId: string; endpointId: string }> }) {
  const { orgId, endpointId } = await params;
  const [list, deliveries, admin] = await Promise.all([
    load((api) => api.staff.webhooks.list.query({ organization_id: orgId })),
    load((api) => api.staff.webhooks.deliveries.query({ organization_id: orgId, endpoint_id: endpointId, limit: 50 })),
    isAdmin(),
  ]);
  const endpoint = list.endpoints.find((candidate) => candidate.id === endpointId);
  if (!endpoint) return <Empty>This webhook endpoint does not exist (any more) in this organization.</Empty>;
  const hidden = { orgId, endpointId };
  return (
    <>
      <Section title={`Webhook endpoint ${endpoint.url}`}>
        <dl className="facts">
          <dt>Status</dt>
          <dd>
            <Badge value={endpoint.status} kind="webhookEndpoint" />
            {endpoint.disabled_reason ? (
              <p className="hint" data-disabled-reason>
                {endpoint.disabled_reason}
              </p>
            ) : null}
          </dd>
          <dt>Events</dt>
          <dd>{endpoint.event_types.join(", ")}</dd>
          <dt>Integration</dt>
          <dd>{endpoint.integration ?? "All of the organization's"}</dd>
          <dt>Failing since</dt>
          <dd>{endpoint.failing_since ? formatTime(endpoint.failing_since) : "Not failing"}</dd>
          <dt>Previous secret</dt>
          <dd>
            {endpoint.previous_secret_expires_at
              ? `Still signing until ${formatTime(endpoint.previous_secret_expires_at)}`
              : "None"}
          </dd>
        </dl>
        {admin ? (
          <div className="actions">
            <ActionForm action={sendTestEventAction} label="Send test event">
              <input type="hidden" name="orgId" value={orgId} />
              <input type="hidden" name="endpointId" value={endpointId} />
              <SubmitButton pendingLabel="Queuing…">Send test event</SubmitButton>
            </ActionForm>
            <ActionForm
              action={setEndpointStatusAction}
              label={endpoint.status === "enabled" ? "Disable endpoint" : "Enable endpoint"}
            >
              <input type="hidden" name="orgId" value={orgId} />
              <input type="hidden" name="endpointId" value={endpointId} />
              <input type="hidden" name="status" value={endpoint.status === "enabled" ? "disabled" : "enabled"} />
              <SubmitButton className="button-secondary">
                {endpoint.status === "enabled" ? "Disable" : "Enable"}
              </SubmitButton>
            </ActionForm>
            <ActionForm action={rollSecretAction} label="Roll signing secret">
              <input type="hidden" name="orgId" value={orgId} />
              <input type="hidden" name="endpointId" value={endpointId} />
              <OneTimeSecret
                region="New signing secret"
                copyLabel="Copy secret"
                intro={
                  <>
                    <strong>Copy the new signing secret now</strong>: it is shown only this once. The old one keeps
                    signing beside it for 24 hours.
                  </>
                }
              />
              <SubmitButton className="button-secondary">Roll signing secret</SubmitButton>
            </ActionForm>
            <ConfirmAction
              action={deleteEndpointAction}
              label="Remove endpoint"
              question={`Remove ${endpoint.url}? Pending deliveries are not sent.`}
              confirmLabel="Remove"
              hidden={hidden}
            />
          </div>
        ) : (
          <ReadOnlyNote />
        )}
      </Section>
      <Section title="Deliveries">
        {deliveries.deliveries.length === 0 ? (
          <Empty>No deliveries yet. Send a test event to check the endpoint.</Empty>
        ) : (
          <Table headers={["Event", "Status", "Status code", "Latency", "Attempts", "Next retry", "Last error", ""]}>
            {deliveries.deliveries.map((delivery) => (
              <tr key={delivery.id} data-delivery={delivery.id}>
                <td>
                  <code>{delivery.event_type}</code>
                  <p className="hint">{formatTime(delivery.created_at)}</p>
                </td>
                <td>
                  <Badge value={delivery.status} kind="webhookDelivery" />
                </td>
                <td data-status-code>{delivery.last_status_code ?? "—"}</td>
                <td>{delivery.last_latency_ms === null ? "—" : `${delivery.last_latency_ms} ms`}</td>
                <td data-attempts>{delivery.attempts}</td>
                <td>{delivery.next_attempt_at ? formatTime(delivery.next_attempt_at) : "—"}</td>
                <td>{delivery.last_error ?? "—"}</td>
                <td>
                  {admin ? (
                    <ActionForm action={redeliverAction} label={`Redeliver ${delivery.event_type}`}>
                      <input type="hidden" name="orgId" value={orgId} />
                      <input type="hidden" name="deliveryId" value={delivery.id} />
                      <SubmitButton className="button-secondary" pendingLabel="Queuing…">
                        Redeliver
                      </SubmitButton>
                    </ActionForm>
                  ) : null}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
    </>
  );
}
