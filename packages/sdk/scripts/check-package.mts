// `lint:package`: lints the package as partners get it, the tarball `pnpm pack` makes (catalog:
// versions written out, only the `files` shipped). publint checks the manifest (exports, files,
// fields, each file's format); attw checks that every TypeScript resolution mode (node10, node16
// from CJS and from ESM, bundler) finds declarations of the right format for the JavaScript it loads.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const run = (command: string, args: string[]) =>
  execFileSync(command, args, { stdio: "inherit", cwd: new URL("..", import.meta.url) });
const dir = mkdtempSync(join(tmpdir(), "mga-sdk-pack-"));
try {
  run("pnpm", ["exec", "publint", "--strict", "--pack", "pnpm"]);
  execFileSync("pnpm", ["pack", "--pack-destination", dir], { stdio: "ignore", cwd: new URL("..", import.meta.url) });
  const [tarball] = readdirSync(dir).filter((name) => name.endsWith(".tgz"));
  if (!tarball) throw new Error(`pnpm pack wrote no tarball into ${dir}`);
  run("pnpm", ["exec", "attw", join(dir, tarball)]);
} catch (error) {
  // The tool's own report above says what is wrong; a stack trace of this script would only bury it.
  console.error(`lint:package: ${(error as Error).message.split("\n")[0]}`);
  process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
