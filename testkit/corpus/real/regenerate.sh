#!/usr/bin/env bash
# Rebuilds the real-world tool corpus beside this script from the package registries, at the
# pinned versions below. Needs node + npm, python3.11 + pip, and the Python MCP SDK (`mcp`).
# Not run in CI: the corpus is checked in. Usage: regenerate.sh [WORK_DIR]
#
# Each MCP server is installed in a prefix (npm) or a virtual environment (PyPI) of its own, so
# that no two servers share a dependency tree, then started on stdio and listed with the SDK's
# client (collect.py). Servers that insist on a credential get a dummy one: listing tools sends
# nothing to the service.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="${1:-$(mktemp -d)}"
mkdir -p "$work"
collect=(python3 "$here/collect.py")
export QUIET=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 PUPPETEER_SKIP_DOWNLOAD=1
scratch="$work/scratch"
mkdir -p "$scratch"

# npm_server OUT PACKAGE@VERSION BIN [--env K=V]... [-- ARG...]
npm_server() {
  local out="$1" pkg="$2" bin="$3"; shift 3
  local prefix="$work/npm/$out"
  if [[ ! -x "$prefix/node_modules/.bin/$bin" ]]; then
    npm install --silent --no-audit --no-fund --ignore-scripts --prefix "$prefix" "$pkg" ||
      { echo "$out: $pkg did not install" >&2; return 0; }
  fi
  local opts=()
  while [[ $# -gt 0 && "$1" != "--" ]]; do opts+=("$1" "$2"); shift 2; done
  [[ $# -gt 0 ]] && shift
  "${collect[@]}" mcp "$here/mcp-npm/$out.json" "${opts[@]}" --cwd "$scratch" -- \
    node "$prefix/node_modules/.bin/$bin" "$@" ||
    echo "$out: not listed" >&2
}

# pypi_server OUT REQUIREMENT MODULE_OR_BIN [--env K=V]... [-- ARG...]
pypi_server() {
  local out="$1" req="$2" bin="$3"; shift 3
  local venv="$work/pypi/$out"
  if [[ ! -x "$venv/bin/$bin" ]]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "$req" || { echo "$out: $req did not install" >&2; return 0; }
  fi
  local opts=()
  while [[ $# -gt 0 && "$1" != "--" ]]; do opts+=("$1" "$2"); shift 2; done
  [[ $# -gt 0 ]] && shift
  "${collect[@]}" mcp "$here/mcp-pypi/$out.json" "${opts[@]}" --cwd "$scratch" -- \
    "$venv/bin/$bin" "$@" ||
    echo "$out: not listed" >&2
}

# MCP servers published on npm. Tried and left out, because they list no tools without a live
# account or the SDK's client refuses their listing: @modelcontextprotocol/server-gitlab
# 2025.4.25 (input schemas without `type`), @supabase/mcp-server-supabase 0.13.0,
# @heroku/mcp-server 1.2.8, @stripe/mcp 0.3.3, and from PyPI mcp-server-motherduck 1.1.0.
npm_server server-everything @modelcontextprotocol/server-everything@2026.8.31 mcp-server-everything
npm_server server-filesystem @modelcontextprotocol/server-filesystem@2026.8.31 mcp-server-filesystem -- "$scratch"
npm_server server-memory @modelcontextprotocol/server-memory@2026.8.31 mcp-server-memory --env MEMORY_FILE_PATH="$scratch/memory.json"
npm_server server-sequential-thinking @modelcontextprotocol/server-sequential-thinking@2026.8.31 mcp-server-sequential-thinking
npm_server server-github @modelcontextprotocol/server-github@2025.4.8 mcp-server-github --env GITHUB_PERSONAL_ACCESS_TOKEN=dummy
npm_server server-puppeteer @modelcontextprotocol/server-puppeteer@2025.5.12 mcp-server-puppeteer
npm_server server-slack @modelcontextprotocol/server-slack@2025.4.25 mcp-server-slack --env SLACK_BOT_TOKEN=xoxb-dummy --env SLACK_TEAM_ID=T0
npm_server server-brave-search @modelcontextprotocol/server-brave-search@0.6.2 mcp-server-brave-search --env BRAVE_API_KEY=dummy
npm_server playwright-mcp @playwright/mcp@0.0.83 playwright-mcp
npm_server chrome-devtools-mcp chrome-devtools-mcp@1.11.0 chrome-devtools-mcp
npm_server notion-mcp-server @notionhq/notion-mcp-server@2.5.2 notion-mcp-server --env NOTION_TOKEN=dummy
npm_server context7-mcp @upstash/context7-mcp@4.1.1 context7-mcp
npm_server firecrawl-mcp firecrawl-mcp@3.26.0 firecrawl-mcp --env FIRECRAWL_API_KEY=fc-dummy
npm_server exa-mcp-server exa-mcp-server@3.4.1 exa-mcp-server --env EXA_API_KEY=dummy
npm_server mcp-server-kubernetes mcp-server-kubernetes@4.1.7 mcp-server-kubernetes
npm_server tavily-mcp tavily-mcp@0.2.22 tavily-mcp --env TAVILY_API_KEY=tvly-dummy
npm_server mongodb-mcp-server mongodb-mcp-server@3.0.4 mongodb-mcp-server
npm_server desktop-commander @wonderwhy-er/desktop-commander@0.2.52 desktop-commander
npm_server figma-developer-mcp figma-developer-mcp@0.13.2 figma-developer-mcp --env FIGMA_API_KEY=dummy -- --stdio
npm_server executeautomation-playwright @executeautomation/playwright-mcp-server@1.0.12 playwright-mcp-server
npm_server azure-mcp @azure/mcp@2.0.5 azmcp -- server start

# MCP servers published on PyPI.
pypi_server mcp-server-fetch mcp-server-fetch==2026.10.24 mcp-server-fetch
pypi_server mcp-server-git mcp-server-git==2026.10.19 mcp-server-git
pypi_server mcp-server-time mcp-server-time==2026.10.19 mcp-server-time
pypi_server awslabs-aws-documentation-mcp-server awslabs.aws-documentation-mcp-server==1.2.3 awslabs.aws-documentation-mcp-server
pypi_server awslabs-aws-pricing-mcp-server awslabs.aws-pricing-mcp-server==1.1.1 awslabs.aws-pricing-mcp-server --env AWS_REGION=us-east-1
pypi_server awslabs-cloudwatch-mcp-server awslabs.cloudwatch-mcp-server==0.3.1 awslabs.cloudwatch-mcp-server --env AWS_REGION=us-east-1
pypi_server awslabs-dynamodb-mcp-server awslabs.dynamodb-mcp-server==2.1.8 awslabs.dynamodb-mcp-server --env AWS_REGION=us-east-1
pypi_server mcp-atlassian mcp-atlassian==0.23.1 mcp-atlassian --env JIRA_URL=https://example.atlassian.net --env JIRA_USERNAME=a@example.com --env JIRA_API_TOKEN=dummy --env CONFLUENCE_URL=https://example.atlassian.net/wiki --env CONFLUENCE_USERNAME=a@example.com --env CONFLUENCE_API_TOKEN=dummy
pypi_server arxiv-mcp-server arxiv-mcp-server==0.8.2 arxiv-mcp-server -- --storage-path "$scratch/arxiv"

# Function-calling data sets and agent framework tools.
data="$work/py-data"
if [[ ! -x "$data/bin/python" ]]; then
  python3 -m venv "$data"
  "$data/bin/pip" install --quiet bfcl-eval==2026.3.23 --no-deps
  # What importing BFCL's handler utilities needs, without the model SDKs bfcl-eval also pins.
  "$data/bin/pip" install --quiet tenacity filelock tree_sitter==0.21.3 tree-sitter-java==0.21.0 \
    tree-sitter-javascript==0.21.4
  "$data/bin/pip" install --quiet langchain-community==0.4.2 langchain-core==1.8.1
fi
"$data/bin/python" "$here/collect.py" bfcl "$here/bfcl"
"$data/bin/python" "$here/collect.py" langchain "$here/langchain/langchain-community.json"
