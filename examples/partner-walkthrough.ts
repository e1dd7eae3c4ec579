// The partner-directory walkthrough of the README, with the SDK: an organization, an integration and
// keys made with the operator CLI, then a team, users, an import of 1,000 users, disable and
// reactivate, a profile change, a deletion (with a deletion-only key) and a reprovision, each
// operation awaited to a terminal status, and a launch URL.
// Usage (the API running, the SDK built): BASE=http://127.0.0.1:3000 scripts/node24 examples/partner-walkthrough.ts
import { execFileSync } from "node:child_process";

import { Client } from "@mga/sdk";

const BASE = process.env.BASE ?? "http://127.0.0.1:3000";
const say = (text: string) => process.stderr.write(`\n\u001b[1m› ${text}\u001b[0m\n`);
const show = (value: unknown) => console.log(typeof value === "object" ? JSON.stringify(value) : String(value));
/** The operator CLI (`pnpm cli … --json`), as an operator would run it. */
const cli = (...args: string[]) =>
  JSON.parse(
    execFileSync("pnpm", ["--silent", "cli", ...args, "--json"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }),
  );

say("organization, integration, and three keys: directory, deletion, launch (CLI)");
const org = cli("org:create", "--name", "Walkthrough Lending").id as string;
const slug = `walk-${Date.now()}`;
cli("integration:create", "--org", org, "--slug", slug);
const directoryKey = cli(
  "key:create",
  "--org",
  org,
  "--name",
  "directory",
  "--scopes",
  "embed:users:read,embed:users:write,embed:teams:read,embed:teams:write",
).key as string;
const deletionKey = cli("key:create", "--org", org, "--name", "deletions", "--scopes", "embed:users:delete")
  .key as string;
const launcher = cli("key:create", "--org", org, "--name", "launcher", "--scopes", "embed:launch");
cli("key:bind-launch", "--id", launcher.id, "--integration", slug);

const directory = new Client({ apiKey: directoryKey, baseUrl: BASE }).integration(slug);
const deletions = new Client({ apiKey: deletionKey, baseUrl: BASE }).integration(slug);
const launches = new Client({ apiKey: launcher.key, baseUrl: BASE });
/** Waits for a lifecycle operation; anything but completed stops the walkthrough. */
async function completed(operationId: string) {
  const operation = await directory.operations.waitFor(operationId, { timeoutMs: 60_000 });
  if (operation.status !== "completed") throw new Error(`operation ${operationId} ended ${operation.status}`);
  process.stderr.write(`  operation ${operationId}: completed\n`);
}

say("a team and a user");
show((await directory.teams.put("loan-officers", { name: "Loan officers" })).team.status);
show(
  (
    await directory.users.put("lo-1001", {
      email: "lo1001@example.test",
      name: "Lee Officer",
      team_external_id: "loan-officers",
    })
  ).user.launch_eligibility,
);

say("an import of 1,000 users");
const users = Array.from({ length: 1000 }, (_, i) => ({
  external_user_id: `bulk-${i}`,
  email: `bulk${i}@example.test`,
}));
const job = await directory.imports.create({ users }, { idempotencyKey: `import-${slug}` });
const imported = await directory.imports.waitFor(job.import.job_id, { timeoutMs: 150_000 });
show(imported.summary);

say("disable, reactivate");
show((await directory.users.update("lo-1001", { status: "disabled" })).user.status);
show((await directory.users.update("lo-1001", { status: "active" })).user.status);

say("a profile change");
await completed(
  (
    await directory.users.requestProfileChange(
      "lo-1001",
      { name: "Lee Officer-Smith" },
      { idempotencyKey: `profile-lo-1001-${slug}` },
    )
  ).operation.operation_id,
);

say("a deletion (with the deletion-only key), then a reprovision");
await completed(
  (await deletions.users.requestDeletion("lo-1001", { note: "left" }, { idempotencyKey: `delete-lo-1001-${slug}` }))
    .operation.operation_id,
);
await completed(
  (
    await directory.users.reprovision(
      "lo-1001",
      { email: "lo1001@example.test" },
      { idempotencyKey: `reprovision-lo-1001-${slug}` },
    )
  ).operation.operation_id,
);
show((await directory.users.get("lo-1001")).user.account_generation);
show((await directory.users.list({ limit: 1 })).counts);

say("every user, 100 a page, following next_cursor");
let listed = 0;
for await (const user of directory.users.listAll({ limit: 100 })) listed += user.status === "active" ? 1 : 0;
show(`${listed} active users listed`);

say("a launch URL for the loan officer");
const launch = await launches.embedSessions.create({
  integration: slug,
  user: { external_user_id: "lo-1001" },
  loan_context: { external_loan_id: "LN-1", program: "fha" },
});
show(new URL(launch.launch_url).pathname);
