#!/bin/sh
# The suite on a busy machine: `CI=true npm test` RUNS times in a row (default 5) while two busy
# loops load the CPUs, each run's log kept in test-output/loaded/. Exits non-zero when a run failed.
# Usage: scripts/loaded-suite.sh [RUNS]
set -u
cd "$(dirname "$0")/.." || exit 2
runs=${1:-5}
logs=test-output/loaded
mkdir -p "$logs"
sh -c 'while :; do :; done' & b1=$!
sh -c 'while :; do :; done' & b2=$!
trap 'kill $b1 $b2 2>/dev/null' EXIT INT TERM
failed=0
i=1
while [ "$i" -le "$runs" ]; do
  start=$(date +%s)
  CI=true npm test > "$logs/run-$i.log" 2>&1
  rc=$?
  [ "$rc" -eq 0 ] || failed=$((failed + 1))
  echo "run $i: exit $rc in $(( $(date +%s) - start )) s; $(grep -E '^# (pass|fail) ' "$logs/run-$i.log" | tr '\n' ' ')load $(cut -d' ' -f1-3 /proc/loadavg)"
  i=$((i + 1))
done
echo "loaded suite: $((runs - failed)) of $runs runs passed"
[ "$failed" -eq 0 ]
