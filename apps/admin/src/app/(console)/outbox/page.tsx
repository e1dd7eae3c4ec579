import Link from "next/link";
import { Empty, PageHeader, Pager, Section, Table } from "../../../components/ui";
import { ListRefusal } from "../../../components/list-refusal";
import { formatTime, param, queryString } from "../../../lib/format";
import { loadOrRefusal } from "../../../lib/session";

/**
 * What the built-in site-account system would have emailed: password-setup links and
 * verifications. Staff use it to help a user whose email went missing.
 */
export default async function OutboxPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const email = param(query, "email");
  const cursor = param(query, "cursor");
  const result = await loadOrRefusal((api) => api.staff.outbox.list.query({ email, cursor }));
  const { notifications, next_cursor } = result.ok ? result.value : { notifications: [], next_cursor: null };
  return (
    <>
      <PageHeader title="Notification outbox" />
      <Section title="Notifications">
        <form method="get" action="/outbox" className="form form-inline filters" role="search" aria-label="Filter notifications">
          <div className="field">
            <label htmlFor="outbox-email">Recipient email</label>
            <input id="outbox-email" name="email" type="email" defaultValue={email ?? ""} />
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
          <Empty>{email ? `Nothing sent to ${email}.` : "Nothing has been sent yet."}</Empty>
        ) : (
          <Table headers={["Recipient", "Kind", "Link", "Used", "Sent"]}>
            {notifications.map((notification) => (
              <tr key={notification.id}>
                <td>{notification.recipient}</td>
                <td>{notification.kind.replaceAll("_", " ")}</td>
                <td>
                  {notification.link ? (
                    <a href={notification.link}>password setup link</a>
                  ) : notification.link_hidden ? (
                    <span className="hint">admins only</span>
                  ) : (
                    "—"
                  )}
                </td>
                <td>{notification.used ? "yes" : "no"}</td>
                <td>{formatTime(notification.created_at)}</td>
              </tr>
            ))}
          </Table>
        )}
        <Pager path="/outbox" filters={{ email }} cursor={result.ok ? cursor : undefined} nextCursor={next_cursor} labels={{ first: "Newest", next: "Older →" }} />
      </Section>
    </>
  );
}
