import { csvResponse, usageCsv } from "@/components/usage/usage-csv";
import { usageDays } from "@/components/usage/usage-range";
import { load } from "@/lib/session";

/** One key's usage per day as CSV. */
export async function GET(request: Request, { params }: { params: Promise<{ keyId: string }> }) {
  const { keyId } = await params;
  const days = usageDays(Object.fromEntries(new URL(request.url).searchParams));
  const report = await load((api) => api.staff.usage.keyUsage.query({ key_id: keyId, days }));
  return csvResponse(usageCsv(report), `usage-${keyId}-${report.from}-${report.to}.csv`);
}
