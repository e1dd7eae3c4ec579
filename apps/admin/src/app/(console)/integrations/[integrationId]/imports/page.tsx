import Link from "next/link";
import { Badge, Empty, Section } from "../../../../../components/ui";
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
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Job</th>
              <th scope="col">Status</th>
              <th scope="col">Processed</th>
              <th scope="col">Failed rows</th>
              <th scope="col">Started</th>
              <th scope="col">Completed</th>
            </tr>
          </thead>
          <tbody>
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
          </tbody>
        </table>
      )}
    </Section>
  );
}
