#!/usr/bin/env bash
# Issue 19's table in one command: recording cost against the empty OMPT tool and no tool, then
# the readers (report --all, check, every export) on one recorded trace: events/s, peak RSS and
# bytes per recorded event.
#
#   bench/speed/speed_table.sh [BUILD_DIR]          (default: build)
#
# Environment:
#   FIB=30          fib size, no cut-off (bench/programs/fib; 30: 2.7 M tasks, about 13.5 M events)
#   ROUNDS=5        interleaved rounds of the recording comparison (bench/overhead/overhead.py)
#   THREADS=1,2     thread counts of the recording comparison
#   EXTRA="label: command args"   more programs for the recording comparison (timed as whole
#                   processes when they print no time=), e.g. a BOTS uts built elsewhere
#   READERS_EXTRA="label: command args; ..."   more traces for report --all and check (recorded
#                   with 2 threads), e.g. uts-like ones: a BOTS uts built elsewhere
#   SKIP_RECORDING=1  only the readers
#   STARTUP_ROUNDS=31 interleaved rounds of the start-up row (bench/speed/startup.py); 0 skips it
#
# Recording: overhead.py runs every program in three modes per round (no tool, the empty tool,
# tasklens), rotating the order, and prints medians; "tl/empty" is the ratio against the floor.
# Readers: each command runs once on the fib trace recorded with 2 threads, under
# /usr/bin/time -v (elapsed time, maximum RSS); events/s = recorded events / elapsed seconds.
# Timings depend on the machine's load, printed with the table: compare runs at the same load.
set -euo pipefail
BUILD=$(cd "${1:-build}" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
FIB=${FIB:-30}
ROUNDS=${ROUNDS:-5}
THREADS=${THREADS:-1,2}
T=$BUILD/bin/tasklens
for need in "$T" "$BUILD/bench/programs/fib" "$BUILD/lib/libtasklens_empty_tool.so" "$BUILD/lib/libtasklens_naive_tool.so"; do
  [[ -e $need ]] || { echo "speed_table: $need missing (ninja -C $BUILD tasklens_cli benchprog_fib tasklens_empty_tool tasklens_naive_tool)" >&2; exit 2; }
done
[[ -x /usr/bin/time ]] || { echo "speed_table: /usr/bin/time missing (Debian package time)" >&2; exit 2; }
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/tasklens-speed.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT

echo "speed_table: $(uname -n), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"

if [[ -z ${SKIP_RECORDING:-} ]]; then
  {
    echo "fib-$FIB: {build}/bench/programs/fib $FIB 0"
    [[ -n ${EXTRA:-} ]] && echo "$EXTRA"
  } > "$SCRATCH/programs.txt"
  python3 "$HERE/../overhead/overhead.py" --build "$BUILD" --list "$SCRATCH/programs.txt" \
    --threads "$THREADS" --runs "$ROUNDS"
fi

# Start-up and exit: a whole process of 2 tasks, no tool / empty tool / recorder / tasklens run.
if [[ ${STARTUP_ROUNDS:-31} != 0 ]]; then
  echo
  python3 "$HERE/startup.py" --build "$BUILD" --rounds "${STARTUP_ROUNDS:-31}"
fi

# record DIR WHAT -- COMMAND: the trace the readers read (2 threads), its events in EVENTS, and
# the header of its rows.
record() {
  local dir=$1 what=$2; shift 3
  "$T" run -q -n 2 -o "$dir" -- "$@" > /dev/null
  EVENTS=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["recorder"]["events_written"])' \
    "$dir/experiment.json")
  echo
  local bytes
  bytes=$(du -sb "$dir" | cut -f1)
  echo "readers on $what (2 threads): $EVENTS events, trace $((bytes / 1000000)) MB" \
    "($(awk -v b="$bytes" -v e="$EVENTS" 'BEGIN {printf "%.1f", b / e}') B/event)," \
    "load average $(cut -d' ' -f1 /proc/loadavg)"
  printf '%-26s %8s %12s %9s %12s %8s\n' what seconds "events/s" "peak MB" "output MB" "B/event"
}
record "$SCRATCH/fib" "fib $FIB (no cut-off)" -- "$BUILD/bench/programs/fib" "$FIB" 0

# measure LABEL OUTPUT... -- COMMAND: one run, its time, peak RSS and what it wrote.
measure() {
  local label=$1; shift
  local outputs=()
  while [[ $1 != -- ]]; do outputs+=("$1"); shift; done
  shift
  /usr/bin/time -v -o "$SCRATCH/time.txt" "$@" > /dev/null 2> "$SCRATCH/err.txt" || {
    echo "speed_table: $label failed: $(tail -1 "$SCRATCH/err.txt")" >&2; return 0; }
  local secs rss bytes=0
  secs=$(awk -F': ' '/Elapsed/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s}' "$SCRATCH/time.txt")
  rss=$(awk -F': ' '/Maximum resident/ {print $2}' "$SCRATCH/time.txt")
  for o in ${outputs[@]+"${outputs[@]}"}; do
    [[ -e $o ]] && bytes=$((bytes + $(du -sb "$o" | cut -f1)))
  done
  awk -v l="$label" -v s="$secs" -v e="$EVENTS" -v r="$rss" -v b="$bytes" 'BEGIN {
    printf "%-26s %8.2f %12.0f %9.0f %12s %8s\n", l, s, e / s, r / 1024,
      b ? sprintf("%.0f", b / 1e6) : "-", b ? sprintf("%.1f", b / e) : "-" }'
  for o in ${outputs[@]+"${outputs[@]}"}; do rm -rf "$o"; done
}

X=$SCRATCH/fib
O=$SCRATCH/out
measure "report --all --json" -- "$T" report --all --json "$X"
measure "check" -- "$T" check "$X"
measure "export otf2" "$O.otf2" "$O.def" "$O" -- "$T" export -q --no-symbols --big --to otf2 -o "$O.otf2" "$X"
measure "export paraver" "$O.prv" "$O.pcf" "$O.row" -- "$T" export -q --no-symbols --big --to paraver -o "$O" "$X"
measure "export perfetto" "$O.pftrace" -- "$T" export -q --no-symbols --big --to perfetto -o "$O.pftrace" "$X"
measure "export perfetto-json" "$O.json" -- "$T" export -q --no-symbols --big --to perfetto-json -o "$O.json" "$X"

# The analyses on the other traces: report --all and check (the exports' bars are fib's).
IFS=';' read -ra extras <<< "${READERS_EXTRA:-}"
for extra in ${extras[@]+"${extras[@]}"}; do
  label=$(echo "${extra%%:*}" | xargs)
  read -ra command <<< "${extra#*:}"
  rm -rf "$X"
  record "$X" "$label" -- "${command[@]}"
  measure "report --all --json" -- "$T" report --all --json "$X"
  measure "check" -- "$T" check "$X"
done
