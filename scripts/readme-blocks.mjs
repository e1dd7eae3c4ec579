// Turns the README's shell blocks into one bash script, for scripts/readme-smoke.sh.
// Every ```sh / ```bash block is marked on the line before its fence, so none is skipped by
// accident: `<!-- smoke -->` (run, in order, in one shell) or `<!-- no smoke: <why> -->`.
// Usage: node scripts/readme-blocks.mjs README.md > walk.sh
import { readFileSync } from "node:fs";

const file = process.argv[2] ?? "README.md";
const lines = readFileSync(file, "utf8").split("\n");
const blocks = [];
const unmarked = [];
for (let i = 0; i < lines.length; i++) {
  const fence = /^```(sh|bash)\b/.exec(lines[i]);
  if (!fence) continue;
  const end = lines.findIndex((line, j) => j > i && line.startsWith("```"));
  if (end < 0) throw new Error(`${file}:${i + 1}: the shell block never closes`);
  const marker =
    lines
      .slice(0, i)
      .findLast((line) => line.trim() !== "")
      ?.trim() ?? "";
  if (marker === "<!-- smoke -->") blocks.push({ line: i + 1, body: lines.slice(i + 1, end).join("\n") });
  else if (!/^<!-- no smoke: .+ -->$/.test(marker)) unmarked.push(i + 1);
  i = end;
}
if (unmarked.length) {
  process.stderr.write(
    `${file}: shell blocks at lines ${unmarked.join(", ")} are not marked: put <!-- smoke --> or <!-- no smoke: <why> --> on the line before each\n`,
  );
  process.exit(1);
}
if (blocks.length === 0) {
  process.stderr.write(`${file}: no <!-- smoke --> blocks\n`);
  process.exit(1);
}

// The first failing command stops the walk and names its block; a curl answered with an
// HTTP error fails like any other command (a newcomer would see the error body).
const prelude = `set -Eeo pipefail
SMOKE_BLOCK=""
trap 'echo "README smoke: the block at ${file} line $SMOKE_BLOCK failed at: $BASH_COMMAND" >&2' ERR
curl() { command curl --fail-with-body -sS "$@"; }
# No browser in a smoke run: the README's open step must fall back to printing the URL.
xdg-open() { return 1; }
`;
// The marker starts a line of its own (curl's answers end without a newline) and says when.
const body = blocks
  .map(
    (block) =>
      `\nSMOKE_BLOCK=${block.line}\nprintf '\\n› README block at line %s (%s s)\\n' ${block.line} "$SECONDS" >&2\n${block.body}\n`,
  )
  .join("");
process.stdout.write(`${prelude}${body}`);
