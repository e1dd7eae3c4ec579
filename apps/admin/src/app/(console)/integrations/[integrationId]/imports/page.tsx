import Link from "next/link";
import { Badge, Empty, Section, Table } from "../../../../../components/ui";
import { formatTime } from "../../../../../lib/format";
import { load } from "../../../../../lib/session";

/** Bulk imports, newest first, with their progress. */
export default async function ImportsPage({ params }: { params: Promise<{ integrationId: string }> }) {
  const { integrationId } = await params;
  const imports = await load((api) => api.staff.partnerImports.list.query({ integration_id: integrationId }));
  return (
    <Section title="Imports">
      {imports.length === 0 ? (
        <Empty>No imports yet: partners start them with POST …/users/imports.</Empty>
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
                <Badge value={job.status} />
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
    </Section>
  );
}
