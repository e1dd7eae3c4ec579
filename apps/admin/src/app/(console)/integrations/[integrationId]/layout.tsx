import { organizationTrail } from "@/components/breadcrumbs";
import { CopyableId } from "@/components/copyable-id";
import { PathBreadcrumbs } from "@/components/path-breadcrumbs";
import { Tabs } from "@/components/tabs";
import { Badge, PageHeader } from "@/components/ui";
import { load } from "@/lib/session";
import type { ReactNode } from "react";

export default async function IntegrationLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ integrationId: string }>;
}) {
  const { integrationId } = await params;
  const integration = await load((api) => api.staff.integrations.get.query({ id: integrationId }));
  const org = await load((api) => api.staff.organizations.get.query({ id: integration.organization_id }));
  const base = `/integrations/${integration.id}`;
  const trail = [
    ...organizationTrail(org),
    { label: "Integrations", href: `/organizations/${org.id}/integrations` },
    { label: integration.slug, href: base },
  ];
  return (
    <>
      <PathBreadcrumbs
        trail={trail}
        base={base}
        sections={{
          users: { label: "Users", href: base },
          teams: { label: "Teams" },
          imports: { label: "Imports", itemPrefix: "Import " },
          settings: { label: "Settings and aliases" },
        }}
      />
      <PageHeader title={`Integration ${integration.slug}`}>
        <p className="hint">
          <Badge value={integration.status} /> <CopyableId value={integration.id} />
          {integration.aliases.length ? ` · Aliases: ${integration.aliases.map((alias) => alias.slug).join(", ")}` : ""}
        </p>
      </PageHeader>
      <Tabs
        tabs={[
          { href: base, label: "Users", exact: true, also: [`${base}/users/`] },
          { href: `${base}/teams`, label: "Teams" },
          { href: `${base}/imports`, label: "Imports" },
          { href: `${base}/settings`, label: "Settings and aliases" },
        ]}
      />
      {children}
    </>
  );
}
