#!/usr/bin/env bash
# Quick self-play sanity match of the current build: the engine against itself in every game,
# refereed by mancala-match; fails if any game ends by a crash, hang, illegal move or time forfeit.
# Usage: scripts/selfplay.sh [--games N] [--movetime MS] [--variants v1,v2,...] [--concurrency N]
# Defaults: 20 games per game variant, 50 ms per move, all six built-in games, one game per core.
set -euo pipefail
games=20 movetime=50 variants="mangala-ii,mangala-iv,al-manqala,anywoli,kalah,oware" concurrency=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    -h|--help) sed -n '2,5p' "$0" | sed 's/^# //'; exit 0 ;;
    --games) games="$2"; shift 2 ;;
    --movetime) movetime="$2"; shift 2 ;;
    --variants) variants="$2"; shift 2 ;;
    --concurrency) concurrency="--concurrency $2"; shift 2 ;;
    *) echo "selfplay.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
cd "$(dirname "$0")/.."
cargo build --release --quiet --bins
engine=target/release/mancala-engine
summary=$(mktemp)
trap 'rm -f "$summary"' EXIT
status=0
for variant in ${variants//,/ }; do
  echo "== $variant: $games games at ${movetime} ms per move"
  # shellcheck disable=SC2086
  target/release/mancala-match --engine cmd=$engine name=one --engine cmd=$engine name=two \
    --variant "$variant" --games "$games" --movetime "$movetime" $concurrency \
    --json "$summary" | tail -n +$((games + 1))
  if grep -Eq '"(crashes|hangs|illegal_moves|time_forfeits)": [1-9]' "$summary"; then
    echo "selfplay.sh: $variant: faults in self-play (see above)" >&2
    status=1
  fi
done
exit $status
