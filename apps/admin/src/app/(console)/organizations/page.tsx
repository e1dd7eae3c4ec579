import Link from "next/link";
import { ActionForm } from "../../../components/action-form";
import { CopyableId } from "../../../components/copyable-id";
import { Field, SubmitButton } from "../../../components/fields";
import { Empty, PageHeader, ReadOnlyNote, Section, Table, Time } from "../../../components/ui";
import { isAdmin } from "../../../lib/current-staff";
import { load } from "../../../lib/session";
import { createOrganizationAction } from "./actions";

export default async function OrganizationsPage() {
  const [organizations, admin] = await Promise.all([load((api) => api.staff.organizations.list.query()), isAdmin()]);
  return (
    <>
      <PageHeader title="Organizations" />
      <Section title="All organizations">
        {organizations.length === 0 ? (
          <Empty>No organizations yet. Create the first one below.</Empty>
        ) : (
          <Table headers={["Name", "Id", "Integrations", "Active keys", "Created"]}>
            {organizations.map((org) => (
              <tr key={org.id}>
                <td>
                  <Link href={`/organizations/${org.id}`}>{org.name}</Link>
                </td>
                <td>
                  <CopyableId value={org.id} />
                </td>
                <td>{org.integrations}</td>
                <td>{org.active_keys}</td>
                <td>
                  <Time iso={org.created_at} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
      <Section title="Create an organization">
        {admin ? (
          <ActionForm action={createOrganizationAction} label="Create an organization" className="form form-inline">
            <Field label="Name" name="name" required maxLength={200} placeholder="Acme Lending" />
            <SubmitButton>Create organization</SubmitButton>
          </ActionForm>
        ) : (
          <ReadOnlyNote />
        )}
      </Section>
    </>
  );
}
