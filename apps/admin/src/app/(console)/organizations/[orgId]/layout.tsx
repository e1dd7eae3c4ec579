import type { ReactNode } from "react";
import { Tabs } from "../../../../components/tabs";
import { PageHeader } from "../../../../components/ui";
import { load } from "../../../../lib/session";

export default async function OrganizationLayout({ children, params }: { children: ReactNode; params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  const org = await load((api) => api.staff.organizations.get.query({ id: orgId }));
  const base = `/organizations/${org.id}`;
  return (
    <>
      <PageHeader title={org.name} back={{ href: "/organizations", label: "Organizations" }}>
        <p className="hint">
          <code>{org.id}</code>
        </p>
      </PageHeader>
      <Tabs
        tabs={[
          { href: base, label: "Tenant configuration", exact: true },
          { href: `${base}/integrations`, label: "Integrations" },
          { href: `${base}/keys`, label: "API keys" },
        ]}
      />
      {children}
    </>
  );
}
