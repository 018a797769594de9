#!/usr/bin/env bash
# Timed perft through the daemon, as a user would run it.
# Usage: scripts/perft.sh <variant> <depth> [<position string> | random:<seed>]
# Prints the per-move counts, the total, and the time and nodes per second (from the engine's log).
set -euo pipefail
if [[ "${1:-}" == "--help" || "${1:-}" == "-h" ]]; then
  sed -n '2,4p' "$0" | sed 's/^# //'
  exit 0
elif [[ $# -lt 2 ]]; then
  sed -n '2,4p' "$0" | sed 's/^# //' >&2
  exit 2
fi
cd "$(dirname "$0")/.."
cargo build --release --quiet
position="startpos"
case "${3:-}" in
  "") ;;
  random:*) position="random ${3#random:}" ;;
  *) position="fen $3" ;;
esac
printf 'variant %s\nposition %s\nperft %s\n' "$1" "$position" "$2" \
  | RUST_LOG=info ./target/release/mancala-engine 2> >(grep -o 'perft .*' >&2)
