#!/usr/bin/env bash
# Installs the official Python MCP SDK that `cargo test -p tooldef-cli --features python-sdk`
# drives (about 10 s from the package index).
set -euo pipefail
python3 -m pip install --quiet --disable-pip-version-check 'mcp==2.3.0'
