import { requestLogFilters, requestLogQuery, RequestLogSection } from "@/components/usage/request-log-section";
import { param } from "@/lib/format";
import { loadOrRefusal } from "@/lib/session";

const PAGE_SIZE = 50;

/** Every logged /v1 request of the organization's keys, newest first, filtered in the URL. */
export default async function OrganizationRequestsPage({
  params,
  searchParams,
}: {
  params: Promise<{ orgId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { orgId } = await params;
  const query = await searchParams;
  const filters = requestLogFilters(query);
  const cursor = param(query, "cursor");
  const result = await loadOrRefusal((api) =>
    api.staff.usage.requestLog.query({ organization_id: orgId, ...requestLogQuery(filters), cursor, limit: PAGE_SIZE }),
  );
  return (
    <RequestLogSection
      path={`/organizations/${orgId}/requests`}
      filters={filters}
      cursor={cursor}
      result={result}
      showKey
    />
  );
}
