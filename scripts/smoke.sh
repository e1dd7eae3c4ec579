#!/usr/bin/env bash
# End-to-end check of the README's run command: starts the service (API and console) as a newcomer would,
# creates an org, a tenant and a key with the CLI, and calls the API with curl. Runs once on
# the embedded PostgreSQL and, when Debian's PostgreSQL is installed, once more with
# DATABASE_URL pointing at a separately started server. Used by .ci/run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export BOOTSTRAP_SKIP_INSTALL=1
. scripts/bootstrap.sh
WORK="$(mktemp -d)"; chmod 755 "$WORK"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ -n "${PG15_DATA:-}" ]; then su postgres -c "/usr/lib/postgresql/15/bin/pg_ctl -D $PG15_DATA stop -m fast" >/dev/null 2>&1 || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

. scripts/smoke-helpers.sh

check_run() { # $1 label; env decides the database
  local label="$1" port admin_port admin_api_port
  { read -r port; read -r admin_port; read -r admin_api_port; } < <(free_ports 3)
  PORT=$port ADMIN_PORT=$admin_port ADMIN_API_PORT=$admin_api_port DATA_DIR="$WORK/data-$label" LOG_LEVEL=warn scripts/start.sh >"$WORK/$label.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 1 240); do grep -q "Staff console is up" "$WORK/$label.log" && break; sleep 0.5; done
  curl -fs "http://127.0.0.1:$port/healthz" >/dev/null || { cat "$WORK/$label.log"; fail "$label: server did not come up"; }
  grep -q "Staff console is up: http://127.0.0.1:$admin_port" "$WORK/$label.log" || { cat "$WORK/$label.log"; fail "$label: the console's URL was not printed"; }
  grep -q "pnpm cli staff:create" "$WORK/$label.log" || fail "$label: no hint on creating the first staff account"
  curl -fs "http://127.0.0.1:$admin_port/sign-in" | grep -q "Sign in" || fail "$label: the console's sign-in page"
  # The staff surface is on the admin listener only, never on the public port.
  [ "$(curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' -d '{}' "http://127.0.0.1:$port/trpc/staff.signIn")" = 404 ] || fail "$label: /trpc answered on the public port"
  curl -fs "http://127.0.0.1:$admin_api_port/trpc/system.status" | grep -q '"database":"ok"' || fail "$label: the admin listener"
  local org key me
  org=$(DATA_DIR="$WORK/data-$label" pnpm cli org:create --name "Smoke Lending" --json | scripts/node24 -pe 'JSON.parse(require("fs").readFileSync(0)).id')
  DATA_DIR="$WORK/data-$label" pnpm cli tenant:configure --org "$org" --file examples/tenant.json --json >/dev/null
  key=$(DATA_DIR="$WORK/data-$label" pnpm cli key:create --org "$org" --name smoke --scopes sources:read --json | scripts/node24 -pe 'JSON.parse(require("fs").readFileSync(0)).key')
  me=$(curl -fs -H "Authorization: Bearer $key" "http://127.0.0.1:$port/v1/me")
  echo "$me" | grep -q '"request_id":"req_' || fail "$label: /v1/me has no request_id: $me"
  echo "$me" | grep -q '"client":{"name":"Acme Lending"' || fail "$label: /v1/me has no client: $me"
  curl -fs -H "X-API-Key: $key" "http://127.0.0.1:$port/v1/sources" | grep -q '"default_tenant_source_keys":\["acme_overlays"\]' || fail "$label: /v1/sources"
  curl -fs "http://127.0.0.1:$port/v1/openapi.json" | grep -q '"version":"1.0.0"' || fail "$label: openapi"
  # Area A walkthrough: the FHA question answered by the local assistant, as JSON and as a stream.
  local chat answer conversation stream history
  chat=$(DATA_DIR="$WORK/data-$label" pnpm cli key:create --org "$org" --name chat --scopes chat:read,chat:write --json | scripts/node24 -pe 'JSON.parse(require("fs").readFileSync(0)).key')
  answer=$(curl -fs -H "Authorization: Bearer $chat" -H "Content-Type: application/json" \
    -d '{"message":"What is the minimum down payment for an FHA loan?","user":{"external_user_id":"lo-17"}}' "http://127.0.0.1:$port/v1/messages")
  echo "$answer" | grep -q '3.5 percent' || fail "$label: the FHA answer does not say 3.5 percent: $answer"
  echo "$answer" | grep -q '"citations":\[{"id":"fha-down-payment"' || fail "$label: the FHA answer has no citation: $answer"
  conversation=$(echo "$answer" | scripts/node24 -pe 'JSON.parse(require("fs").readFileSync(0)).conversation_id')
  stream=$(curl -fsN -H "Authorization: Bearer $chat" -H "Content-Type: application/json" \
    -d '{"message":"Can the down payment be a gift?","user":{"external_user_id":"lo-17"},"stream":true}' "http://127.0.0.1:$port/v1/conversations/$conversation/messages")
  echo "$stream" | grep -q '^data: {"type":"content"' || fail "$label: no content frames: $stream"
  echo "$stream" | tail -n 2 | grep -q '"type":"public_api_complete"' || fail "$label: the stream does not end with public_api_complete"
  history=$(curl -fs -H "Authorization: Bearer $chat" "http://127.0.0.1:$port/v1/conversations/$conversation/messages")
  [ "$(echo "$history" | scripts/node24 -pe 'JSON.parse(require("fs").readFileSync(0)).messages.length')" = "4" ] || fail "$label: history: $history"
  # Area B walkthrough (README), with the SDK: integration, team, users, 1,000-user import, lifecycle operations, a launch.
  if [ "$label" = embedded ]; then
    DATA_DIR="$WORK/data-$label" BASE="http://127.0.0.1:$port" scripts/node24 examples/partner-walkthrough.ts >"$WORK/walkthrough.log" 2>&1 \
      || { cat "$WORK/walkthrough.log"; fail "$label: partner walkthrough"; }
    grep -q '"processed":1000,"created":1000' "$WORK/walkthrough.log" || { cat "$WORK/walkthrough.log"; fail "$label: import"; }
    grep -q '^1001 active users listed' "$WORK/walkthrough.log" || { cat "$WORK/walkthrough.log"; fail "$label: paging"; }
    grep -q '^/embed/partner/' "$WORK/walkthrough.log" || { cat "$WORK/walkthrough.log"; fail "$label: launch"; }
  fi
  echo "smoke ($label): ok on port $port"
}

unset DATABASE_URL
check_run embedded

if [ -x /usr/lib/postgresql/15/bin/pg_ctl ] && id postgres >/dev/null 2>&1; then
  PG15_DATA="$WORK/pg15"; mkdir -p "$PG15_DATA"; chown postgres "$PG15_DATA"
  pg_port=$(free_ports 1 database)
  su postgres -c "/usr/lib/postgresql/15/bin/initdb -D $PG15_DATA -A trust -U postgres" >/dev/null
  su postgres -c "/usr/lib/postgresql/15/bin/pg_ctl -D $PG15_DATA -o '-p $pg_port -k /tmp -c listen_addresses=127.0.0.1' -l $PG15_DATA/log start -w" >/dev/null
  su postgres -c "/usr/lib/postgresql/15/bin/createdb -h 127.0.0.1 -p $pg_port smoke"
  # Instances sharing a DATABASE_URL share one SECRET_KEY, given to each.
  DATABASE_URL="postgresql://postgres@127.0.0.1:$pg_port/smoke" SECRET_KEY="$(scripts/node24 -e 'console.log(require("crypto").randomBytes(32).toString("base64url"))')" check_run external-pg15
  [ ! -d "$WORK/data-external-pg15/postgres" ] || fail "DATABASE_URL was set but an embedded PostgreSQL was started"
else
  echo "smoke (external): skipped, Debian's PostgreSQL 15 is not installed"
fi
