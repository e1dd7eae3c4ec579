import { describeStatus, type StatusOutcome, type StatusView } from "@/lib/describe-status";
import { apiBaseUrl, createApiClient } from "@/lib/trpc";

// Rendered on every request (the API's status is live), never prerendered at build time.
export const dynamic = "force-dynamic";

const STATUS_TIMEOUT_MS = 5_000;

async function loadStatus(apiUrl: string): Promise<StatusOutcome> {
  try {
    const value = await createApiClient(apiUrl).system.status.query(undefined, {
      signal: AbortSignal.timeout(STATUS_TIMEOUT_MS),
    });
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error };
  }
}

export default async function HomePage() {
  const apiUrl = apiBaseUrl();
  const view = describeStatus(await loadStatus(apiUrl), apiUrl);

  return (
    <>
      <h1>API status</h1>
      <StatusPanel view={view} />
    </>
  );
}

function StatusPanel({ view }: { view: StatusView }) {
  return (
    <section className={`panel panel-${view.state}`} aria-labelledby="status-title">
      <h2 id="status-title">{view.title}</h2>
      <p role={view.state === "healthy" ? undefined : "alert"}>{view.summary}</p>
      {view.state === "error" ? (
        <p className="detail">
          <span className="detail-label">Details:</span> <code>{view.detail}</code>
        </p>
      ) : (
        <dl className="status-list">
          {view.items.map((item) => (
            <div key={item.label} className="status-row">
              <dt>{item.label}</dt>
              <dd className={`tone-${item.tone}`} data-field={item.label}>
                {item.value}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
