#!/usr/bin/env node
// Fails when any package's source has an import cycle (madge over each `src`, tests included
// where they live there). Type-only imports are skipped: they vanish when compiled, so they
// cannot make a module run before what it needs (the bug a cycle causes), and a type naming its
// user (a field's type) is how a handle describes what hangs off it (core's db/instance-state.ts).
// Generated code (Prisma's client types) is not ours to arrange.
import { existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import madge from "madge";

const root = resolve(dirname(new URL(import.meta.url).pathname), "..");
const sources = ["packages", "apps"].flatMap((group) =>
  readdirSync(join(root, group), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, group, entry.name, "src")))
    .map((entry) => `${group}/${entry.name}`),
);

let failed = false;
for (const pkg of sources) {
  const result = await madge(join(root, pkg, "src"), {
    fileExtensions: ["ts", "tsx", "mts"],
    excludeRegExp: [/\/generated\//, /\.d\.ts$/],
    tsConfig: existsSync(join(root, pkg, "tsconfig.json")) ? join(root, pkg, "tsconfig.json") : undefined,
    detectiveOptions: { ts: { skipTypeImports: true }, tsx: { skipTypeImports: true } },
  });
  const cycles = result.circular();
  if (cycles.length === 0) {
    console.log(`✓ ${pkg}: no import cycle (${Object.keys(result.obj()).length} files)`);
    continue;
  }
  failed = true;
  console.error(`✗ ${pkg}: ${cycles.length} import cycle${cycles.length === 1 ? "" : "s"}`);
  for (const cycle of cycles) console.error(`    ${[...cycle, cycle[0]].join(" → ")}`);
}
if (failed) {
  console.error(
    'Break each cycle by moving what both sides need into a module of its own (docs/architecture.md, "Layout").',
  );
  process.exit(1);
}
