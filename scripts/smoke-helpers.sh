# Shared by the smoke runs (scripts/smoke.sh, scripts/readme-smoke.sh); source it from the repository root.
fail() { echo "SMOKE FAILED: $*" >&2; exit 1; }
# A port below the ephemeral range (packages/core/src/db/free-port.ts: why), from core's build.
free_port() {
  [ -f packages/core/dist/db/index.js ] || pnpm turbo run build --filter=@mga/core >/dev/null
  scripts/node24 --input-type=module -e 'import { freePort } from "./packages/core/dist/db/index.js"; console.log(await freePort())'
}
