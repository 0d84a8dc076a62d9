#!/bin/sh
# Profile mode against trace mode and the uninstrumented program (docs/PROFILE-MODE-COST.md,
# "Measured"): examples/fib N without a cut-off on T threads, each run under /usr/bin/time -v.
# Prints per mode: wall time, peak RSS, experiment size and the tasks counted (which must be
# 2*fib(N+1)-2 in both modes). Timings on a shared machine are "under load": say so.
# Usage: bench/profile_mode/run.sh [BUILD_DIR=build] [N=32] [THREADS=2] [TRACE=1]
set -eu
build=${1:-build}
n=${2:-32}
threads=${3:-2}
trace=${4:-1}
tl="$build/bin/tasklens"
fib="$build/examples/fib"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

measure() {  # label, command...
  label=$1
  shift
  /usr/bin/time -v -o "$out/time" "$@" > "$out/stdout" 2> "$out/stderr" || true
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$out/time")
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$out/time")
  printf '%-10s wall %-9s peak RSS %7s KiB  %s\n' "$label" "$wall" "$rss" "$(cat "$out/stdout")"
}

export OMP_NUM_THREADS=$threads
measure plain "$fib" "$n"
measure profile "$tl" run -q -n "$threads" --mode profile -o "$out/p" --force -- "$fib" "$n"
printf '  profile experiment: %s bytes; ' "$(du -sb "$out/p" | cut -f1)"
"$tl" report "$out/p" --profile --json |
  python3 -c 'import json,sys; d=json.load(sys.stdin); print("tasks counted:", sum(t["instances"] for t in d["tasks"]))'
if [ "$trace" = 1 ]; then
  measure trace "$tl" run -q -n "$threads" -o "$out/t" --force -- "$fib" "$n"
  printf '  trace experiment: %s bytes\n' "$(du -sb "$out/t" | cut -f1)"
fi
