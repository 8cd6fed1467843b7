#!/usr/bin/env bash
# Runs the official MCP conformance suite (installed by `.ci/install-mcp-conformance.sh`)
# against tooldef's examples: every server scenario (`--suite all`) against
# `mcp_conformance_server`, and the client scenarios that apply to a tools client against
# `mcp_conformance_client`. Scenarios tooldef is expected to fail are in
# `.ci/mcp-conformance/expected-failures.yml`, each with its reason; anything else failing, or
# a listed scenario passing, fails the run. The suite's summary is printed for each run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/install-mcp-conformance.sh
node=.ci/.node/node_modules/.bin/node
suite=.ci/.node/node_modules/@modelcontextprotocol/conformance/dist/index.js
baseline=.ci/mcp-conformance/expected-failures.yml
# The client scenarios that apply to a client of tools (the others test OAuth flows).
client_scenarios=(initialize tools_call elicitation-sep1034-client-defaults sse-retry)

cargo build --locked -p tooldef-examples --example mcp_conformance_server --example mcp_conformance_client
examples="${CARGO_TARGET_DIR:-target}/debug/examples"

work=$(mktemp -d)
server_pid=
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

"$examples/mcp_conformance_server" 127.0.0.1:0 >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
url=
for _ in $(seq 1 100); do
    url=$(head -n 1 "$work/server.out" 2>/dev/null || true)
    [ -n "$url" ] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
done
if [ -z "$url" ]; then
    echo "mcp_conformance_server printed no URL; its stderr:" >&2
    cat "$work/server.err" >&2
    exit 1
fi

status=0
echo "== MCP conformance: server scenarios against $url"
"$node" "$suite" server --url "$url" --suite all --expected-failures "$baseline" \
    -o "$work/server-results" >"$work/server.log" 2>&1 || status=1
sed -n '/=== SUMMARY ===/,$p' "$work/server.log"
[ "$status" = 0 ] || { echo "server scenarios failed; the suite's output:" >&2; cat "$work/server.log" >&2; }

for scenario in "${client_scenarios[@]}"; do
    echo "== MCP conformance: client scenario $scenario"
    if "$node" "$suite" client --command "$examples/mcp_conformance_client" --scenario "$scenario" \
        --expected-failures "$baseline" -o "$work/client-results" >"$work/client.log" 2>&1; then
        grep -E '^(Passed|Total|Test Results|✓|✗)' "$work/client.log" || tail -n 3 "$work/client.log"
    else
        status=1
        echo "client scenario $scenario failed; the suite's output:" >&2
        cat "$work/client.log" >&2
    fi
done
exit "$status"
