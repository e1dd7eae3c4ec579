import Link from "next/link";
import { Badge, Empty, Pager, Section, Table } from "../../../../components/ui";
import { describeBlockingReasons, describeValue } from "../../../../lib/words";
import { formatTime, param } from "../../../../lib/format";
import { loadOrRefusal } from "../../../../lib/session";

type SearchParams = Record<string, string | string[] | undefined>;
const STATUSES = ["active", "disabled", "deleted"] as const;
/** Spec 4.10's counts, over the whole integration. */
const COUNTED = ["total", "active", "disabled", "deleted", "pending", "failed"] as const;

/**
 * Partner users with spec 4.10's filters and counts. The filters are a GET form, so they live
 * in the URL: a filtered page can be reloaded, bookmarked and shared.
 */
export default async function UsersPage({ params, searchParams }: { params: Promise<{ integrationId: string }>; searchParams: Promise<SearchParams> }) {
  const { integrationId } = await params;
  const query = await searchParams;
  const filters = {
    q: param(query, "q"),
    status: STATUSES.find((status) => status === param(query, "status")),
    team: param(query, "team"),
    unassigned: param(query, "unassigned") === "1" ? "1" : undefined,
  };
  const cursor = param(query, "cursor");
  const result = await loadOrRefusal((api) =>
    api.staff.partnerUsers.list.query({
      integration_id: integrationId,
      q: filters.q,
      status: filters.status,
      team_external_id: filters.unassigned ? undefined : filters.team,
      unassigned: filters.unassigned ? true : undefined,
      cursor,
      limit: 25,
    }),
  );
  const base = `/integrations/${integrationId}`;
  const page = result.ok ? result.value : { users: [], counts: { total: 0, active: 0, disabled: 0, deleted: 0, pending: 0, failed: 0 }, next_cursor: null };
  const { counts } = page;
  const filtered = Boolean(filters.q || filters.status || filters.team || filters.unassigned);
  return (
    <Section title="Users">
      <ul className="counts" aria-label="User counts">
        {COUNTED.map((name) => (
          <li key={name}>
            <strong>{counts[name]}</strong> {name}
          </li>
        ))}
      </ul>
      <form method="get" action={base} className="form form-inline filters" role="search" aria-label="Filter users">
        <div className="field">
          <label htmlFor="filter-q">External user id contains</label>
          <input id="filter-q" name="q" defaultValue={filters.q ?? ""} placeholder="lo-10" />
        </div>
        <div className="field">
          <label htmlFor="filter-status">Status</label>
          <select id="filter-status" name="status" defaultValue={filters.status ?? ""}>
            <option value="">Active and disabled</option>
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {describeValue("status", status)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="filter-team">Team (external id)</label>
          <input id="filter-team" name="team" defaultValue={filters.team ?? ""} />
        </div>
        <label className="check">
          <input type="checkbox" name="unassigned" value="1" defaultChecked={Boolean(filters.unassigned)} /> No team
        </label>
        <button type="submit" className="button">
          Filter
        </button>
        {filtered ? (
          <Link href={base} className="button button-secondary">
            Clear
          </Link>
        ) : null}
      </form>
      {!result.ok ? (
        <p className="form-error" role="alert">
          {result.message}
        </p>
      ) : page.users.length === 0 ? (
        <Empty>{filtered ? "No users match these filters." : "No users yet: partners provision them through the API."}</Empty>
      ) : (
        <Table headers={["External user id", "Status", "Provisioning", "Team", "Can launch", "Created"]}>
          {page.users.map((user) => (
            <tr key={user.external_user_id}>
              <td>
                <Link href={`${base}/users/${encodeURIComponent(user.external_user_id)}`}>{user.external_user_id}</Link>
              </td>
              <td>
                <Badge value={user.status} />
              </td>
              <td>
                <Badge kind="provisioning" value={user.provisioning_status} />
              </td>
              <td>{user.team?.external_team_id ?? "—"}</td>
              <td title={user.launch_eligibility.blocking_reasons.join(", ") || undefined}>
                {user.launch_eligibility.can_launch ? "Yes" : describeBlockingReasons(user.launch_eligibility.blocking_reasons)}
              </td>
              <td>{formatTime(user.created_at)}</td>
            </tr>
          ))}
        </Table>
      )}
      <Pager path={base} filters={filters} cursor={cursor} nextCursor={page.next_cursor} />
    </Section>
  );
}
