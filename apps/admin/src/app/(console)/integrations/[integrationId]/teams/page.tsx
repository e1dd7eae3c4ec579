import Link from "next/link";
import { Badge, Empty, Pager, Section, Table } from "../../../../../components/ui";
import { formatTime, param, queryString } from "../../../../../lib/format";
import { load } from "../../../../../lib/session";

/** Teams, read only (partners own them through the API), with their member counts. */
export default async function TeamsPage({
  params,
  searchParams,
}: {
  params: Promise<{ integrationId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { integrationId } = await params;
  const query = await searchParams;
  const status = (["active", "archived"] as const).find((value) => value === param(query, "status"));
  const cursor = param(query, "cursor");
  const page = await load((api) => api.staff.partnerTeams.list.query({ integration_id: integrationId, status, cursor }));
  const base = `/integrations/${integrationId}`;
  return (
    <Section title="Teams">
      <form method="get" action={`${base}/teams`} className="form form-inline filters" role="search" aria-label="Filter teams">
        <div className="field">
          <label htmlFor="team-status">Status</label>
          <select id="team-status" name="status" defaultValue={status ?? ""}>
            <option value="">all</option>
            <option value="active">active</option>
            <option value="archived">archived</option>
          </select>
        </div>
        <button type="submit" className="button">
          Filter
        </button>
      </form>
      {page.teams.length === 0 ? (
        <Empty>No teams{status ? ` with status ${status}` : ""}.</Empty>
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
              <td>{formatTime(team.created_at)}</td>
            </tr>
          ))}
        </Table>
      )}
      <Pager path={`${base}/teams`} filters={{ status }} cursor={cursor} nextCursor={page.next_cursor} />
    </Section>
  );
}
