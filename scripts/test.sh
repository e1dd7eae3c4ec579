#!/usr/bin/env bash
# The test command: installs what is needed, then type-checks and runs every test
# (`turbo typecheck test`), each
# package against a real PostgreSQL that its test run starts by itself.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/bootstrap.sh
pnpm turbo run typecheck test --output-logs=full "$@"
