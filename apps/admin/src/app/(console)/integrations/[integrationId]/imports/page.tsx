import Link from "next/link";
import { Badge, Empty, Pager, Section, Table } from "../../../../../components/ui";
import { formatTime, param } from "../../../../../lib/format";
import { load } from "../../../../../lib/session";

/** Bulk imports, newest first, with their progress. */
export default async function ImportsPage({
  params,
  searchParams,
}: {
  params: Promise<{ integrationId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { integrationId } = await params;
  const cursor = param(await searchParams, "cursor");
  const { imports, next_cursor } = await load((api) => api.staff.partnerImports.list.query({ integration_id: integrationId, cursor }));
  return (
    <Section title="Imports">
      {imports.length === 0 ? (
        <Empty>No imports yet: partners start them through the API.</Empty>
      ) : (
        <Table headers={["Job", "Status", "Processed", "Failed rows", "Started", "Completed"]}>
          {imports.map((job) => (
            <tr key={job.job_id}>
              <td>
                <Link href={`/integrations/${integrationId}/imports/${job.job_id}`}>
                  <code>{job.job_id}</code>
                </Link>
              </td>
              <td>
                <Badge kind="importStatus" value={job.status} />
              </td>
              <td>
                {job.processed} of {job.total}
              </td>
              <td>{job.failed}</td>
              <td>{formatTime(job.created_at)}</td>
              <td>{formatTime(job.completed_at)}</td>
            </tr>
          ))}
        </Table>
      )}
      <Pager path={`/integrations/${integrationId}/imports`} filters={{}} cursor={cursor} nextCursor={next_cursor} labels={{ first: "Newest", next: "Older →" }} />
    </Section>
  );
}
