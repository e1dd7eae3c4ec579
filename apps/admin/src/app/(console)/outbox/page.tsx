import { ListRefusal } from "@/components/list-refusal";
import { Pagination } from "@/components/pagination";
import { Empty, PageHeader, Section, Table, Time } from "@/components/ui";
import { param, queryString } from "@/lib/format";
import { pagePosition } from "@/lib/paging";
import { loadOrRefusal } from "@/lib/session";
import { capitalise } from "@/lib/words";
import Link from "next/link";

/**
 * What the built-in site-account system would have emailed: password-setup links and
 * verifications. Staff use it to help a user whose email went missing. The filter matches a
 * part of the address, any case.
 */
const PAGE_SIZE = 50;

export default async function OutboxPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const query = await searchParams;
  const email = param(query, "email");
  const position = pagePosition(query);
  const result = await loadOrRefusal((api) =>
    api.staff.outbox.list.query({ email, cursor: position.cursor, limit: PAGE_SIZE }),
  );
  const { notifications, next_cursor, previous_cursor, total } = result.ok
    ? result.value
    : { notifications: [], next_cursor: null, previous_cursor: null, total: 0 };
  return (
    <>
      <PageHeader title="Notification outbox" />
      <Section title="Notifications">
        <form
          method="get"
          action="/outbox"
          className="form form-inline filters"
          role="search"
          aria-label="Filter notifications"
        >
          <div className="field">
            <label htmlFor="outbox-email">Recipient email contains</label>
            <input id="outbox-email" name="email" defaultValue={email ?? ""} placeholder="@acme.example" />
          </div>
          <button type="submit" className="button">
            Filter
          </button>
          {email ? (
            <Link href="/outbox" className="button button-secondary">
              Clear
            </Link>
          ) : null}
        </form>
        {!result.ok ? (
          <ListRefusal refusal={result} firstPage={`/outbox${queryString({ email })}`} />
        ) : notifications.length === 0 ? (
          <Empty>{email ? `Nothing sent to an address containing “${email}”.` : "Nothing has been sent yet."}</Empty>
        ) : (
          <Table headers={["Recipient", "Kind", "Link", "Used", "Sent"]}>
            {notifications.map((notification) => (
              <tr key={notification.id}>
                <td>{notification.recipient}</td>
                <td title={notification.kind}>{capitalise(notification.kind.replaceAll("_", " "))}</td>
                <td>
                  {notification.link ? (
                    <a href={notification.link}>Password setup link</a>
                  ) : notification.link_hidden ? (
                    <span className="hint">Admins only</span>
                  ) : (
                    "—"
                  )}
                </td>
                <td>{notification.used ? "Yes" : "No"}</td>
                <td>
                  <Time iso={notification.created_at} />
                </td>
              </tr>
            ))}
          </Table>
        )}
        {result.ok ? (
          <Pagination
            path="/outbox"
            filters={{ email }}
            position={position}
            pageSize={PAGE_SIZE}
            shown={notifications.length}
            total={total}
            nextCursor={next_cursor}
            previousCursor={previous_cursor}
          />
        ) : null}
      </Section>
    </>
  );
}
