import parsePrometheusTextFormat from "parse-prometheus-text-format";
import type { Histogram } from "prom-client";

/** One metric family as parse-prometheus-text-format reads it (prom2json's shape). */
export interface MetricFamily {
  name: string;
  type: string;
  metrics: Array<{
    labels?: Record<string, string>;
    value?: string;
    count?: string;
    sum?: string;
    buckets?: Record<string, string>;
  }>;
}

/** GET /metrics on the admin listener, parsed by a real Prometheus text-format parser. */
export async function scrapeMetrics(adminUrl: string): Promise<MetricFamily[]> {
  const response = await fetch(`${adminUrl}/metrics`);
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  if (!(response.headers.get("content-type") ?? "").startsWith("text/plain; version=0.0.4"))
    throw new Error(`not the Prometheus text format: ${response.headers.get("content-type")}`);
  return parsePrometheusTextFormat(await response.text()) as MetricFamily[];
}

/** The samples of `name` whose labels include `labels`. */
export function samples(families: MetricFamily[], name: string, labels: Record<string, string> = {}) {
  const family = families.find((candidate) => candidate.name === name);
  return (family?.metrics ?? []).filter((metric) =>
    Object.entries(labels).every(([label, value]) => metric.labels?.[label] === value),
  );
}

/** The value of the one sample of `name` with exactly these labels' values (0 when there is none, as Prometheus reads an absent counter). */
export function valueOf(families: MetricFamily[], name: string, labels: Record<string, string> = {}): number {
  const found = samples(families, name, labels);
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  const sample = found[0];
  return sample ? Number(sample.value ?? sample.count) : 0;
}

/**
 * A histogram's observation count for these labels, read from prom-client's registry itself:
 * parse-prometheus-text-format folds every labelled series of a histogram into one (it keeps
 * the buckets of the last and drops the labels), so the scraped text serves counters and gauges.
 */
export async function histogramCount(histogram: Histogram<string>, labels: Record<string, string>): Promise<number> {
  const { values } = await histogram.get();
  const count = values.filter(
    (value) =>
      value.metricName?.endsWith("_count") &&
      Object.entries(labels).every(([label, wanted]) => value.labels[label] === wanted),
  );
  return count.reduce((sum, value) => sum + value.value, 0);
}
