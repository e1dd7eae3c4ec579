"use client";

import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";

import styles from "./usage.module.css";

export interface ChartDay {
  date: string;
  requests: number;
  answers: number;
  upstream_errors: number;
  rate_limited: number;
  tokens_used: number;
}

/** Day labels as MM-DD: the range and its year are in the section's heading. */
const shortDay = (date: string) => date.slice(5);

/**
 * The usage time series (recharts): requests, answers and refusals per day as lines, tokens per
 * day as bars. Colors come from the console's CSS variables, so both color schemes read well.
 */
export function UsageCharts({ days }: { days: ChartDay[] }) {
  return (
    <>
      <h3 className={styles.chartTitle}>Requests and answers per day</h3>
      <div
        className={styles.chart}
        data-chart="requests"
        role="img"
        aria-label={`Requests and answers per day, ${days.length} days`}
      >
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={days} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
            <XAxis dataKey="date" tickFormatter={shortDay} stroke="var(--muted)" minTickGap={16} />
            <YAxis allowDecimals={false} stroke="var(--muted)" width={48} />
            <Tooltip contentStyle={{ background: "var(--panel)", border: "1px solid var(--border)" }} />
            <Legend />
            <Line
              type="monotone"
              dataKey="requests"
              name="Requests"
              stroke="var(--link)"
              dot={false}
              isAnimationActive={false}
            />
            <Line
              type="monotone"
              dataKey="answers"
              name="Answers"
              stroke="var(--good)"
              dot={false}
              isAnimationActive={false}
            />
            <Line
              type="monotone"
              dataKey="upstream_errors"
              name="Upstream errors"
              stroke="var(--bad)"
              dot={false}
              isAnimationActive={false}
            />
            <Line
              type="monotone"
              dataKey="rate_limited"
              name="Rate-limited"
              stroke="var(--warn)"
              dot={false}
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <h3 className={styles.chartTitle}>Tokens used per day</h3>
      <div
        className={styles.chart}
        data-chart="tokens"
        role="img"
        aria-label={`Tokens used per day, ${days.length} days`}
      >
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={days} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
            <XAxis dataKey="date" tickFormatter={shortDay} stroke="var(--muted)" minTickGap={16} />
            <YAxis allowDecimals={false} stroke="var(--muted)" width={48} />
            <Tooltip contentStyle={{ background: "var(--panel)", border: "1px solid var(--border)" }} />
            <Bar dataKey="tokens_used" name="Tokens used" fill="var(--link)" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
    </>
  );
}
