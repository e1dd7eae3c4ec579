/** What a worker tells the primary over the cluster's IPC channel: it listens, at this address. */
export interface WorkerListening {
  type: "mga:worker-listening";
  baseUrl: string;
}

export function workerListening(baseUrl: string): WorkerListening {
  return { type: "mga:worker-listening", baseUrl };
}

export function isWorkerListening(message: unknown): message is WorkerListening {
  return (
    typeof message === "object" && message !== null && (message as { type?: unknown }).type === "mga:worker-listening"
  );
}
