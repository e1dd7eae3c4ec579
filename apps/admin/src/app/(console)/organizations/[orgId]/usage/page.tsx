import { usageDays } from "@/components/usage/usage-range";
import { UsageSection } from "@/components/usage/usage-section";
import { load } from "@/lib/session";

/** The organization's usage: every key's requests, answers and tokens per day, and its integrations' launches. */
export default async function OrganizationUsagePage({
  params,
  searchParams,
}: {
  params: Promise<{ orgId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { orgId } = await params;
  const days = usageDays(await searchParams);
  const report = await load((api) => api.staff.usage.organizationUsage.query({ organization_id: orgId, days }));
  return <UsageSection report={report} days={days} path={`/organizations/${orgId}/usage`} />;
}
