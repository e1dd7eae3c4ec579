import type { ReactNode } from "react";
import { Tabs } from "../../../../components/tabs";
import { Badge, PageHeader } from "../../../../components/ui";
import { load } from "../../../../lib/session";

export default async function IntegrationLayout({ children, params }: { children: ReactNode; params: Promise<{ integrationId: string }> }) {
  const { integrationId } = await params;
  const integration = await load((api) => api.staff.integrations.get.query({ id: integrationId }));
  const base = `/integrations/${integration.id}`;
  return (
    <>
      <PageHeader title={`Integration ${integration.slug}`} back={{ href: `/organizations/${integration.organization_id}/integrations`, label: "Integrations" }}>
        <p className="hint">
          <Badge value={integration.status} /> <code>{integration.id}</code>
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
