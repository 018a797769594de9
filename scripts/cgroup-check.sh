#!/usr/bin/env bash
# Builds Kalah's tables up to 15 counters inside a control group limited to 60 MiB, as a batch
# task with --mem=60M runs: the generator must read the group's limit (not the machine's
# MemAvailable), build the layers that do not fit by whole passes, and finish. Needs root and a
# cgroup v1 memory controller or cgroup v2 with the memory controller enabled; skips otherwise.
# Measured on 2026-12-06: finished in 46 s with a 48 MiB peak; the build before the cgroup
# reading (d411ef6) was killed by the limit after 6 s.
set -euo pipefail
cd "$(dirname "$0")/.."
E=${E:-target/release/mancala-engine}
LIMIT=$((60 * 1024 * 1024))
if [[ -d /sys/fs/cgroup/memory ]] && [[ -w /sys/fs/cgroup/memory ]]; then
  G=/sys/fs/cgroup/memory/mancala-check-$$
  mkdir "$G"
  echo "$LIMIT" > "$G/memory.limit_in_bytes"
elif [[ -w /sys/fs/cgroup/cgroup.subtree_control ]] && grep -qw memory /sys/fs/cgroup/cgroup.controllers; then
  G=/sys/fs/cgroup/mancala-check-$$
  mkdir "$G"
  echo "$LIMIT" > "$G/memory.max"
else
  echo "cgroup-check: cannot make a memory-limited control group here (root and cgroups needed): skipped"
  exit 0
fi
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"; rmdir "$G" 2>/dev/null || true' EXIT
( echo $BASHPID > "$G/cgroup.procs"; exec "$E" tablebase kalah 15 "$OUT" )
echo "cgroup-check: tablebase kalah 15 finished under a 60 MiB limit"
