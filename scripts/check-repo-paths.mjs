#!/usr/bin/env node
// Fails when a tracked file refers to a path outside the repository (a clone has nothing
// there: `../shared/...`, `/work/...`), or a Markdown file names a relative path, or a path
// from the root in a code span, that does not exist. It also keeps docs/spec.md equal to the specification it was copied from, where that
// original is present (a developer's machine; CI's clean clone has only the copy).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

const root = resolve(dirname(new URL(import.meta.url).pathname), "..");
const textFile = /\.(md|ts|tsx|mts|cts|js|mjs|cjs|json|ya?ml|sh|css|html|prisma|sql)$|(^|\/)(run|node24)$/;
// Generated or vendored text that is not ours to word, and this file, which names the original.
const skipped = [
  /^packages\/core\/src\/generated\//,
  /^pnpm-lock\.yaml$/,
  /^patches\//,
  /^scripts\/check-repo-paths\.mjs$/,
];

// A relative path with at least one `../`, as a string, an import or a Markdown link names it.
const relativePath = /(?<![\w.@/-])((?:\.\.\/)+[\w@.-]+(?:\/[\w@.-]+)*)/g;
// A path from the repository's root in a Markdown code span (`packages/core/src/keys/`): the docs'
// maps of the tree must name what is there. Globs, placeholders and wildcards are not paths.
const rootedPath = /`((?:apps|packages|tooling|scripts|docs)\/[^`\s*{}<>()]*)`/g;
// Absolute paths of this machine's layout, which no other machine has.
const machinePath = /(?<![\w.-])\/(?:work|home|Users|tmp\/bash_jobs)\/[\w@.-]+/g;

// A build or test output (`packages/api/dist/openapi.json`) is git-ignored: a clean clone has it
// only after the build, so the docs may name it before it exists.
const isIgnoredOutput = (path) => {
  try {
    execFileSync("git", ["check-ignore", "-q", "--no-index", path], { cwd: root });
    return true;
  } catch {
    return false;
  }
};

const problems = [];
const files = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" })
  .split("\0")
  .filter((file) => file && textFile.test(file) && !skipped.some((pattern) => pattern.test(file)));

for (const file of files) {
  const path = join(root, file);
  if (!existsSync(path)) continue; // deleted in the work tree, not yet committed
  const lines = readFileSync(path, "utf8").split("\n");
  lines.forEach((line, index) => {
    // A line may name a path relative to something else (a lint fixture's virtual file).
    if (index > 0 && lines[index - 1].includes("check-repo-paths: relative to")) return;
    const where = `${file}:${index + 1}`;
    for (const match of line.matchAll(relativePath)) {
      const target = resolve(dirname(path), match[1]);
      if (target !== root && !target.startsWith(root + sep)) {
        problems.push(`${where}: ${match[1]} is outside the repository`);
      } else if (
        file.endsWith(".md") &&
        !existsSync(target) &&
        !existsSync(resolve(root, match[1])) &&
        !isIgnoredOutput(relative(root, target))
      ) {
        problems.push(`${where}: ${match[1]} does not exist`);
      }
    }
    if (file.endsWith(".md")) {
      for (const match of line.matchAll(rootedPath)) {
        // From the root, or from the file's own package (packages/sdk/README.md names `scripts/…` of the SDK).
        if (
          !existsSync(join(root, match[1])) &&
          !existsSync(join(dirname(path), match[1])) &&
          !isIgnoredOutput(match[1])
        )
          problems.push(`${where}: ${match[1]} does not exist`);
      }
    }
    for (const match of line.matchAll(machinePath)) {
      problems.push(`${where}: ${match[0]} is a path of one machine`);
    }
  });
}

const copy = join(root, "docs/spec.md");
const original = resolve(root, "../shared/spec/api-spec.md");
if (!existsSync(copy)) {
  problems.push("docs/spec.md is missing: the specification lives in the repository");
} else if (existsSync(original)) {
  // The copy is the original behind one provenance comment line.
  const body = readFileSync(copy, "utf8").replace(/^<!--[^\n]*-->\n/, "");
  if (body !== readFileSync(original, "utf8")) {
    problems.push(`docs/spec.md differs from ${relative(root, original)}: copy the specification again`);
  }
}

if (problems.length > 0) {
  console.error(`Paths a clone of this repository cannot follow (${problems.length}):`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(`check-repo-paths: ${files.length} files refer only to paths inside the repository`);
