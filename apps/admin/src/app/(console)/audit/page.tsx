import { CopyButton } from "@/components/copy-button";
import { ListRefusal } from "@/components/list-refusal";
import { Pagination } from "@/components/pagination";
import { Empty, PageHeader, Section, Table, Time } from "@/components/ui";
import { describeAction, detailEntries, operationHref, targetHref } from "@/lib/audit-entry";
import { param, queryString } from "@/lib/format";
import { pagePosition } from "@/lib/paging";
import { loadOrRefusal } from "@/lib/session";
import Link from "next/link";

const PAGE_SIZE = 50;

/**
 * Every staff mutation, staff sign-in attempt and operator CLI action, newest first; filters
 * stay in the URL. The actor filter matches a part of the actor, any case.
 */
export default async function AuditPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const query = await searchParams;
  const filters = { actor: param(query, "actor"), action: param(query, "action") };
  const position = pagePosition(query);
  const result = await loadOrRefusal((api) =>
    api.staff.audit.list.query({ ...filters, cursor: position.cursor, limit: PAGE_SIZE }),
  );
  const page = result.ok ? result.value : { entries: [], next_cursor: null, previous_cursor: null, total: 0 };
  return (
    <>
      <PageHeader title="Audit log" />
      <Section title="Entries">
        <form
          method="get"
          action="/audit"
          className="form form-inline filters"
          role="search"
          aria-label="Filter the audit log"
        >
          <div className="field">
            <label htmlFor="audit-actor">Actor contains</label>
            <input id="audit-actor" name="actor" defaultValue={filters.actor ?? ""} placeholder="ana@" />
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
            {page.entries.map((entry) => {
              const href = targetHref(entry.action, entry.target, entry.details);
              const details = detailEntries(entry.details);
              return (
                <tr key={entry.id}>
                  <td className="nowrap">
                    <Time iso={entry.created_at} />
                  </td>
                  <td>{entry.actor}</td>
                  <td>
                    {describeAction(entry.action)}
                    <br />
                    <code className="hint">{entry.action}</code>
                  </td>
                  <td>
                    {href ? <Link href={href}>{entry.target}</Link> : <code>{entry.target}</code>}
                    {entry.organization ? (
                      <>
                        <br />
                        <span className="hint">
                          in <Link href={`/organizations/${entry.organization.id}`}>{entry.organization.name}</Link>
                        </span>
                      </>
                    ) : null}
                  </td>
                  <td>
                    {details.length ? (
                      <dl className="details">
                        {details.map(({ key, label, value }) => (
                          <div key={key}>
                            <dt>{label}</dt>
                            <dd>
                              {key === "operation_id" && value.startsWith("op_") ? (
                                <>
                                  <Link
                                    href={operationHref(entry.action, entry.target, entry.details, value)}
                                    data-operation-id={value}
                                  >
                                    <code>{value}</code>
                                  </Link>{" "}
                                  <CopyButton value={value} name={`Copy ${value}`} compact />
                                </>
                              ) : (
                                value
                              )}
                            </dd>
                          </div>
                        ))}
                      </dl>
                    ) : (
                      "—"
                    )}
                  </td>
                </tr>
              );
            })}
          </Table>
        )}
        {result.ok ? (
          <Pagination
            path="/audit"
            filters={filters}
            position={position}
            pageSize={PAGE_SIZE}
            shown={page.entries.length}
            total={page.total}
            nextCursor={page.next_cursor}
            previousCursor={page.previous_cursor}
          />
        ) : null}
      </Section>
    </>
  );
}
