#!/usr/bin/env bash
# Binary size of the 100-tool corpus: builds the probe programs (serde-only baseline, tooldef,
# schemars, and rmcp with RMCP=1) in release with cargo's default profile, strips copies, prints
# sizes and deltas over the baseline; then, if cargo-bloat is installed, where tooldef's bytes go.
# Not part of the test suite. Run from anywhere inside the workspace.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo run -q --release -p tooldef-benches --bin binsize -- ${RMCP:+--rmcp}

if cargo bloat --version >/dev/null 2>&1; then
    cd target/binsize
    export CARGO_TARGET_DIR="$PWD/target"
    echo
    echo "## cargo bloat --crates (bs_tooldef, unstripped .text)"
    cargo bloat -q --release -p bs_tooldef --crates -n 15 2>/dev/null
    echo
    echo "## cargo bloat -n 40 (bs_tooldef)"
    cargo bloat -q --release -p bs_tooldef -n 40 2>/dev/null
else
    echo "(cargo-bloat not installed: \`cargo install cargo-bloat --locked\` for the breakdown)"
fi
