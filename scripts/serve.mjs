// Runs the API and the staff console together (the README's run command ends here, after
// installing and building): the API first (its public listener on PORT, its admin listener on
// ADMIN_API_PORT, loopback only), then the console pointed at the admin listener. Stops both
// when either exits or on SIGINT/SIGTERM. Environment: everything the API reads (PORT, HOST,
// ADMIN_API_PORT, DATABASE_URL, ...) plus ADMIN_PORT (default 3100); 0 picks a free port.
import { execFile, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const host = process.env.HOST ?? "127.0.0.1";
const reachableHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;

async function waitFor(url, child, label, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${label} exited (code ${child.exitCode}) before answering`);
    try {
      const response = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(2_000) });
      if (response.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${label} did not answer at ${url} within ${timeoutMs / 1000} s`);
}

// Free ports for PORT=0 / ADMIN_PORT=0 / ADMIN_API_PORT=0, chosen here (both processes need to
// know the API's port up front), distinct from each other. Any other value goes on as given, for
// each process to accept or refuse.
const requested = [process.env.PORT ?? "3000", process.env.ADMIN_PORT ?? "3100", process.env.ADMIN_API_PORT ?? "3001"];
const zeros = requested.filter((port) => Number(port) === 0).length;
const spare = zeros ? await (await import("../packages/core/dist/db/index.js")).freePorts(zeros) : [];
const [apiPort, adminPort, adminApiPort] = requested.map((port) => (Number(port) === 0 ? spare.shift() : port));
const adminApiHost = process.env.ADMIN_API_HOST ?? "127.0.0.1";
const apiUrl = `http://${reachableHost}:${apiPort}`;
const adminApiUrl = `http://${adminApiHost === "0.0.0.0" || adminApiHost === "::" ? "127.0.0.1" : adminApiHost.includes(":") ? `[${adminApiHost}]` : adminApiHost}:${adminApiPort}`;
const consoleUrl = `http://${reachableHost}:${adminPort}`;

const children = [];
let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  setTimeout(() => process.exit(code), 6_000).unref();
  Promise.all(
    children.map((child) =>
      child.exitCode === null ? new Promise((resolve) => child.once("exit", resolve)) : undefined,
    ),
  ).then(() => process.exit(code));
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

function start(label, command, args, options) {
  const child = spawn(command, args, { stdio: "inherit", ...options });
  children.push(child);
  child.once("exit", (code, signal) => {
    if (!stopping) {
      process.stderr.write(`${label} stopped (${signal ?? `exit code ${code}`}); stopping the rest\n`);
      stop(code ?? 1);
    }
  });
  return child;
}

// The server starts the one way it always does (apps/server/run-server.sh: its node flags, then dist/main.js).
const api = start("API", path.join(root, "apps/server/run-server.sh"), [], {
  env: { ...process.env, PORT: String(apiPort), ADMIN_API_PORT: String(adminApiPort) },
});
try {
  await waitFor(`${apiUrl}/healthz`, api, "the API");
  await waitFor(`${adminApiUrl}/healthz`, api, "the API's admin listener");
  // The key the console signs its visitors' addresses with, derived from the API's SECRET_KEY
  // (by now in the environment or generated into DATA_DIR), asked of the CLI as an operator
  // would: the console is handed that one key, never SECRET_KEY itself.
  const { stdout: forwardingKey } = await promisify(execFile)(
    process.execPath,
    [path.join(root, "apps/server/dist/cli.js"), "console:forwarding-key", "--field", "key"],
    { env: process.env },
  );
  // The console's own server (apps/admin/server.mjs): Next.js, knowing each visitor's address.
  const admin = start("console", process.execPath, [path.join(root, "apps/admin/server.mjs")], {
    cwd: path.join(root, "apps/admin"),
    env: {
      ...process.env,
      PORT: String(adminPort),
      HOST: host,
      ADMIN_API_URL: adminApiUrl,
      ADMIN_FORWARDING_KEY: forwardingKey.trim(),
      NEXT_TELEMETRY_DISABLED: "1",
    },
  });
  await waitFor(`${consoleUrl}/sign-in`, admin, "the console");
} catch (error) {
  process.stderr.write(`failed to start: ${error.message}\n`);
  stop(1);
}
if (!stopping) {
  process.stderr.write(`
  Staff console is up: ${consoleUrl}
  Create the first staff account (in another terminal, from the repository root), then sign in:
    pnpm cli staff:create --email you@example.com --password '<12+ characters, not a common password>' --role admin
  Everyone after that is invited from the console's Staff page.

`);
}
