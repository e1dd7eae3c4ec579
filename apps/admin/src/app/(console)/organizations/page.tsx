import { CopyableId } from "@/components/copyable-id";
import { Empty, PageHeader, ReadOnlyNote, Section, Table, Time } from "@/components/ui";
import { isAdmin } from "@/lib/current-staff";
import { param, queryString } from "@/lib/format";
import { load } from "@/lib/session";
import Link from "next/link";

import { CreateOrganizationForm } from "./create-organization-form";
import { sameOrganizationName } from "./organization-names";

const PAGE_SIZE = 25;

/**
 * Every organization, searched by a part of its name or id and paged by number (the API hands
 * the console the whole list: lenders are counted in hundreds, and the create form's duplicate
 * warning needs every name anyway). `deleted` is the name of one just deleted, said once.
 */
export default async function OrganizationsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const query = await searchParams;
  const q = param(query, "q");
  const deleted = param(query, "deleted");
  const [organizations, admin] = await Promise.all([load((api) => api.staff.organizations.list.query()), isAdmin()]);
  const needle = q?.toLowerCase();
  const matching = needle
    ? organizations.filter((org) => org.name.toLowerCase().includes(needle) || org.id.toLowerCase().includes(needle))
    : organizations;
  const pages = Math.max(1, Math.ceil(matching.length / PAGE_SIZE));
  const pageNumber = Math.min(pages, Math.max(1, Number.parseInt(param(query, "page") ?? "1", 10) || 1));
  const shown = matching.slice((pageNumber - 1) * PAGE_SIZE, pageNumber * PAGE_SIZE);
  const link = (target: number) => `/organizations${queryString({ q, page: target > 1 ? String(target) : undefined })}`;
  const first = (pageNumber - 1) * PAGE_SIZE + 1;
  return (
    <>
      <PageHeader title="Organizations" />
      {deleted && !organizations.some((org) => sameOrganizationName(org.name, deleted)) ? (
        <p className="form-ok" role="status">
          Organization {deleted} deleted, with its revoked keys and disabled integrations.
        </p>
      ) : null}
      <Section title="All organizations">
        <form
          method="get"
          action="/organizations"
          className="form form-inline filters"
          role="search"
          aria-label="Search organizations"
        >
          <div className="field">
            <label htmlFor="organizations-q">Name or id contains</label>
            <input id="organizations-q" name="q" defaultValue={q ?? ""} />
          </div>
          <button type="submit" className="button">
            Search
          </button>
          {q ? (
            <Link href="/organizations" className="button button-secondary">
              Clear
            </Link>
          ) : null}
        </form>
        {shown.length === 0 ? (
          <Empty>
            {q ? `No organization's name or id contains “${q}”.` : "No organizations yet. Create the first one below."}
          </Empty>
        ) : (
          <Table headers={["Name", "Id", "Integrations", "Active keys", "Created"]}>
            {shown.map((org) => (
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
        <nav className="pager" aria-label="Pages">
          <span className="pager-range">
            {shown.length === 0
              ? "0 of 0"
              : `${first.toLocaleString("en-US")}–${(first + shown.length - 1).toLocaleString("en-US")} of ${matching.length.toLocaleString("en-US")}`}
          </span>
          {pageNumber > 1 ? (
            <Link href={link(pageNumber - 1)}>Previous</Link>
          ) : (
            <span className="pager-off" aria-disabled="true">
              Previous
            </span>
          )}
          {pageNumber < pages ? (
            <Link href={link(pageNumber + 1)}>Next</Link>
          ) : (
            <span className="pager-off" aria-disabled="true">
              Next
            </span>
          )}
        </nav>
      </Section>
      <Section title="Create an organization">
        {admin ? <CreateOrganizationForm existingNames={organizations.map((org) => org.name)} /> : <ReadOnlyNote />}
      </Section>
    </>
  );
}
