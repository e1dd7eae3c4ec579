import { Empty, Section, Table } from "@/components/ui";
import type { UsageReport } from "@/lib/api-types";
import Link from "next/link";

import { UsageCharts } from "./usage-charts";
import { USAGE_RANGES } from "./usage-range";
import styles from "./usage.module.css";

const number = (value: number) => value.toLocaleString("en-US");

/**
 * A usage report as the organization and key pages show it: the range switch (30 or 90 days) and
 * CSV export, totals, the charts, requests by route group and status class, and (organizations)
 * launches and active partner users per integration.
 */
export function UsageSection({ report, days, path }: { report: UsageReport; days: number; path: string }) {
  const { totals } = report;
  const chartDays = report.days.map((day) => ({
    date: day.date,
    requests: day.requests,
    answers: day.streamed_answers + day.json_answers,
    upstream_errors: day.upstream_errors,
    rate_limited: day.rate_limited,
    tokens_used: day.tokens_used,
  }));
  const groups = Object.entries(totals.by_route_group).sort(([, a], [, b]) => b - a);
  return (
    <Section title={`Usage, ${report.from} to ${report.to} (UTC)`}>
      <nav className={styles.toolbar} aria-label="Usage range">
        {USAGE_RANGES.map((range) => (
          <Link key={range} href={`${path}?days=${range}`} aria-current={range === days ? "page" : undefined}>
            Last {range} days
          </Link>
        ))}
        <a href={`${path}/csv?days=${days}`} download className="button button-secondary">
          Export CSV
        </a>
      </nav>
      <dl className={styles.totals} aria-label="Totals">
        {[
          ["Requests", totals.requests],
          ["Streamed answers", totals.streamed_answers],
          ["JSON answers", totals.json_answers],
          ["Tokens used", totals.tokens_used],
          ["Upstream errors", totals.upstream_errors],
          ["Rate-limited", totals.rate_limited],
        ].map(([label, value]) => (
          <div key={label} data-total={label}>
            <dt>{label}</dt>
            <dd>{number(value as number)}</dd>
          </div>
        ))}
      </dl>
      {totals.requests === 0 ? <Empty>No requests in these {days} days.</Empty> : null}
      <UsageCharts days={chartDays} />
      <div className={styles.breakdown}>
        <div className={styles.scroll}>
          <Table headers={["Route group", "Requests"]}>
            {groups.length === 0 ? (
              <tr>
                <td colSpan={2}>None</td>
              </tr>
            ) : (
              groups.map(([group, count]) => (
                <tr key={group}>
                  <td>{group}</td>
                  <td>{number(count)}</td>
                </tr>
              ))
            )}
          </Table>
        </div>
        <div className={styles.scroll}>
          <Table headers={["Status class", "Requests"]}>
            {Object.entries(totals.by_status_class).map(([name, count]) => (
              <tr key={name}>
                <td>{name}</td>
                <td>{number(count)}</td>
              </tr>
            ))}
          </Table>
        </div>
      </div>
      {report.integrations.length > 0 ? (
        <div className={styles.scroll}>
          <Table headers={["Integration", "Launches", "Active partner users"]}>
            {report.integrations.map((integration) => (
              <tr key={integration.integration}>
                <td>{integration.integration}</td>
                <td>{number(integration.launches)}</td>
                <td>{number(integration.active_users)}</td>
              </tr>
            ))}
          </Table>
        </div>
      ) : null}
    </Section>
  );
}
