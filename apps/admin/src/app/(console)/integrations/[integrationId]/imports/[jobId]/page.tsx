import Link from "next/link";
import { Badge, Empty, PageHeader, Section, Table } from "../../../../../../components/ui";
import { formatTime } from "../../../../../../lib/format";
import { describeValue } from "../../../../../../lib/words";
import { load } from "../../../../../../lib/session";

/** One import with its per-row results. */
export default async function ImportPage({ params }: { params: Promise<{ integrationId: string; jobId: string }> }) {
  const { integrationId, jobId } = await params;
  const job = await load((api) => api.staff.partnerImports.get.query({ integration_id: integrationId, job_id: jobId }));
  const { summary } = job;
  return (
    <>
      <PageHeader title={`Import ${job.job_id}`} back={{ href: `/integrations/${integrationId}/imports`, label: "Imports" }}>
        <p>
          <Badge kind="importStatus" value={job.status} /> {summary.processed} of {job.total} processed: {summary.created} created, {summary.existing} existing, {summary.pending} pending,{" "}
          {summary.failed} failed. Started {formatTime(job.created_at)}, completed {formatTime(job.completed_at)}.
        </p>
      </PageHeader>
      <Section title="Rows">
        {job.results.length === 0 ? (
          <Empty>No rows processed yet.</Empty>
        ) : (
          <Table headers={["External user id", "Outcome", "Error"]}>
            {job.results.map((row) => (
              <tr key={row.external_user_id}>
                <td>
                  <Link href={`/integrations/${integrationId}/users/${encodeURIComponent(row.external_user_id)}`}>{row.external_user_id}</Link>
                </td>
                <td>
                  <Badge kind="importOutcome" value={row.outcome} />
                </td>
                <td title={row.error ? `${row.error.code}: ${row.error.message}` : undefined}>{row.error ? describeValue("errorCode", row.error.code) : "—"}</td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
    </>
  );
}
