import { Breadcrumbs, organizationTrail } from "@/components/breadcrumbs";
import { PageHeader } from "@/components/ui";
import { requestLogFilters, requestLogQuery, RequestLogSection } from "@/components/usage/request-log-section";
import { param } from "@/lib/format";
import { load, loadOrRefusal } from "@/lib/session";

const PAGE_SIZE = 50;

/** One key's logged /v1 requests, newest first, filtered in the URL. */
export default async function KeyRequestsPage({
  params,
  searchParams,
}: {
  params: Promise<{ keyId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { keyId } = await params;
  const query = await searchParams;
  const key = await load((api) => api.staff.keys.get.query({ id: keyId }));
  const org = await load((api) => api.staff.organizations.get.query({ id: key.organization_id }));
  const filters = requestLogFilters(query);
  const cursor = param(query, "cursor");
  const result = await loadOrRefusal((api) =>
    api.staff.usage.requestLog.query({
      organization_id: org.id,
      key_id: key.id,
      ...requestLogQuery(filters),
      cursor,
      limit: PAGE_SIZE,
    }),
  );
  return (
    <>
      <Breadcrumbs
        trail={[
          ...organizationTrail(org),
          { label: "API keys", href: `/organizations/${org.id}/keys` },
          { label: key.name, href: `/keys/${key.id}` },
          { label: "Request log" },
        ]}
      />
      <PageHeader title={`Requests of key ${key.name}`} />
      <RequestLogSection
        path={`/keys/${key.id}/requests`}
        filters={filters}
        cursor={cursor}
        result={result}
        showKey={false}
      />
    </>
  );
}
