#!/usr/bin/env bash
# Builds two revisions of the engine and runs an SPRT match between them with mancala-match.
# Usage: scripts/sprt.sh NEW_REV BASE_REV [--variant V] [--tc TC] [--sprt E0 E1 A B]
#                        [--games N] [--concurrency N]
# Defaults: mangala-ii, --tc 2+0.02, --sprt 0 5 0.05 0.05, at most 20000 games, one game per core.
# NEW_REV is the first engine: H1 accepted means NEW is stronger by about E1 Elo. Builds are kept
# in target/sprt/<commit>; the match runner is the one of the working tree.
set -euo pipefail
if [[ $# -lt 2 || "$1" == "-h" || "$1" == "--help" ]]; then
  sed -n '2,7p' "$0" | sed 's/^# //'
  [[ $# -ge 1 && ( "$1" == "-h" || "$1" == "--help" ) ]] && exit 0 || exit 2
fi
new_rev="$1" base_rev="$2"; shift 2
variant=mangala-ii tc=2+0.02 sprt=(0 5 0.05 0.05) games=20000 concurrency=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --variant) variant="$2"; shift 2 ;;
    --tc) tc="$2"; shift 2 ;;
    --sprt) sprt=("$2" "$3" "$4" "$5"); shift 5 ;;
    --games) games="$2"; shift 2 ;;
    --concurrency) concurrency=(--concurrency "$2"); shift 2 ;;
    *) echo "sprt.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

# Builds revision $1 once; prints the path of its engine binary.
build() {
  local commit dir
  commit=$(git rev-parse --verify "$1^{commit}")
  dir="$root/target/sprt/$commit"
  if [[ ! -x "$dir/engine" ]]; then
    rm -rf "$dir/src"
    mkdir -p "$dir"
    git worktree add --detach --force "$dir/src" "$commit" >&2
    (cd "$dir/src" && CARGO_TARGET_DIR="$dir/target" cargo build --release --quiet --bin mancala-engine) >&2
    cp "$dir/target/release/mancala-engine" "$dir/engine"
    git worktree remove --force "$dir/src" >&2
  fi
  echo "$dir/engine"
}

new_engine=$(build "$new_rev")
base_engine=$(build "$base_rev")
cargo build --release --quiet --bin mancala-match
exec target/release/mancala-match \
  --engine cmd="$new_engine" name="new-$(git rev-parse --short "$new_rev")" \
  --engine cmd="$base_engine" name="base-$(git rev-parse --short "$base_rev")" \
  --variant "$variant" --tc "$tc" --games "$games" "${concurrency[@]}" \
  --sprt "${sprt[@]}" --json "target/sprt/last.json"
