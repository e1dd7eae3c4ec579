#!/usr/bin/env bash
# The run command: installs what is needed (Node 24, pnpm, dependencies), builds, and starts
# the API and the staff console (scripts/serve.mjs). With no DATABASE_URL it runs an
# embedded PostgreSQL under ./.data. Honors PORT, ADMIN_PORT, HOST, DATABASE_URL and the rest
# of the configuration in README.md.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/bootstrap.sh
echo "› building" >&2
pnpm turbo run build --filter=@mga/server --filter=@mga/admin --output-logs=errors-only >&2
exec scripts/node24 scripts/serve.mjs
