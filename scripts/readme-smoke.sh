#!/usr/bin/env bash
# The README, walked as a newcomer would: starts the service with the README's run command
# (scripts/start.sh) on an embedded PostgreSQL in a temporary DATA_DIR and on free ports, runs
# the README's shell blocks marked <!-- smoke --> in order in one bash with a newcomer's
# environment (scripts/readme-blocks.mjs), then checks what they left behind: the four keys,
# a launch URL that answers inside the sample partner page, a password-setup link, and that
# the site login accepts the credentials the README names. Used by .ci/run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export BOOTSTRAP_SKIP_INSTALL=1
. scripts/bootstrap.sh
. scripts/smoke-helpers.sh
WORK="$(mktemp -d)"; chmod 755 "$WORK"
SERVICE=""
cleanup() {
  if [ -n "$SERVICE" ]; then kill "$SERVICE" 2>/dev/null || true; wait "$SERVICE" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

{ read -r port; read -r admin_port; read -r admin_api_port; } < <(free_ports 3)
PORT=$port ADMIN_PORT=$admin_port ADMIN_API_PORT=$admin_api_port DATA_DIR="$WORK/data" LOG_LEVEL=warn scripts/start.sh >"$WORK/service.log" 2>&1 &
SERVICE=$!
for _ in $(seq 1 240); do grep -q "Staff console is up" "$WORK/service.log" && break; kill -0 "$SERVICE" 2>/dev/null || break; sleep 0.5; done
grep -q "Staff console is up" "$WORK/service.log" || { cat "$WORK/service.log"; fail "readme: the run command did not start the service"; }
# The run command's banner sends the newcomer here rather than printing commands of its own
# (they went stale once: a key without a tenant configuration cannot be asked anything).
grep -q "README.md, section Walkthrough" "$WORK/service.log" && grep -q "^## Walkthrough$" README.md \
  || { cat "$WORK/service.log"; fail "readme: the run command's banner does not point to the README's walkthrough"; }
! grep -q "pnpm cli key:create" "$WORK/service.log" || fail "readme: the run command's banner prints its own walkthrough"

scripts/node24 scripts/readme-blocks.mjs README.md >"$WORK/walk.sh" || fail "readme: its shell blocks could not be read"
# Run in the same shell as the blocks, so they see the variables the README set.
cat >>"$WORK/walk.sh" <<'CHECKS'

SMOKE_BLOCK="(the smoke's checks after the README's blocks)"
printf '\n› checks (%s s)\n' "$SECONDS" >&2
expect_scopes() { # $1 variable name, $2 the scopes that key must hold, as /v1/me lists them
  local key="${!1:-}"
  [[ "$key" == mga_sk_* ]] || { echo "\$$1 is not set to an API key: '$key'" >&2; return 1; }
  local scopes
  scopes=$(curl -H "Authorization: Bearer $key" "$BASE/v1/me" | json key.scopes)
  [ "$scopes" = "$2" ] || { echo "\$$1 holds $scopes, expected $2" >&2; return 1; }
}
expect_scopes CHAT_KEY '["chat:read","chat:write","sources:read"]'
expect_scopes DIRECTORY_KEY '["embed:users:read","embed:users:write","embed:teams:read","embed:teams:write"]'
expect_scopes DELETE_KEY '["embed:users:delete"]'
expect_scopes LAUNCH_KEY '["embed:launch"]'

# The deletion the README polls for completed; the OpenAPI document went to a file, not the terminal.
[ "${STATUS:-}" = completed ] || { echo "the README's poll of the deletion ended with status '${STATUS:-}'" >&2; exit 1; }
[ "$(json info.version <openapi.json)" = 1.0.0 ] || { echo "openapi.json is not the OpenAPI document" >&2; exit 1; }

# The sample partner page, on another origin, frames the launch URL; the launch URL answers with the chat.
[[ "$DEMO_URL" == "http://localhost:$PORT/embed/demo-partner?launch="* ]] || { echo "DEMO_URL: $DEMO_URL" >&2; exit 1; }
curl "$DEMO_URL" | grep -qF "src=\"$LAUNCH_URL\"" || { echo "the sample partner page does not frame $LAUNCH_URL" >&2; exit 1; }
curl "$LAUNCH_URL" | grep -q "Mortgage guideline assistant" || { echo "the launch URL does not answer with the chat" >&2; exit 1; }

# The credentials the README names: the password set through the setup link, with lo-2001's email.
curl "$SETUP_LINK" | grep -q "Set your password" || { echo "the setup link does not open the password page" >&2; exit 1; }
curl --data-urlencode "token=${SETUP_LINK#*#token=}" --data-urlencode "password=a smoke-test passphrase 7731" "$BASE/site/password-setup" | grep -q "Password set"
session=$(curl -H "Content-Type: application/json" -d "{\"code\":\"${LAUNCH_URL#*#code=}\"}" "$BASE/embed/api/launches/consume" | json session_token)
curl --data-urlencode "session=$session" --data-urlencode "email=lo2001@example.test" --data-urlencode "password=a smoke-test passphrase 7731" "$BASE/site/login" | grep -q "Signed in"
[ "$(curl -H "Authorization: Bearer $session" "$BASE/embed/api/session" | json status)" = authorized ] || { echo "the site login did not authorize the launch" >&2; exit 1; }
echo "README walk: ok ($SECONDS s)" >&2
CHECKS

started=$(date +%s)
# A newcomer's shell: the system's PATH (no ./.tools yet: the README puts it there), no project variables
# but the port and data directory this run chose (the README's blocks read PORT; the CLI reads DATA_DIR).
env -i HOME="$HOME" PATH="/usr/local/bin:/usr/bin:/bin" TERM=dumb PORT="$port" DATA_DIR="$WORK/data" \
  bash "$WORK/walk.sh" >"$WORK/walk.log" 2>&1 || { cat "$WORK/walk.log"; fail "readme: the walk failed (above)"; }
grep '^› ' "$WORK/walk.log"
echo "readme smoke: ok ($(grep -c '^› README block' "$WORK/walk.log") blocks in $(( $(date +%s) - started )) s, service on port $port)"
