import { CopyableId } from "@/components/copyable-id";
import { Badge, Empty, PageHeader, Section, Table } from "@/components/ui";
import { formatTime, param } from "@/lib/format";
import { load } from "@/lib/session";
import { describeValue } from "@/lib/words";
import Link from "next/link";

/** One import with its per-row results; `?failed=1` keeps only the rows that failed. */
export default async function ImportPage({
  params,
  searchParams,
}: {
  params: Promise<{ integrationId: string; jobId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { integrationId, jobId } = await params;
  const failedOnly = param(await searchParams, "failed") === "1";
  const job = await load((api) => api.staff.partnerImports.get.query({ integration_id: integrationId, job_id: jobId }));
  const { summary } = job;
  const failed = job.results.filter((row) => row.outcome === "failed");
  const rows = failedOnly ? failed : job.results;
  const path = `/integrations/${integrationId}/imports/${job.job_id}`;
  return (
    <>
      <PageHeader title={`Import ${job.job_id}`}>
        <p className="hint">
          <CopyableId value={job.job_id} />
        </p>
        <p>
          <Badge kind="importStatus" value={job.status} /> {summary.processed} of {job.total} processed:{" "}
          {summary.created} created, {summary.existing} existing, {summary.pending} pending, {summary.failed} failed.
          Started {formatTime(job.created_at)}, completed {formatTime(job.completed_at)}.
        </p>
      </PageHeader>
      <Section title="Rows">
        <nav className="view-switch" aria-label="Rows shown">
          <Link href={path} aria-current={failedOnly ? undefined : "page"}>
            All rows ({job.results.length})
          </Link>
          <Link href={`${path}?failed=1`} aria-current={failedOnly ? "page" : undefined}>
            Failed only ({failed.length})
          </Link>
        </nav>
        {rows.length === 0 ? (
          <Empty>{failedOnly ? "No row failed." : "No rows processed yet."}</Empty>
        ) : (
          <Table headers={["External user id", "Outcome", "Reason"]}>
            {rows.map((row) => (
              <tr key={row.external_user_id}>
                <td>
                  {row.user_exists ? (
                    <Link href={`/integrations/${integrationId}/users/${encodeURIComponent(row.external_user_id)}`}>
                      {row.external_user_id}
                    </Link>
                  ) : (
                    <span title="No user was created for this row">{row.external_user_id}</span>
                  )}
                </td>
                <td>
                  <Badge kind="importOutcome" value={row.outcome} />
                </td>
                <td className="import-error">
                  {row.error ? (
                    <>
                      {describeValue("errorCode", row.error.code)}: {row.error.message} <code>{row.error.code}</code>
                    </>
                  ) : (
                    "—"
                  )}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
    </>
  );
}
