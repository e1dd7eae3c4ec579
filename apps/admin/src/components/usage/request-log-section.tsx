import { ListRefusal } from "@/components/list-refusal";
import { Empty, Section, Table, Time } from "@/components/ui";
import type { LoggedRequest } from "@/lib/api-types";
import { param, queryString } from "@/lib/format";
import type { Refusal } from "@/lib/session";
import Link from "next/link";

import { ResourceLink } from "./resource-link";
import styles from "./usage.module.css";

/** The filters of a request log page, as they stay in its URL. */
export interface RequestLogFilters {
  status?: string | undefined;
  route?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function requestLogFilters(query: Record<string, string | string[] | undefined>): RequestLogFilters {
  return {
    status: param(query, "status"),
    route: param(query, "route"),
    from: param(query, "from"),
    to: param(query, "to"),
  };
}

/**
 * The filters as the API takes them: a status class ("4xx") or an exact status; a route template;
 * UTC days, `to` inclusive. A value that is not one (a typed URL) is sent as is, so the API's 400
 * names it and the page shows the refusal beside the filters.
 */
export function requestLogQuery(filters: RequestLogFilters) {
  const status = filters.status && /^\d{3}$/.test(filters.status) ? Number(filters.status) : filters.status;
  const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();
  return {
    status: status as number | "2xx" | "3xx" | "4xx" | "5xx" | undefined,
    route: filters.route,
    since: filters.from ? (DAY.test(filters.from) ? `${filters.from}T00:00:00Z` : filters.from) : undefined,
    until: filters.to
      ? DAY.test(filters.to) && !Number.isNaN(Date.parse(filters.to))
        ? nextDay(filters.to)
        : filters.to
      : undefined,
  };
}

type Page = { requests: LoggedRequest[]; next_cursor: string | null; routes: string[] };

/** A request log (organization or key): filters by status, route and day, newest first, with the next page's link. */
export function RequestLogSection({
  path,
  filters,
  cursor,
  result,
  showKey,
}: {
  path: string;
  filters: RequestLogFilters;
  cursor: string | undefined;
  result: { ok: true; value: Page } | ({ ok: false } & Refusal);
  showKey: boolean;
}) {
  const page = result.ok ? result.value : { requests: [], next_cursor: null, routes: [] };
  const filtered = Boolean(filters.status || filters.route || filters.from || filters.to);
  return (
    <Section title="Request log">
      <p className="hint">
        Every /v1 request and stream of the last days (time, status, latency, error code); never bodies, keys or
        personal data.
      </p>
      <form
        method="get"
        action={path}
        className="form form-inline filters"
        role="search"
        aria-label="Filter the request log"
      >
        <div className="field">
          <label htmlFor="log-status">Status</label>
          <select id="log-status" name="status" defaultValue={filters.status ?? ""}>
            <option value="">Any</option>
            <option value="2xx">2xx (success)</option>
            <option value="4xx">4xx (refused)</option>
            <option value="5xx">5xx (failed)</option>
            {filters.status && !["2xx", "4xx", "5xx"].includes(filters.status) ? (
              <option value={filters.status}>{filters.status}</option>
            ) : null}
          </select>
        </div>
        <div className={`field ${styles.routeField}`}>
          <label htmlFor="log-route">Route</label>
          <select id="log-route" name="route" defaultValue={filters.route ?? ""}>
            <option value="">Any</option>
            {[...new Set([...page.routes, ...(filters.route ? [filters.route] : [])])].map((route) => (
              <option key={route} value={route}>
                {route}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="log-from">From (UTC day)</label>
          <input id="log-from" name="from" type="date" defaultValue={filters.from ?? ""} />
        </div>
        <div className="field">
          <label htmlFor="log-to">To (UTC day)</label>
          <input id="log-to" name="to" type="date" defaultValue={filters.to ?? ""} />
        </div>
        <button type="submit" className="button">
          Filter
        </button>
        {filtered ? (
          <Link href={path} className="button button-secondary">
            Clear
          </Link>
        ) : null}
      </form>
      {!result.ok ? (
        <ListRefusal refusal={result} firstPage={`${path}${queryString({ ...filters })}`} />
      ) : page.requests.length === 0 ? (
        <Empty>{filtered ? "No requests match these filters." : "No requests logged yet."}</Empty>
      ) : (
        <div className={styles.scroll}>
          <Table
            headers={["When", "Request id", showKey && "Key", "Route", "Status", "Latency", "Error", "Touched"]}
            className={styles.log}
          >
            {page.requests.map((entry) => (
              <tr key={entry.request_id} data-request={entry.request_id}>
                <td className="nowrap">
                  <Time iso={entry.at} />
                </td>
                <td>
                  <Link href={`/requests/${entry.request_id}`}>
                    <code>{entry.request_id}</code>
                  </Link>
                </td>
                {showKey ? (
                  <td>{entry.key_id ? <Link href={`/keys/${entry.key_id}`}>{entry.key_id}</Link> : "—"}</td>
                ) : null}
                <td>
                  <code>{entry.route}</code>
                  {entry.streamed ? <span className="hint"> (stream)</span> : null}
                </td>
                <td>{entry.status}</td>
                <td className="nowrap">{entry.latency_ms.toLocaleString("en-US")} ms</td>
                <td>{entry.error_code ? <code>{entry.error_code}</code> : "—"}</td>
                <td>
                  <ResourceLink resourceId={entry.resource_id} keyId={entry.key_id} />
                </td>
              </tr>
            ))}
          </Table>
        </div>
      )}
      <nav className="pager" aria-label="Pages">
        {cursor ? <Link href={`${path}${queryString({ ...filters })}`}>Newest</Link> : null}
        {page.next_cursor ? (
          <Link href={`${path}${queryString({ ...filters, cursor: page.next_cursor })}`}>Older</Link>
        ) : null}
      </nav>
    </Section>
  );
}
