import { setTimeout as sleep } from "node:timers/promises";

/**
 * POST …/user-imports of `users` new users into the integration `slug`, then polls the job
 * until it reads `completed` or `failed` (or `timeoutMs` passes): the bench's import figure,
 * timed from the request.
 */
export async function timeUserImport(
  apiUrl: string,
  key: string,
  input: { slug: string; users: number; timeoutMs: number },
): Promise<{ status: string; seconds: number }> {
  const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
  const base = `${apiUrl}/v1/integrations/${input.slug}`;
  // New people, not another integration's: a known address would link to its site account instead.
  const users = Array.from({ length: input.users }, (_, i) => ({
    external_user_id: `imp-${i}`,
    email: `imp${i}@${input.slug}.bench.test`,
  }));
  const started = performance.now();
  const accepted = await fetch(`${base}/user-imports`, {
    method: "POST",
    headers: { ...headers, "Idempotency-Key": `bench-${input.slug}-${Date.now()}` },
    body: JSON.stringify({ users }),
  });
  const body = (await accepted.json()) as { import?: { job_id: string } };
  if (accepted.status !== 202 || !body.import) throw new Error(`the import answered ${accepted.status}`);
  let status = "queued";
  while (!["completed", "failed"].includes(status) && performance.now() - started < input.timeoutMs) {
    await sleep(50);
    const polled = (await (await fetch(`${base}/user-imports/${body.import.job_id}`, { headers })).json()) as {
      import: { status: string };
    };
    status = polled.import.status;
  }
  return { status, seconds: (performance.now() - started) / 1000 };
}
