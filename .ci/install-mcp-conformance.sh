#!/usr/bin/env bash
# Installs the official MCP conformance suite (`@modelcontextprotocol/conformance`) and the
# Node.js 22 it needs (the suite calls `fs.globSync`, which Node 20 lacks) into `.ci/.node/`,
# a git-ignored folder of the checkout, at the versions `.ci/mcp-conformance/package-lock.json`
# pins. The npm package `node` brings the Node binary from the package registry, so the only
# thing this needs from the machine is an `npm` of any version. Prints nothing on success; a
# second run with the same lock file is a no-op.
set -euo pipefail
cd "$(dirname "$0")"
dest=.node
stamp="$dest/.installed-lock.sha256"
want=$(sha256sum mcp-conformance/package-lock.json | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x "$dest/node_modules/.bin/node" ]; then
    exit 0
fi
rm -rf "$dest"
mkdir -p "$dest"
cp mcp-conformance/package.json mcp-conformance/package-lock.json "$dest/"
(cd "$dest" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
"$dest/node_modules/.bin/node" --version | grep -q '^v22\.' \
    || { echo "the pinned Node.js did not install under .ci/.node" >&2; exit 1; }
echo "$want" >"$stamp"
