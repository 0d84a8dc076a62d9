#!/bin/sh
# The slowdown of profile mode and of trace mode over the uninstrumented program, measured
# interleaved (docs/PROFILE-MODE-COST.md, "Measured"): examples/fib N without a cut-off on T threads,
# ROUNDS rounds, each running plain, profile and trace once in an order that rotates from round to
# round, so that a change of the machine's load hits the three alike. Prints each mode's median
# wall time and its slowdown (median / plain's median) and its median CPU time (user + sys of
# every thread, /usr/bin/time), with the load average before and after:
# on a shared machine the figures are "under load" and must be said so.
# Usage: bench/profile_mode/interleaved.sh [BUILD_DIR=build] [N=25] [THREADS=2] [ROUNDS=7]
set -eu
build=${1:-build}
n=${2:-25}
threads=${3:-2}
rounds=${4:-7}
tl="$build/bin/tasklens"
fib="$build/examples/fib"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export OMP_NUM_THREADS=$threads

run_mode() {  # mode: appends its wall ns to $out/<mode>, its CPU seconds to $out/<mode>.cpu
  rm -rf "$out/p" "$out/t"  # (--force does not take a profile.json it finds as its own)
  cpu="/usr/bin/time -a -o $out/$1.cpu -f %U+%S"
  t0=$(date +%s%N)
  case $1 in
    plain) $cpu "$fib" "$n" > /dev/null ;;
    profile) $cpu "$tl" run -q -n "$threads" --mode profile -o "$out/p" -- "$fib" "$n" > /dev/null ;;
    trace) $cpu "$tl" run -q -n "$threads" -o "$out/t" -- "$fib" "$n" > /dev/null ;;
  esac
  t1=$(date +%s%N)
  echo $((t1 - t0)) >> "$out/$1"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
while [ $i -lt "$rounds" ]; do
  case $((i % 3)) in
    0) order="plain profile trace" ;;
    1) order="profile trace plain" ;;
    *) order="trace plain profile" ;;
  esac
  for m in $order; do run_mode "$m"; done
  i=$((i + 1))
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$out" "$n" "$threads" "$rounds" <<'PY'
import statistics, sys
out, n, threads, rounds = sys.argv[1:]
med = {m: statistics.median(int(l) for l in open(f"{out}/{m}")) for m in ("plain", "profile", "trace")}
print(f"examples/fib {n} (no cut-off), {threads} threads, {rounds} interleaved rounds: median wall")
cpu = {m: statistics.median(sum(float(x) for x in l.split("+")) for l in open(f"{out}/{m}.cpu"))
       for m in ("plain", "profile", "trace")}
for m in ("plain", "profile", "trace"):
    print(f"  {m:8} {med[m] / 1e6:9.1f} ms  slowdown {med[m] / med['plain']:5.2f}x"
          f"   CPU (user+sys, every thread) {cpu[m] * 1e3:8.1f} ms")
print(f"  profile mode / trace mode: {med['profile'] / med['trace']:.2f} wall, "
      f"{cpu['profile'] / cpu['trace']:.2f} CPU")
PY
