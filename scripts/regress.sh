#!/usr/bin/env bash
# The regression checks a CI can run: golden perft data, protocol transcripts through the real
# binary, and the bench signature (the node count of `mancala-engine bench`).
# Usage: scripts/regress.sh [--update-signature | --update-transcripts]
# The signature lives in tests/data/bench-signature; a change that alters search behaviour on
# purpose updates it (--update-signature) and names the new value in its commit message.
# --update-transcripts rewrites tests/transcripts/*.out from the release binary (timing fields
# read N, as tests/cli/protocol.rs compares them): review the diff before committing it.
set -euo pipefail
update=false
case "${1:-}" in
  -h|--help) sed -n '2,8p' "$0" | sed 's/^# //'; exit 0 ;;
  --update-signature) update=true ;;
  --update-transcripts)
    cd "$(dirname "$0")/.."
    cargo build --release --quiet -p mancala --bin mancala-engine
    for input in tests/transcripts/*.in; do
      target/release/mancala-engine < "$input" 2>/dev/null | awk '
        $1 == "info" { for (i = 2; i <= NF; i++) if ($(i-1) == "nps" || $(i-1) == "time" || $(i-1) == "hashfull") $i = "N" }
        { print }' > "${input%.in}.out"
    done
    git status --short tests/transcripts
    exit 0 ;;
  "") ;;
  *) echo "regress.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."
echo "== perft data and protocol transcripts"
cargo test --profile ci --quiet -p mancala-rules --test perft
cargo test --profile ci --quiet -p mancala --test cli protocol::
echo "== bench signature"
cargo build --release --quiet -p mancala --bin mancala-engine
nodes=$(target/release/mancala-engine bench 2>/dev/null | sed -n 's/^Nodes searched: //p')
expected=$(tr -d '[:space:]' < tests/data/bench-signature)
if $update; then
  echo "$nodes" > tests/data/bench-signature
  echo "bench signature: $expected -> $nodes"
elif [[ "$nodes" != "$expected" ]]; then
  echo "regress.sh: bench signature $nodes, expected $expected (search behaviour changed)" >&2
  exit 1
else
  echo "bench signature $nodes: ok"
fi
