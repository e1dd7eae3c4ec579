#!/usr/bin/env bash
# The partner-directory walkthrough of the README, runnable: integration and keys with the
# CLI, then with curl a team, users, an import of 1,000 users, disable/reactivate, a profile
# change, a deletion and a reprovision, polling each operation to `completed`.
# Usage: BASE=http://127.0.0.1:3000 examples/partner-walkthrough.sh   (the API must be running)
set -euo pipefail
BASE=${BASE:-http://127.0.0.1:3000}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
json() { scripts/node24 -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=process.argv[1].split(".").reduce((o,k)=>o?.[k],JSON.parse(s));console.log(typeof v==="object"?JSON.stringify(v):v)})' "$1"; }
say() { printf '\n\033[1m› %s\033[0m\n' "$*" >&2; }

say "organization, integration and a directory key (CLI)"
ORG=$(pnpm cli org:create --name "Walkthrough Lending" --json | json id)
SLUG="walk-$(date +%s)"
pnpm cli integration:create --org "$ORG" --slug "$SLUG" --json >/dev/null
KEY=$(pnpm cli key:create --org "$ORG" --name directory --scopes embed:users:read,embed:users:write,embed:teams:read,embed:teams:write --json | json key)
DELETE_KEY=$(pnpm cli key:create --org "$ORG" --name deletions --scopes embed:users:delete --json | json key)
API="$BASE/v1/integrations/$SLUG"
call() { curl -sS -H "Authorization: Bearer ${AUTH:-$KEY}" -H "Content-Type: application/json" "$@"; }
poll() { # operation id → waits for completed
  for _ in $(seq 1 100); do
    status=$(call "$API/user-operations/$1" | json operation.status)
    [ "$status" = completed ] && { echo "  operation $1: completed" >&2; return; }
    [ "$status" = failed ] && { echo "operation $1 failed" >&2; exit 1; }
    sleep 0.2
  done
  echo "operation $1 did not complete" >&2; exit 1
}

say "a team and a user"
call -X PUT "$API/teams/loan-officers" -d '{"name":"Loan officers"}' | json team.status
call -X PUT "$API/users/lo-1001" -d '{"email":"lo1001@example.test","name":"Lee Officer","team_external_id":"loan-officers"}' | json user.launch_eligibility

say "an import of 1,000 users"
scripts/node24 -e 'console.log(JSON.stringify({users:Array.from({length:1000},(_,i)=>({external_user_id:`bulk-${i}`,email:`bulk${i}@example.test`}))}))' > /tmp/walkthrough-import.json
JOB=$(call -X POST "$API/user-imports" -H "Idempotency-Key: import-$SLUG" --data @/tmp/walkthrough-import.json | json import.job_id)
for _ in $(seq 1 300); do
  status=$(call "$API/user-imports/$JOB" | json import.status)
  [ "$status" = completed ] && break
  sleep 0.5
done
call "$API/user-imports/$JOB" | json import.summary

say "disable, reactivate"
call -X PATCH "$API/users/lo-1001" -d '{"status":"disabled"}' | json user.status
call -X PATCH "$API/users/lo-1001" -d '{"status":"active"}' | json user.status

say "a profile change"
poll "$(call -X POST "$API/users/lo-1001/profile-changes" -H "Idempotency-Key: profile-lo-1001-$SLUG" -d '{"name":"Lee Officer-Smith"}' | json operation.operation_id)"

say "a deletion (with the deletion-only key), then a reprovision"
poll "$(AUTH=$DELETE_KEY call -X POST "$API/users/lo-1001/deletions" -H "Idempotency-Key: delete-lo-1001-$SLUG" -d '{"note":"left"}' | json operation.operation_id)"
poll "$(call -X POST "$API/users/lo-1001/reprovision" -H "Idempotency-Key: reprovision-lo-1001-$SLUG" -d '{"email":"lo1001@example.test"}' | json operation.operation_id)"
call "$API/users/lo-1001" | json user.account_generation
call "$API/users?limit=1" | json counts
