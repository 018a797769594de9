#!/usr/bin/env bash
# The full pre-commit check: formatting, lints, and the test suite (as CI runs it).
# Usage: scripts/check.sh [--help]
set -euo pipefail
if [[ "${1:-}" == "--help" || "${1:-}" == "-h" ]]; then
  sed -n '2,3p' "$0" | sed 's/^# //'
  exit 0
fi
cd "$(dirname "$0")/.."
cargo fmt --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --profile ci
