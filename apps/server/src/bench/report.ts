import os from "node:os";

import type { Stats } from "./stats";

/** One line of the results table: what was measured, beside the bare handler, against its target. */
export interface Row {
  measure: string;
  value: string;
  bare: string;
  comparison: string;
  target: string;
  /** Undefined where there is no target (reference lines). */
  met?: boolean;
}

const ms = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;
export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
export const throughput = (s: Stats) =>
  `${Math.round(s.rps).toLocaleString("en-US")} req/s, p50 ${ms(s.p50)}, p99 ${ms(s.p99)}${s.errors ? `, ${s.errors} errors` : ""}`;
export const latency = (s: Stats, high: "p95" | "p99" = "p99") =>
  `p50 ${ms(s.p50)}, ${high} ${ms(s[high])}${s.errors ? `, ${s.errors} errors` : ""}`;
export const difference = (a: number, b: number) => `${a - b >= 0 ? "+" : ""}${(a - b).toFixed(2)} ms`;
/** A change of RSS with its sign: "+5 MiB", "-19 MiB". */
export const mibChange = (bytes: number) => {
  const rounded = Math.round(bytes / 1024 / 1024);
  return `${rounded >= 0 ? "+" : "-"}${Math.abs(rounded)} MiB`;
};

/** The machine the numbers come from: they only mean something beside it. */
export function machine(database: string): string {
  const cpus = os.cpus();
  return `${cpus[0]?.model.trim() ?? "unknown CPU"}, ${cpus.length} cores, ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB RAM, Node ${process.versions.node}, ${database}`;
}

/** The results as a Markdown table (readable in a terminal too), ready to paste into the README. */
export function markdown(rows: readonly Row[]): string {
  const lines = [
    "| measure | value | bare node:http, same run | vs bare | target | met |",
    "|---|---|---|---|---|---|",
  ];
  for (const row of rows) {
    const met = row.met === undefined ? "" : row.met ? "yes" : "**no**";
    lines.push(`| ${row.measure} | ${row.value} | ${row.bare} | ${row.comparison} | ${row.target} | ${met} |`);
  }
  return lines.join("\n");
}
