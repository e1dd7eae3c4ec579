#!/usr/bin/env bash
# The one way the API server process starts, whoever starts it (`pnpm start` at the root and in
# apps/server, scripts/serve.mjs behind the run command, `pnpm bench`, the tests that run the
# built server): Node 24 (scripts/node24) with the V8 flags of apps/server/node-flags.json, then
# dist/main.js. Arguments are further node options (the bench's heap-snapshot signal). `exec`
# keeps one process: its pid is the server's, signals reach it directly.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
NODE24="$HERE/../../scripts/node24"
FLAGS="$("$NODE24" -e 'for (const flag of require(process.argv[1]).flags) console.log(flag)' "$HERE/node-flags.json")"
flags=()
[ -z "$FLAGS" ] || mapfile -t flags <<<"$FLAGS"
exec "$NODE24" "${flags[@]}" "$@" "$HERE/dist/main.js"
