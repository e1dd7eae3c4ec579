import { organizationTrail } from "@/components/breadcrumbs";
import { CopyableId } from "@/components/copyable-id";
import { PathBreadcrumbs } from "@/components/path-breadcrumbs";
import { Tabs } from "@/components/tabs";
import { PageHeader } from "@/components/ui";
import { load } from "@/lib/session";
import type { ReactNode } from "react";

export default async function OrganizationLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ orgId: string }>;
}) {
  const { orgId } = await params;
  const org = await load((api) => api.staff.organizations.get.query({ id: orgId }));
  const base = `/organizations/${org.id}`;
  return (
    <>
      <PathBreadcrumbs
        trail={organizationTrail(org)}
        base={base}
        sections={{
          integrations: { label: "Integrations" },
          keys: { label: "API keys" },
          usage: { label: "Usage" },
          requests: { label: "Request log" },
          webhooks: { label: "Webhooks" },
        }}
      />
      <PageHeader title={org.name}>
        <p className="hint">
          <CopyableId value={org.id} />
        </p>
      </PageHeader>
      <Tabs
        tabs={[
          { href: base, label: "Tenant configuration", exact: true },
          { href: `${base}/integrations`, label: "Integrations" },
          { href: `${base}/keys`, label: "API keys" },
          { href: `${base}/webhooks`, label: "Webhooks" },
          { href: `${base}/usage`, label: "Usage" },
          { href: `${base}/requests`, label: "Request log" },
        ]}
      />
      {children}
    </>
  );
}
