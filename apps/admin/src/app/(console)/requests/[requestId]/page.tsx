import { CopyableId } from "@/components/copyable-id";
import { Empty, PageHeader, Section, Time } from "@/components/ui";
import { ResourceLink } from "@/components/usage/resource-link";
import styles from "@/components/usage/usage.module.css";
import { segment } from "@/lib/format";
import { load } from "@/lib/session";
import Link from "next/link";

/** One logged request (found by its id from the header search): what support needs, with links to its key, organization and what it touched. */
export default async function RequestPage({ params }: { params: Promise<{ requestId: string }> }) {
  const requestId = segment((await params).requestId);
  const { request } = await load((api) => api.staff.usage.findRequest.query({ request_id: requestId.slice(0, 100) }));
  return (
    <>
      <PageHeader title="Request" />
      <Section title={requestId}>
        {!request ? (
          <Empty>
            No request with this id in the log: it was never made, was not a /v1 request, or is older than the log
            keeps.
          </Empty>
        ) : (
          <dl className={`facts ${styles.facts}`} data-request={request.request_id}>
            <dt>Request id</dt>
            <dd>
              <CopyableId value={request.request_id} />
            </dd>
            <dt>When</dt>
            <dd>
              <Time iso={request.at} />
            </dd>
            <dt>Route</dt>
            <dd>
              <code>{request.route}</code> {request.streamed ? <span className="hint">(event stream)</span> : null}
            </dd>
            <dt>Status</dt>
            <dd>{request.status}</dd>
            <dt>Latency</dt>
            <dd>{request.latency_ms.toLocaleString("en-US")} ms</dd>
            <dt>Error code</dt>
            <dd>{request.error_code ? <code>{request.error_code}</code> : "—"}</dd>
            <dt>Organization</dt>
            <dd>
              {request.organization_id ? (
                <Link href={`/organizations/${request.organization_id}/requests`}>{request.organization_id}</Link>
              ) : (
                "— (the key was not recognised)"
              )}
            </dd>
            <dt>Key</dt>
            <dd>{request.key_id ? <Link href={`/keys/${request.key_id}/requests`}>{request.key_id}</Link> : "—"}</dd>
            <dt>Touched</dt>
            <dd>
              <ResourceLink resourceId={request.resource_id} keyId={request.key_id} />
            </dd>
          </dl>
        )}
      </Section>
    </>
  );
}
