import { CopyButton } from "@/components/copy-button";
import { ListRefusal } from "@/components/list-refusal";
import { Pagination } from "@/components/pagination";
import { Badge, Empty, Section, Table, Time } from "@/components/ui";
import { isAdmin } from "@/lib/current-staff";
import { pagePosition } from "@/lib/paging";
import { loadOrRefusal } from "@/lib/session";
import Link from "next/link";

import { ImportCsvForm } from "./import-csv-form";

const PAGE_SIZE = 25;

/** Bulk imports, newest first, with their progress. */
export default async function ImportsPage({
  params,
  searchParams,
}: {
  params: Promise<{ integrationId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { integrationId } = await params;
  const position = pagePosition(await searchParams);
  const result = await loadOrRefusal((api) =>
    api.staff.partnerImports.list.query({ integration_id: integrationId, cursor: position.cursor, limit: PAGE_SIZE }),
  );
  const { imports, next_cursor, previous_cursor, total } = result.ok
    ? result.value
    : { imports: [], next_cursor: null, previous_cursor: null, total: 0 };
  const admin = await isAdmin();
  return (
    <>
      <Section title="Imports">
        {!result.ok ? (
          <ListRefusal refusal={result} firstPage={`/integrations/${integrationId}/imports`} />
        ) : imports.length === 0 ? (
          <Empty>
            No imports yet: partners start them through the API{admin ? ", or import a CSV file below" : ""}.
          </Empty>
        ) : (
          <Table headers={["Job", "Status", "Processed", "Failed rows", "Started", "Completed"]}>
            {imports.map((job) => (
              <tr key={job.job_id}>
                <td>
                  <Link href={`/integrations/${integrationId}/imports/${job.job_id}`}>
                    <code>{job.job_id}</code>
                  </Link>{" "}
                  <CopyButton value={job.job_id} name={`Copy ${job.job_id}`} compact />
                </td>
                <td>
                  <Badge kind="importStatus" value={job.status} />
                </td>
                <td>
                  {job.processed} of {job.total}
                </td>
                <td>{job.failed}</td>
                <td>
                  <Time iso={job.created_at} />
                </td>
                <td>
                  <Time iso={job.completed_at} />
                </td>
              </tr>
            ))}
          </Table>
        )}
        {result.ok ? (
          <Pagination
            path={`/integrations/${integrationId}/imports`}
            filters={{}}
            position={position}
            pageSize={PAGE_SIZE}
            shown={imports.length}
            total={total}
            nextCursor={next_cursor}
            previousCursor={previous_cursor}
          />
        ) : null}
      </Section>
      {admin ? (
        <Section title="Import from a CSV file">
          <ImportCsvForm integrationId={integrationId} />
        </Section>
      ) : null}
    </>
  );
}
