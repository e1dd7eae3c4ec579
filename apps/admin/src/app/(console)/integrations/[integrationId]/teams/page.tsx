import { ListRefusal } from "@/components/list-refusal";
import { Pagination } from "@/components/pagination";
import { Badge, Empty, Section, Table, Time } from "@/components/ui";
import { param, queryString } from "@/lib/format";
import { pagePosition } from "@/lib/paging";
import { loadOrRefusal } from "@/lib/session";
import { describeValue } from "@/lib/words";
import Link from "next/link";

import { TEAM_STATUSES } from "@mga/api/closed-values";

const PAGE_SIZE = 50;

/** Teams, read only (partners own them through the API), with their member counts; searchable, filters in the URL. */
export default async function TeamsPage({
  params,
  searchParams,
}: {
  params: Promise<{ integrationId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { integrationId } = await params;
  const query = await searchParams;
  const status = TEAM_STATUSES.find((value) => value === param(query, "status"));
  const q = param(query, "q");
  const position = pagePosition(query);
  const result = await loadOrRefusal((api) =>
    api.staff.partnerTeams.list.query({
      integration_id: integrationId,
      status,
      q,
      cursor: position.cursor,
      limit: PAGE_SIZE,
    }),
  );
  const page = result.ok ? result.value : { teams: [], next_cursor: null, previous_cursor: null, total: 0 };
  const base = `/integrations/${integrationId}`;
  return (
    <Section title="Teams">
      <form
        method="get"
        action={`${base}/teams`}
        className="form form-inline filters"
        role="search"
        aria-label="Filter teams"
      >
        <div className="field">
          <label htmlFor="team-q">External id or name contains</label>
          <input id="team-q" name="q" defaultValue={q ?? ""} placeholder="officers" />
        </div>
        <div className="field">
          <label htmlFor="team-status">Status</label>
          <select id="team-status" name="status" defaultValue={status ?? ""}>
            <option value="">All</option>
            {TEAM_STATUSES.map((value) => (
              <option key={value} value={value}>
                {describeValue("status", value)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button">
          Filter
        </button>
        {q || status ? (
          <Link href={`${base}/teams`} className="button button-secondary">
            Clear
          </Link>
        ) : null}
      </form>
      {!result.ok ? (
        <ListRefusal refusal={result} firstPage={`${base}/teams${queryString({ status, q })}`} />
      ) : page.teams.length === 0 ? (
        <Empty>
          {q || status ? "No teams match these filters." : "No teams yet: partners create them through the API."}
        </Empty>
      ) : (
        <Table headers={["External team id", "Name", "Status", "Users", "Created"]}>
          {page.teams.map((team) => (
            <tr key={team.id}>
              <td>
                <Link href={`${base}${queryString({ team: team.external_team_id })}`}>{team.external_team_id}</Link>
              </td>
              <td>{team.name}</td>
              <td>
                <Badge value={team.status} />
              </td>
              <td>{team.user_count}</td>
              <td>
                <Time iso={team.created_at} />
              </td>
            </tr>
          ))}
        </Table>
      )}
      {result.ok ? (
        <Pagination
          path={`${base}/teams`}
          filters={{ status, q }}
          position={position}
          pageSize={PAGE_SIZE}
          shown={page.teams.length}
          total={page.total}
          nextCursor={page.next_cursor}
          previousCursor={page.previous_cursor}
        />
      ) : null}
    </Section>
  );
}
