import Link from "next/link";
import { CopyableId } from "@/components/copyable-id";
import { Empty, PageHeader, ReadOnlyNote, Section, Table, Time } from "@/components/ui";
import { isAdmin } from "@/lib/current-staff";
import { load } from "@/lib/session";
import { CreateOrganizationForm } from "./create-organization-form";

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
      <Section title="Create an organization">{admin ? <CreateOrganizationForm existingNames={organizations.map((org) => org.name)} /> : <ReadOnlyNote />}</Section>
    </>
  );
}
