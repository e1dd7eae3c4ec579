import { ListRefusal } from "@/components/list-refusal";
import { Pagination } from "@/components/pagination";
import { Badge, Empty, Section, Table, Time } from "@/components/ui";
import { isAdmin } from "@/lib/current-staff";
import { param, queryString } from "@/lib/format";
import { pagePosition } from "@/lib/paging";
import { load, loadOrRefusal } from "@/lib/session";
import { describeBlockingReasons, describeValue } from "@/lib/words";
import Link from "next/link";

import { USER_SORTS, USER_STATUSES } from "@mga/api/closed-values";

import { AddUserForm } from "./add-user-form";

type SearchParams = Record<string, string | string[] | undefined>;
const PAGE_SIZE = 25;
/** Spec 4.10's counts, over the whole integration. */
const COUNTED = ["total", "active", "disabled", "deleted", "pending", "failed"] as const;
/** The orders offered; creation (oldest first) is the default and stays out of the URL. */
const SORT_LABELS: Record<(typeof USER_SORTS)[number], string> = {
  created: "Created (oldest first)",
  external_id: "External user id",
  name: "Name",
  status: "Status",
};

/**
 * Partner users with spec 4.10's filters and counts. The filters are a GET form, so they live
 * in the URL: a filtered page can be reloaded, bookmarked and shared.
 */
export default async function UsersPage({
  params,
  searchParams,
}: {
  params: Promise<{ integrationId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const { integrationId } = await params;
  const query = await searchParams;
  const filters = {
    q: param(query, "q"),
    status: USER_STATUSES.find((status) => status === param(query, "status")),
    team: param(query, "team"),
    unassigned: param(query, "unassigned") === "1" ? "1" : undefined,
    sort: USER_SORTS.find((sort) => sort !== "created" && sort === param(query, "sort")),
  };
  const position = pagePosition(query);
  const result = await loadOrRefusal((api) =>
    api.staff.partnerUsers.list.query({
      integration_id: integrationId,
      q: filters.q,
      status: filters.status,
      team_external_id: filters.unassigned ? undefined : filters.team,
      unassigned: filters.unassigned ? true : undefined,
      sort: filters.sort,
      cursor: position.cursor,
      limit: PAGE_SIZE,
    }),
  );
  // The counts cover the whole integration (spec 4.10), so a list carries them whatever its
  // filter; a refused filter has no list, and then they are read on their own.
  const counts = result.ok
    ? result.value.counts
    : await load((api) => api.staff.partnerUsers.counts.query({ integration_id: integrationId }));
  const base = `/integrations/${integrationId}`;
  const page = result.ok ? result.value : { users: [], next_cursor: null, previous_cursor: null, total: 0 };
  const admin = await isAdmin();
  // Staff may search by email, but the users filter (spec 4.10's, as partners have it) may not: point to the search that does.
  const emailSearch = !result.ok && filters.q?.includes("@") ? filters.q : undefined;
  const filtered = Boolean(filters.q || filters.status || filters.team || filters.unassigned);
  return (
    <>
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
              {USER_STATUSES.map((status) => (
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
          <div className="field">
            <label htmlFor="filter-sort">Sort by</label>
            <select id="filter-sort" name="sort" defaultValue={filters.sort ?? "created"}>
              {USER_SORTS.map((sort) => (
                <option key={sort} value={sort}>
                  {SORT_LABELS[sort]}
                </option>
              ))}
            </select>
          </div>
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
          <>
            <ListRefusal refusal={result} firstPage={`${base}${queryString(filters)}`} />
            {emailSearch ? (
              <p className="hint">
                Emails are found by the console&apos;s search:{" "}
                <Link href={`/search?q=${encodeURIComponent(emailSearch)}`}>Search the console for {emailSearch}</Link>
              </p>
            ) : null}
          </>
        ) : page.users.length === 0 ? (
          <Empty>
            {filtered
              ? "No users match these filters."
              : `No users yet: partners provision them through the API${admin ? ", or add one below" : ""}.`}
          </Empty>
        ) : (
          <Table
            headers={["External user id", "Name", "Email", "Status", "Provisioning", "Team", "Can launch", "Created"]}
          >
            {page.users.map((user) => (
              <tr key={user.external_user_id}>
                <td>
                  <Link href={`${base}/users/${encodeURIComponent(user.external_user_id)}`}>
                    {user.external_user_id}
                  </Link>
                </td>
                <td>{user.contact.name ?? "—"}</td>
                <td>{user.contact.email}</td>
                <td>
                  <Badge value={user.status} />
                </td>
                <td>
                  <Badge kind="provisioning" value={user.provisioning_status} />
                </td>
                <td>{user.team?.external_team_id ?? "—"}</td>
                <td title={user.launch_eligibility.blocking_reasons.join(", ") || undefined}>
                  {user.launch_eligibility.can_launch
                    ? "Yes"
                    : describeBlockingReasons(user.launch_eligibility.blocking_reasons)}
                </td>
                <td>
                  <Time iso={user.created_at} />
                </td>
              </tr>
            ))}
          </Table>
        )}
        {result.ok ? (
          <Pagination
            path={base}
            filters={filters}
            position={position}
            pageSize={PAGE_SIZE}
            shown={page.users.length}
            total={page.total}
            nextCursor={page.next_cursor}
            previousCursor={page.previous_cursor}
          />
        ) : null}
      </Section>
      {admin ? (
        <Section title="Add a user">
          <AddUserForm integrationId={integrationId} />
        </Section>
      ) : null}
    </>
  );
}
