// The package ships no types; its output is read through support/scrape-metrics.ts's MetricFamily.
declare module "parse-prometheus-text-format" {
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
