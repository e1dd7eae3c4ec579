import { ActionForm } from "@/components/action-form";
import { Field, SubmitButton } from "@/components/fields";
import { Badge, Empty, ReadOnlyNote, Section, Table } from "@/components/ui";
import { isAdmin } from "@/lib/current-staff";
import { load } from "@/lib/session";
import Link from "next/link";

import { createIntegrationAction } from "./actions";

export default async function IntegrationsPage({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  const [integrations, admin] = await Promise.all([
    load((api) => api.staff.integrations.list.query({ organization_id: orgId })),
    isAdmin(),
  ]);
  return (
    <>
      <Section title="Integrations">
        {integrations.length === 0 ? (
          <Empty>No integrations yet. A partner's LOS needs one before it can provision users.</Empty>
        ) : (
          <Table headers={["Slug", "Status", "Aliases", "Users"]}>
            {integrations.map((integration) => (
              <tr key={integration.id}>
                <td>
                  <Link href={`/integrations/${integration.id}`}>{integration.slug}</Link>
                </td>
                <td>
                  <Badge value={integration.status} />
                </td>
                <td>{integration.aliases.length ? integration.aliases.map((alias) => alias.slug).join(", ") : "—"}</td>
                <td>{integration.users}</td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
      <Section title="Create an integration">
        {admin ? (
          <ActionForm
            action={createIntegrationAction}
            label="Create an integration"
            className="form form-inline"
            resetOnSuccess
          >
            <input type="hidden" name="orgId" value={orgId} />
            <Field
              label="Slug"
              name="slug"
              required
              placeholder="acme-los"
              hint="Lowercase letters, digits, - and _; how partners name it in API paths."
            />
            <Field
              label="Aliases (optional)"
              name="aliases"
              placeholder="acme, acme-legacy"
              hint="Comma-separated public names; each resolves only for keys granted it."
            />
            <SubmitButton>Create integration</SubmitButton>
          </ActionForm>
        ) : (
          <ReadOnlyNote />
        )}
      </Section>
    </>
  );
}
