import { execFile } from "node:child_process";
import { constants } from "node:fs";
import { access, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startLocalAssistant, type LocalAssistant } from "@mga/assistant";
import { HttpChatUpstream } from "@mga/core/conversations";

import { ACME_TENANT } from "../support/tenants";
import { startTestApp, type TestApp } from "../support/test-app";

/**
 * The SDK as a partner gets it: the tarball `pnpm pack` makes, installed with plain npm into an
 * empty project outside the repository, then an ESM and a CommonJS program run against the real
 * server (PostgreSQL, the bundled local assistant as upstream) on the machine's Node 20 and on the
 * project's Node 24. Nothing of the workspace is reachable from there: no workspace links, no
 * NODE_PATH, no pnpm settings, so what passes here is what a partner's `npm install` gets.
 */
const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "../../../..");
const SDK_DIR = path.join(REPO, "packages/sdk");
const PROGRAMS = path.join(HERE, "partner-programs");
const ASSISTANT_TOKEN = "sdk-package-test";
const run = promisify(execFile);

const outsideRepo = (dir: string) => !path.resolve(dir).startsWith(REPO + path.sep);
const systemPath = (process.env.PATH ?? "").split(path.delimiter).filter((dir) => dir && outsideRepo(dir));

/**
 * What pnpm (running this test) puts in the environment: a partner's shell has none of it. That
 * includes npm settings pnpm exports from its own configuration, `npm_config_globalconfig`
 * among them (pnpm's rc file), which would keep npm from reading the machine's /etc/npmrc and
 * its `cafile` (behind a TLS-inspecting proxy, every fetch then fails).
 */
const PNPM_ENV =
  /^(pnpm_|npm_(command|execpath|node_execpath|lifecycle_|package_)|INIT_CWD$|NODE_PATH$|NODE_OPTIONS$)/i;
/** The npm settings of the machine's network that an environment may carry, kept as a partner's shell would. */
const NETWORK_NPM_CONFIG = /^npm_config_(registry|cafile|ca|cert|key|strict_ssl|proxy|https_proxy|noproxy|cache)$/i;
const fromPnpm = (name: string) =>
  PNPM_ENV.test(name) || (/^npm_config_/i.test(name) && !NETWORK_NPM_CONFIG.test(name));

/**
 * A partner's machine: the system's PATH (not the repository's tools, not node_modules/.bin) with
 * `bin` first, so npm's `#!/usr/bin/env node` runs that Node. The machine's own npm settings
 * (npm_config_registry, a proxy, the cache) stay, as they would for a partner behind a mirror.
 */
function partnerEnv(bin: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !fromPnpm(name))) as NodeJS.ProcessEnv;
  env.PATH = [bin, ...systemPath].join(path.delimiter);
  return env;
}

/**
 * Node 20, the oldest the package supports: the machine's own Node (CI's fresh machine has Node 20
 * and npm, the README's precondition), i.e. the first `node` on PATH outside the repository, or the
 * one MGA_TEST_NODE20 names.
 */
async function findNode20() {
  const candidates = process.env.MGA_TEST_NODE20
    ? [process.env.MGA_TEST_NODE20]
    : systemPath.map((dir) => path.join(dir, "node"));
  for (const candidate of candidates) {
    const found = await access(candidate, constants.X_OK).then(
      () => true,
      () => false,
    );
    if (!found) continue;
    const { stdout } = await run(candidate, ["-p", "process.versions.node"]);
    if (stdout.trim().startsWith("20.")) return candidate;
    throw new Error(
      `the machine's node (${candidate}) is ${stdout.trim()}, not Node 20: set MGA_TEST_NODE20 to a Node 20 binary`,
    );
  }
  throw new Error("no Node 20 outside the repository's .tools on PATH: set MGA_TEST_NODE20 to a Node 20 binary");
}

/**
 * npm fetches openapi-fetch and eventsource-parser from the registry: preferring its cache makes
 * a repeat run offline, and a dropped connection gets two more tries (as scripts/bootstrap.sh does).
 */
async function npmInstall(npm: string, project: string, tarball: string, env: NodeJS.ProcessEnv) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(npm, ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball], { cwd: project, env });
    } catch (error) {
      if (attempt === 3) throw error;
      await sleep(attempt * 5_000);
    }
  }
}

interface ProgramReport {
  node: string;
  resolved: string;
  scopes: string[];
  agencySources: string[];
  answer: { conversationId: string; text: string; citations: number };
  stream: { frames: string[]; text: string; conversationId: string; messageId: string; citations: number };
  historyLength: number;
  error: { isApiError: boolean; status: number; code: string; requestId: string };
}

let workdir: string;
let project: string;
let node20: string;
let env20: NodeJS.ProcessEnv;
let assistant: LocalAssistant;
let app: TestApp;

async function packAndInstall() {
  node20 = await findNode20();
  // The npm beside the machine's node, run by that node: a partner's plain npm.
  env20 = partnerEnv(path.dirname(node20));
  workdir = await mkdtemp(path.join(tmpdir(), "mga-sdk-package-"));
  project = path.join(workdir, "partner-app");
  const { name, version } = JSON.parse(await readFile(path.join(SDK_DIR, "package.json"), "utf8")) as {
    name: string;
    version: string;
  };
  await run("pnpm", ["pack", "--pack-destination", workdir], { cwd: SDK_DIR });
  const tarball = path.join(workdir, `${name.replace("@", "").replace("/", "-")}-${version}.tgz`);
  await mkdir(project);
  await writeFile(
    path.join(project, "package.json"),
    JSON.stringify({ name: "partner-app", version: "1.0.0", private: true }),
  );
  await npmInstall(path.join(path.dirname(node20), "npm"), project, tarball, env20);
  for (const program of ["partner.mjs", "partner.cjs"])
    await copyFile(path.join(PROGRAMS, program), path.join(project, program));
}

async function startServer() {
  assistant = await startLocalAssistant({ token: ASSISTANT_TOKEN, wordDelayMs: 0 });
  app = await startTestApp({
    upstream: new HttpChatUpstream({
      url: assistant.url,
      token: ASSISTANT_TOKEN,
      connectTimeoutMs: 5_000,
      idleTimeoutMs: 10_000,
    }),
  });
}

beforeAll(() => Promise.all([packAndInstall(), startServer()]), 240_000);
afterAll(async () => {
  await app?.close();
  await assistant?.close();
  if (workdir) await rm(workdir, { recursive: true, force: true });
});

// Every program is a new Node process with a few round trips to a real answer: far from the
// in-process default of 20 s on an idle machine, but a busy 2-core one needs room; the bound only catches a hang.
describe("@mga/sdk packed, installed with npm and run outside the repository", { timeout: 90_000 }, () => {
  it("the installed manifest is a plain npm package: no pnpm protocols, a permissive license shipped with it", async () => {
    const installed = path.join(project, "node_modules/@mga/sdk");
    const manifest = await readFile(path.join(installed, "package.json"), "utf8");
    expect(manifest).not.toMatch(/"(catalog|workspace):/);
    expect(JSON.parse(manifest)).toMatchObject({ name: "@mga/sdk", license: "MIT", engines: { node: ">=20.3" } });
    expect(await readFile(path.join(installed, "LICENSE"), "utf8")).toMatch(/^MIT License/);
    expect(await readFile(path.join(installed, "CHANGELOG.md"), "utf8")).toMatch(/^## 1\.0\.0$/m);
    // Its dependencies came from the registry into the partner's own node_modules.
    for (const dependency of ["openapi-fetch", "eventsource-parser"])
      await access(path.join(project, "node_modules", dependency, "package.json"));
  });

  const programs = [
    { format: "ESM", file: "partner.mjs", condition: "import" },
    { format: "CommonJS", file: "partner.cjs", condition: "require" },
  ] as const;
  const nodes = [
    { label: "Node 20", major: "20", node: () => ({ node: node20, env: env20 }) },
    {
      label: "Node 24",
      major: "24",
      node: () => ({ node: process.execPath, env: partnerEnv(path.dirname(process.execPath)) }),
    },
  ] as const;

  describe.each(nodes)("on $label", ({ major, node: nodeOf }) => {
    it.each(programs)(
      "the $format program: me, sources, a JSON answer, a streamed answer, history, an ApiError",
      async ({ file, condition }) => {
        const { key } = await app.newKey({ scopes: ["chat:read", "chat:write", "sources:read"], tenant: ACME_TENANT });
        const { node, env } = nodeOf();
        const { stdout } = await run(node, [file], {
          cwd: project,
          env: { ...env, MGA_API_KEY: key, MGA_BASE_URL: app.baseUrl },
        });
        const report = JSON.parse(stdout.trim().split("\n").at(-1) as string) as ProgramReport;

        expect(report.node.split(".")[0]).toBe(major);
        // The build its module system picks, from the partner's node_modules (not the workspace).
        const installed = path.join(project, "node_modules/@mga/sdk");
        const exports = JSON.parse(await readFile(path.join(installed, "package.json"), "utf8")).exports["."][condition]
          .default as string;
        const expected = path.join(installed, exports);
        expect(report.resolved).toBe(condition === "import" ? pathToFileURL(expected).href : expected);

        expect(report.scopes).toEqual(expect.arrayContaining(["chat:read", "chat:write", "sources:read"]));
        expect(report.agencySources).toEqual(expect.arrayContaining(["fha"]));
        expect(report.answer.conversationId).toMatch(/^conv_/);
        expect(report.answer.text).toMatch(/3\.5 percent/);
        expect(report.answer.citations).toBeGreaterThan(0);

        // A conversation's own route announces no conversation: the fragments, then the closing frames.
        expect(report.stream.frames.length).toBeGreaterThan(3);
        expect(new Set(report.stream.frames.slice(0, -3))).toEqual(new Set(["content"]));
        expect(report.stream.frames.slice(-3)).toEqual(["content_postprocessed", "complete", "public_api_complete"]);
        expect(report.stream.conversationId).toBe(report.answer.conversationId);
        expect(report.stream.messageId).toMatch(/^msg_/);
        expect(report.stream.text).toMatch(/gift/i);
        expect(report.stream.citations).toBeGreaterThan(0);
        // Both questions and both answers, stored.
        expect(report.historyLength).toBe(4);

        expect(report.error).toMatchObject({ isApiError: true, status: 404, code: "not_found" });
        expect(report.error.requestId).toMatch(/^req_/);
      },
    );
  });
});
