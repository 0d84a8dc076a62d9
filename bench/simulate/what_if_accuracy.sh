#!/bin/sh
# what_if_accuracy.sh BUILD_DIR [RUNS=5]: the what-if model against real runs (docs/WHAT-IF.md).
# Per example: a 1-thread recording predicts 2 threads, compared with the median run.run_ns of
# RUNS real 2-thread recordings; and the reverse (the first 2-thread recording predicts 1 thread,
# against the median of RUNS 1-thread recordings). Run it on a quiet machine (check `uptime`):
# under load the recordings carry preemption and the figures mean little.
set -eu
build=${1:?usage: what_if_accuracy.sh BUILD_DIR [RUNS]}
runs=${2:-5}
tl=$build/bin/tasklens
ex=$build/examples
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median_run_ns() {  # median run.run_ns of the experiments given
  for d in "$@"; do "$tl" report "$d" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["run"]["run_ns"])'; done |
    sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'
}
predicted_ns() {  # predicted wall_ns at $2 threads from experiment $1
  "$tl" report "$1" --what-if-threads "$2" --json |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["what_if"]["predictions"][0]["wall_ns"])'
}

uptime
printf '%-28s %12s %12s %7s   %12s %12s %7s\n' program "pred 2 (1)" "real 2" err "pred 1 (2)" "real 1" err
for spec in "dep_chain 100 100" "tree 6 2 400" "wavefront 16 100" "imbalance 10000 1000" "fib 25"; do
  set -- $spec
  name=$1
  for n in 1 2; do
    i=0
    while [ $i -lt "$runs" ]; do
      "$tl" run -q -n $n -o "$tmp/$name.$n.$i" -- "$ex/$@" > /dev/null
      i=$((i + 1))
    done
  done
  real1=$(median_run_ns "$tmp/$name".1.*)
  real2=$(median_run_ns "$tmp/$name".2.*)
  pred2=$(predicted_ns "$tmp/$name.1.0" 2)
  pred1=$(predicted_ns "$tmp/$name.2.0" 1)
  awk -v s="$spec" -v p2="$pred2" -v r2="$real2" -v p1="$pred1" -v r1="$real1" 'BEGIN {
    printf "%-28s %9.3f ms %9.3f ms %+6.1f%%   %9.3f ms %9.3f ms %+6.1f%%\n", s, p2/1e6, r2/1e6,
      100*(p2-r2)/r2, p1/1e6, r1/1e6, 100*(p1-r1)/r1 }'
  rm -rf "$tmp"/*
done
uptime
