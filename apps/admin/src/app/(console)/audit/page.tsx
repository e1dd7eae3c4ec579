import Link from "next/link";
import { Empty, PageHeader, Pager, Section, Table } from "../../../components/ui";
import { ListRefusal } from "../../../components/list-refusal";
import { formatTime, param, queryString } from "../../../lib/format";
import { loadOrRefusal } from "../../../lib/session";

/** Every staff mutation (and operator CLI action), newest first; filters stay in the URL. */
export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const filters = { actor: param(query, "actor"), action: param(query, "action") };
  const cursor = param(query, "cursor");
  const result = await loadOrRefusal((api) => api.staff.audit.list.query({ ...filters, cursor }));
  const page = result.ok ? result.value : { entries: [], next_cursor: null };
  return (
    <>
      <PageHeader title="Audit log" />
      <Section title="Entries">
        <form method="get" action="/audit" className="form form-inline filters" role="search" aria-label="Filter the audit log">
          <div className="field">
            <label htmlFor="audit-actor">Actor</label>
            <input id="audit-actor" name="actor" defaultValue={filters.actor ?? ""} placeholder="ana@example.com" />
          </div>
          <div className="field">
            <label htmlFor="audit-action">Action starts with</label>
            <input id="audit-action" name="action" defaultValue={filters.action ?? ""} placeholder="partner_user." />
          </div>
          <button type="submit" className="button">
            Filter
          </button>
          {filters.actor || filters.action ? (
            <Link href="/audit" className="button button-secondary">
              Clear
            </Link>
          ) : null}
        </form>
        {!result.ok ? (
          <ListRefusal refusal={result} firstPage={`/audit${queryString(filters)}`} />
        ) : page.entries.length === 0 ? (
          <Empty>No entries{filters.actor || filters.action ? " match these filters" : ""}.</Empty>
        ) : (
          <Table headers={["When", "Actor", "Action", "Target", "Details"]} className="audit">
            {page.entries.map((entry) => (
              <tr key={entry.id}>
                <td>{formatTime(entry.created_at)}</td>
                <td>{entry.actor}</td>
                <td>
                  <code>{entry.action}</code>
                </td>
                <td>
                  <code>{entry.target}</code>
                </td>
                <td>
                  <code className="details">{JSON.stringify(entry.details)}</code>
                </td>
              </tr>
            ))}
          </Table>
        )}
        <Pager path="/audit" filters={filters} cursor={result.ok ? cursor : undefined} nextCursor={page.next_cursor} labels={{ first: "Newest", next: "Older →" }} />
      </Section>
    </>
  );
}
