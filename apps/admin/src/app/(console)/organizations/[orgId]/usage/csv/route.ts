import { csvResponse, usageCsv } from "@/components/usage/usage-csv";
import { usageDays } from "@/components/usage/usage-range";
import { load } from "@/lib/session";

/** The organization's usage per day as CSV (the usage page's "Export CSV"). */
export async function GET(request: Request, { params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  const days = usageDays(Object.fromEntries(new URL(request.url).searchParams));
  const report = await load((api) => api.staff.usage.organizationUsage.query({ organization_id: orgId, days }));
  return csvResponse(usageCsv(report), `usage-${orgId}-${report.from}-${report.to}.csv`);
}
