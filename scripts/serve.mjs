// Runs the API and the staff console together (the README's run command ends here, after
// installing and building): the API first, then the console pointed at it. Stops both when
// either exits or on SIGINT/SIGTERM. Environment: everything the API reads (PORT, HOST,
// DATABASE_URL, ...) plus ADMIN_PORT (default 3100; 0 picks a free port).
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const host = process.env.HOST ?? "127.0.0.1";
const reachableHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;

/** A free port, for PORT=0 / ADMIN_PORT=0 (both processes need to know the API's port up front). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

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

const apiPort = Number(process.env.PORT ?? 3000) || (await freePort());
const adminPort = Number(process.env.ADMIN_PORT ?? 3100) || (await freePort());
const apiUrl = `http://${reachableHost}:${apiPort}`;
const consoleUrl = `http://${reachableHost}:${adminPort}`;

const children = [];
let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  setTimeout(() => process.exit(code), 6_000).unref();
  Promise.all(children.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once("exit", resolve)) : undefined))).then(() => process.exit(code));
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

function start(label, args, options) {
  const child = spawn(process.execPath, args, { stdio: "inherit", ...options });
  children.push(child);
  child.once("exit", (code, signal) => {
    if (!stopping) {
      process.stderr.write(`${label} stopped (${signal ?? `exit code ${code}`}); stopping the rest\n`);
      stop(code ?? 1);
    }
  });
  return child;
}

const api = start("API", [path.join(root, "apps/server/dist/main.js")], { env: { ...process.env, PORT: String(apiPort) } });
try {
  await waitFor(`${apiUrl}/healthz`, api, "the API");
  const nextBin = path.join(root, "apps/admin/node_modules/next/dist/bin/next");
  const admin = start("console", [nextBin, "start", "--port", String(adminPort), "--hostname", host], {
    cwd: path.join(root, "apps/admin"),
    env: { ...process.env, PORT: String(adminPort), ADMIN_API_URL: apiUrl, NEXT_TELEMETRY_DISABLED: "1" },
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
    pnpm cli staff:create --email you@example.com --password '<at least 10 characters>' --role admin
  Everyone after that is invited from the console's Staff page.

`);
}
