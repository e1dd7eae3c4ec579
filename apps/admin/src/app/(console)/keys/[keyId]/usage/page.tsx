import { Breadcrumbs, organizationTrail } from "@/components/breadcrumbs";
import { PageHeader } from "@/components/ui";
import { usageDays } from "@/components/usage/usage-range";
import { UsageSection } from "@/components/usage/usage-section";
import { load } from "@/lib/session";

/** One key's usage per day. */
export default async function KeyUsagePage({
  params,
  searchParams,
}: {
  params: Promise<{ keyId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { keyId } = await params;
  const days = usageDays(await searchParams);
  const key = await load((api) => api.staff.keys.get.query({ id: keyId }));
  const [org, report] = await Promise.all([
    load((api) => api.staff.organizations.get.query({ id: key.organization_id })),
    load((api) => api.staff.usage.keyUsage.query({ key_id: key.id, days })),
  ]);
  return (
    <>
      <Breadcrumbs
        trail={[
          ...organizationTrail(org),
          { label: "API keys", href: `/organizations/${org.id}/keys` },
          { label: key.name, href: `/keys/${key.id}` },
          { label: "Usage" },
        ]}
      />
      <PageHeader title={`Usage of key ${key.name}`} />
      <UsageSection report={report} days={days} path={`/keys/${key.id}/usage`} />
    </>
  );
}
