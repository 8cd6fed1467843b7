#!/usr/bin/env bash
# Regenerates every figure in benches/README.md: the corpus, the criterion benchmarks (short
# measurement times: the machine is shared), the ratio table, the cold render in interleaved
# pairs, the byte ratios and the compile-time ratios. Run from anywhere inside the workspace.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo run -q -p tooldef-benches --bin gen_corpus
cargo bench -p tooldef-benches --features bench --bench render --bench decode --bench workspace --bench stream --bench mcp --bench scale --bench coresident \
    -- --warm-up-time 1 --measurement-time 3
cargo bench -p tooldef-coresident-alone --features bench --bench coresident -- --warm-up-time 1 --measurement-time 3
echo "## Speed (criterion means, one run)"
cargo run -q -p tooldef-benches --bin report
echo "## Cold render in interleaved pairs (median of 101 pairs; run it five times)"
cargo run -q --release -p tooldef-benches --features bench --bin render_pairs 101
echo "## Bytes"
cargo run -q --release -p tooldef-benches --features bench --bin byte_ratios
echo "## Compile time"
cargo run -q --release -p tooldef-benches --bin compile_time -- --runs "${RUNS:-5}" ${RMCP:+--rmcp}
