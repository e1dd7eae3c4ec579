#!/usr/bin/env bash
# The test command: installs what is needed, then type-checks, lints and runs every test
# (`turbo typecheck lint test`), each
# package against a real PostgreSQL that its test run starts by itself.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/bootstrap.sh
# The browser tests drive Debian's Chromium (playwright-core cannot download a browser here).
if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  echo "› installing Chromium from Debian's packages" >&2
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >&2
fi
# Static checks and builds first, tests after: on a 2-core CI machine, tsc, eslint and the Next.js
# build running beside the database and browser tests slowed those tests tenfold.
pnpm turbo run build typecheck lint lint:openapi lint:package format:check check:paths check:cycles --output-logs=errors-only "$@"
pnpm turbo run test --output-logs=full "$@"
