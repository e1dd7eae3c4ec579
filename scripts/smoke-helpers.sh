# Shared by the smoke runs (scripts/smoke.sh, scripts/readme-smoke.sh); source it from the repository root.
fail() { echo "SMOKE FAILED: $*" >&2; exit 1; }
free_port() { scripts/node24 -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
