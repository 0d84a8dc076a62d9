#!/usr/bin/env bash
# The recorder's stress runs (issue 15; not tests: minutes, and a few GB of disk at most). Each
# case records bench/stress/stress with the build tree's recorder and then reads the
# experiment back with `tasklens check`; a case fails when it leaves no experiment or one that
# `check` cannot read (exit status 2). One line per case: what ran, how it ended, peak memory of
# the recorded process (KiB, GNU time), events written and lost, check's verdict.
#
# Usage: bench/stress/run.sh [BUILD_DIR=build] [EVENTS=100000000]
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
events=${2:-100000000}
tasklens=$build/bin/tasklens
recorder=$build/lib/libtasklens.so
stress=$build/bench/stress/stress
out=$(mktemp -d "${TMPDIR:-/tmp}/tasklens-stress.XXXXXX")
trap 'rm -rf "$out"' EXIT
failed=0

# case NAME THREADS BUFFER_MB OVERFLOW ARGS...: the program runs with the recorder loaded by
# the runtime (as `tasklens run` does), under GNU time for its peak memory.
case_run() {
  local name=$1 threads=$2 buffer=$3 overflow=$4
  shift 4
  local dir=$out/$name
  local t0=$(date +%s.%N)
  env OMP_TOOL_LIBRARIES="$recorder" TASKLENS_OUTPUT="$dir" OMP_NUM_THREADS="$threads" \
    TASKLENS_BUFFER_MB="$buffer" TASKLENS_OVERFLOW="$overflow" \
    /usr/bin/time -f "%M" -o "$out/$name.rss" "$stress" "$@" > "$out/$name.out" 2> "$out/$name.err"
  local status=$?
  local wall=$(echo "$(date +%s.%N) - $t0" | bc)
  local rss=$(tail -n 1 "$out/$name.rss" 2> /dev/null)
  "$tasklens" check "$dir" > "$out/$name.check" 2>&1
  local check=$?
  local verdict=$(grep -E "^  (sound|not sound)" "$out/$name.check" | head -n 1 | sed 's/^  //')
  local meta=$dir/experiment.json
  local written=$(grep -o '"events_written":[0-9]*' "$meta" 2> /dev/null | cut -d: -f2)
  local lost=$(grep -o '"events_lost":[0-9]*' "$meta" 2> /dev/null | cut -d: -f2)
  local state=$(grep -o '"status":"[a-z_]*"' "$meta" 2> /dev/null | cut -d'"' -f4)
  local peak=$(grep -o '"peak_chunks_in_use":[0-9]*' "$meta" 2> /dev/null | cut -d: -f2)
  printf '%-14s status %-3s %5.1f s  rss %7s KiB  %-11s written %-10s lost %-10s peak chunks %-4s check %s: %s\n' \
    "$name" "$status" "$wall" "$rss" "$state" "$written" "$lost" "$peak" "$check" "$verdict"
  if [[ ! -f $meta || $check -ge 2 ]]; then
    echo "  FAILED: no readable experiment"; sed 's/^/  /' "$out/$name.check"; failed=1
  fi
}

echo "stress runs of $stress, $(nproc) CPUs, recorder $recorder"
case_run events-drop 2 16 drop events "$events"
case_run events-block 2 16 block events "$events"
case_run events-1mb-drop 2 1 drop events $((events / 10))
case_run threads64 64 16 block events 1000000
case_run nested4 2 64 block nested 4
case_run exit 2 64 block exit
case_run segv 2 64 block segv
exit $failed
