import Link from "next/link";
import { Empty, PageHeader, Pager, Section, Table } from "../../../components/ui";
import { formatTime, param } from "../../../lib/format";
import { load } from "../../../lib/session";
import { capitalise } from "../../../lib/words";

/**
 * What the built-in site-account system would have emailed: password-setup links and
 * verifications. Staff use it to help a user whose email went missing.
 */
export default async function OutboxPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const email = param(query, "email");
  const cursor = param(query, "cursor");
  const { notifications, next_cursor } = await load((api) => api.staff.outbox.list.query({ email, cursor }));
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
        {notifications.length === 0 ? (
          <Empty>{email ? `Nothing sent to ${email}.` : "Nothing has been sent yet."}</Empty>
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
                <td>{formatTime(notification.created_at)}</td>
              </tr>
            ))}
          </Table>
        )}
        <Pager path="/outbox" filters={{ email }} cursor={cursor} nextCursor={next_cursor} labels={{ first: "Newest", next: "Older →" }} />
      </Section>
    </>
  );
}
