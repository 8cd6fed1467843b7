#!/usr/bin/env bash
# The public API of every published library crate, one line per item (.ci/public_api.py over
# rustdoc's JSON output), checked against the listings committed in public-api/.
#
#   .ci/public-api.sh          check: fail on any difference, and on any commit that changed a
#                              listing without adding to CHANGELOG.md
#   .ci/public-api.sh --write  write the listings after a deliberate change to the API (then add
#                              the change, with its migration, to CHANGELOG.md in the same commit)
#
# rustdoc's JSON output is unstable, so this reads it from the stable toolchain with
# RUSTC_BOOTSTRAP=1 (the listing is plain text, so only this script depends on its format), in a
# build directory of its own so that the docs build keeps its cache.
set -euo pipefail
cd "$(dirname "$0")/.."
crates=(tooldef tooldef-macros tooldef-openai tooldef-anthropic tooldef-gemini tooldef-ollama
    tooldef-mcp tooldef-bedrock)
target="${CARGO_TARGET_DIR:-target}/public-api"
fresh=$(mktemp -d)
trap 'rm -rf "$fresh"' EXIT

for crate in "${crates[@]}"; do
    RUSTC_BOOTSTRAP=1 RUSTDOCFLAGS="-Z unstable-options --output-format json" \
        cargo doc --quiet --no-deps --all-features --locked -p "$crate" --target-dir "$target"
    python3 .ci/public_api.py "$target/doc/${crate//-/_}.json" > "$fresh/$crate.txt"
done

if [[ "${1:-}" == "--write" ]]; then
    mkdir -p public-api
    rm -f public-api/*.txt
    cp "$fresh"/*.txt public-api/
    wc -l public-api/*.txt
    exit 0
fi

status=0
for crate in "${crates[@]}"; do
    if ! diff -u "public-api/$crate.txt" "$fresh/$crate.txt" > "$fresh/$crate.diff"; then
        echo "the public API of $crate changed:" >&2
        cat "$fresh/$crate.diff" >&2
        status=1
    fi
done
if [[ $status != 0 ]]; then
    echo "run .ci/public-api.sh --write and say what changed, with its migration, in CHANGELOG.md" >&2
    exit 1
fi

# Every commit that changed a listing also changed the changelog (merges carry their branches'
# commits, which are checked themselves). A shallow clone checks the history it has.
if git rev-parse --git-dir > /dev/null 2>&1; then
    while read -r commit; do
        if ! git show --format= --name-only "$commit" | grep -qx CHANGELOG.md; then
            echo "commit $(git log -1 --format='%h %s' "$commit") changed public-api/ without a CHANGELOG.md line" >&2
            status=1
        fi
    done < <(git log --no-merges --format=%H -- public-api)
fi
exit $status
