import cluster from "node:cluster";
import { AggregatorRegistry, type Registry } from "prom-client";

/*
 * GET /metrics with WORKERS > 1. The admin listener runs in every worker and the primary deals
 * each scrape to one of them; a scrape must still describe the whole server, or Prometheus
 * would see counters jump between two processes' values. So the worker that gets the scrape
 * asks the primary, which collects every worker's registry with prom-client's
 * AggregatorRegistry (counters and histograms summed; each gauge by its `aggregator`).
 */
interface MetricsRequest {
  type: "mga:metrics-request";
  id: number;
}
interface MetricsResponse {
  type: "mga:metrics-response";
  id: number;
  text?: string;
  error?: string;
}

const isMessage = <T extends { type: string }>(message: unknown, type: T["type"]): message is T =>
  typeof message === "object" && message !== null && (message as { type?: unknown }).type === type;

/** In the primary: answers the workers' requests for the cluster's metrics. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on("message", (worker, message: unknown) => {
    if (!isMessage<MetricsRequest>(message, "mga:metrics-request")) return;
    const reply = (response: Omit<MetricsResponse, "type" | "id">) => {
      // A worker gone meanwhile needs no answer.
      if (worker.isConnected())
        worker.send({ type: "mga:metrics-response", id: message.id, ...response } satisfies MetricsResponse);
    };
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (error: unknown) => reply({ error: String(error) }),
    );
  });
}

/**
 * In a worker: reports `registry` to the primary's aggregation, and returns what GET /metrics
 * answers: the whole cluster's exposition, asked of the primary.
 */
export function clusterExposition(registry: Registry): () => Promise<string> {
  // Constructing one is what makes prom-client answer the primary's requests in a worker (its listener is added then).
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
  const waiting = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  process.on("message", (message: unknown) => {
    if (!isMessage<MetricsResponse>(message, "mga:metrics-response")) return;
    const request = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.text !== undefined) request?.resolve(message.text);
    else request?.reject(new Error(`cluster metrics: ${message.error ?? "no answer"}`));
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = nextId++;
      // prom-client gives up on a silent worker after 5 s; past that the primary itself is stuck.
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error("cluster metrics: the primary did not answer"));
      }, 10_000);
      waiting.set(id, {
        resolve: (text) => (clearTimeout(timer), resolve(text)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      process.send?.({ type: "mga:metrics-request", id } satisfies MetricsRequest);
    });
}
