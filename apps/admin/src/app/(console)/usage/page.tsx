import { Empty, PageHeader, Section, Table } from "@/components/ui";
import { USAGE_RANGES, usageDays } from "@/components/usage/usage-range";
import styles from "@/components/usage/usage.module.css";
import { load } from "@/lib/session";
import Link from "next/link";

const number = (value: number) => value.toLocaleString("en-US");

/** Every organization's usage over the last 30 or 90 days, the busiest first. */
export default async function UsageOverviewPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const days = usageDays(await searchParams);
  const overview = await load((api) => api.staff.usage.usageOverview.query({ days }));
  return (
    <>
      <PageHeader title="Usage" />
      <Section title={`Organizations by requests, ${overview.from} to ${overview.to} (UTC)`}>
        <nav className={styles.toolbar} aria-label="Usage range">
          {USAGE_RANGES.map((range) => (
            <Link key={range} href={`/usage?days=${range}`} aria-current={range === days ? "page" : undefined}>
              Last {range} days
            </Link>
          ))}
        </nav>
        {overview.organizations.length === 0 ? (
          <Empty>No organizations yet.</Empty>
        ) : (
          <div className={styles.scroll}>
            <Table headers={["Organization", "Requests", "Answers", "Tokens used", "Upstream errors", "Rate-limited"]}>
              {overview.organizations.map((org) => (
                <tr key={org.id} data-org={org.id}>
                  <td>
                    <Link href={`/organizations/${org.id}/usage?days=${days}`}>{org.name}</Link>
                  </td>
                  <td>{number(org.requests)}</td>
                  <td>{number(org.answers)}</td>
                  <td>{number(org.tokens_used)}</td>
                  <td>{number(org.upstream_errors)}</td>
                  <td>{number(org.rate_limited)}</td>
                </tr>
              ))}
            </Table>
          </div>
        )}
      </Section>
    </>
  );
}
