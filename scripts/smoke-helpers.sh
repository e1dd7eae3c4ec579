# Shared by the smoke runs (scripts/smoke.sh, scripts/readme-smoke.sh); source it from the repository root.
fail() { echo "SMOKE FAILED: $*" >&2; exit 1; }
# $1 distinct free ports, one per line, below the ephemeral range, for listeners or ($2 database)
# a PostgreSQL (packages/core/src/db/free-port.ts: why the two are apart), from core's build.
free_ports() {
  [ -f packages/core/dist/db/index.js ] || pnpm turbo run build --filter=@mga/core >/dev/null
  scripts/node24 --input-type=module -e 'import { freePorts } from "./packages/core/dist/db/index.js"; console.log((await freePorts(Number(process.argv[1]), process.argv[2])).join("\n"))' "$1" "${2:-listener}"
}
