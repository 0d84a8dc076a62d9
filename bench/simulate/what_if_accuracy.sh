#!/bin/sh
# what_if_accuracy.sh BUILD_DIR [RUNS=5]: the what-if model against real runs (docs/WHAT-IF.md).
# PROGRAMS="name args;name args" replaces the thread-count examples; CUTOFF=0 skips the cut-off.
# Thread counts, per example: a 1-thread recording predicts 2 threads, compared with the median
# run.run_ns of RUNS real 2-thread recordings; and the reverse (the first 2-thread recording
# predicts 1 thread, against the median of RUNS 1-thread recordings). The issue's bar: 10 %.
# Each prediction twice: from the first recording alone, and from all RUNS recordings of that
# thread count (`report --what-if-also`: the median of their costs, docs/WHAT-IF.md).
# Cut-off: a 2-thread recording of a tree of 2 us tasks without cut-off (tree 7 4 2: 21,844 tasks)
# predicts the run with the cut-off at depth 3 (`--what-if-cutoffs 3`), against the median of
# RUNS real 2-thread runs of `tree 7 4 2 3`. The issue's bar: 20 %.
# Run it on a quiet machine (check `uptime`): under load the recordings carry preemption (the
# model leaves it out, the real runs keep it) and the figures mean little. The 1- and 2-thread
# runs alternate after a warm-up pair that is thrown away; a recording whose threads were
# preempted for more than 2 % of their time (breakdown.preempted_ns) is left out of the medians
# and of the predictions (said on stderr), unless every one was.
# The threads are bound (OMP_PROC_BIND=true, unless set already): on this project's VM the
# kernel put libomp's first worker on the initial thread's CPU in most unbound 2-thread runs,
# with or without tasklens, and the two took turns on that CPU for 20 to 40 ms while the other
# CPU idled (ftrace's sched events: 10 of 10 runs of uneven_tasks without a tool; 0 of 8 bound).
# Those runs are the kernel's placement, not the program: tasklens shows them as preempted time
# (WHAT-IF.md, "The threads' placement").
set -eu
export OMP_PROC_BIND="${OMP_PROC_BIND:-true}"
build=${1:?usage: what_if_accuracy.sh BUILD_DIR [RUNS]}
runs=${2:-5}
tl=$build/bin/tasklens
ex=$build/examples
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

quiet() {  # the experiments given whose threads were preempted for at most 2 % of their time
  for d in "$@"; do
    "$tl" report "$d" --json | python3 -c '
import json, sys
doc = json.load(sys.stdin)
run, b = doc["run"], doc["breakdown"]
if b["preempted_ns"] <= 0.02 * run["run_ns"] * max(1, run["threads"]):
    print(sys.argv[1])' "$d"
  done
}
pick() {  # pick NAME THREADS: the undisturbed recordings, or all of them when none is (record
  # wrote the undisturbed ones to $tmp/NAME.THREADS.quiet)
  if [ -s "$tmp/$1.$2.quiet" ]; then cat "$tmp/$1.$2.quiet"; else ls -d "$tmp/$1.$2".[0-9]*; fi
}
median_run_ns() {  # median run.run_ns of the experiments given
  for d in "$@"; do "$tl" report "$d" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["run"]["run_ns"])'; done |
    sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'
}
predicted_ns() {  # predicted wall_ns at $2 threads from experiment $1 [and the others, $3: A,B]
  "$tl" report "$1" --what-if-threads "$2" ${3:+--what-if-also "$3"} --json |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["what_if"]["predictions"][0]["wall_ns"])'
}
others() {  # others NAME THREADS: the picked recordings but the first, comma-separated
  pick "$1" "$2" | sed 1d | paste -sd, -
}
first() {  # first NAME THREADS: the first picked recording
  pick "$1" "$2" | head -n 1
}
cutoff_ns() {  # predicted wall_ns at the recorded thread count with cut-off depth $2, from $1
  "$tl" report "$1" --what-if-threads 2 --what-if-cutoffs "$2" ${3:+--what-if-also "$3"} --json |
    python3 -c '
import json, sys
cuts = [c for c in json.load(sys.stdin)["what_if"]["cutoffs"] if c["depth"] == int(sys.argv[1])]
print(cuts[0]["wall_ns"] if cuts else 0)' "$2"
}
record() {  # record NAME ARGS...: RUNS recordings at 1 and at 2 threads, interleaved, after
  # one of each that is thrown away (the first run of a program after a while is the slowest)
  name=$1
  shift
  i=-1
  while [ $i -lt "$runs" ]; do
    for n in 1 2; do
      [ "${ONLY2:-}" = 1 ] && [ $n = 1 ] && continue
      "$tl" run -q -n "$n" -o "$tmp/$name.$n.$i" -- "$ex/$@" > /dev/null
    done
    [ $i = -1 ] && rm -rf "$tmp/$name".*.-1
    i=$((i + 1))
  done
  for n in 1 2; do
    [ -d "$tmp/$name.$n.0" ] || continue
    quiet "$tmp/$name.$n".[0-9]* > "$tmp/$name.$n.quiet"
    total=$(ls -d "$tmp/$name.$n".[0-9]* | wc -l)
    kept=$(wc -l < "$tmp/$name.$n.quiet")
    if [ "$kept" = 0 ]; then
      echo "  $name, $n thread(s): every recording disturbed (preempted > 2 %): all kept" >&2
    elif [ "$kept" -lt "$total" ]; then
      echo "  $name, $n thread(s): $((total - kept)) of $total recordings disturbed (preempted > 2 %), left out" >&2
    fi
  done
  return 0
}

uptime
echo "OMP_PROC_BIND=$OMP_PROC_BIND"
# "pred": from the first recording alone; "all": from all RUNS recordings (--what-if-also).
printf '%-28s %12s %12s %12s %7s %7s   %12s %12s %12s %7s %7s\n' program "pred 2 (1)" "all" "real 2" \
  err "err all" "pred 1 (2)" "all" "real 1" err "err all"
programs=${PROGRAMS:-dep_chain 100 100;tree 6 2 400;wavefront 16 100;uneven_tasks 50 8 20}
echo "$programs" | tr ';' '\n' > "$tmp/programs"
while read -r spec; do
  set -- $spec
  name=$1
  record "$name" "$@"
  real1=$(median_run_ns $(pick "$name" 1))
  real2=$(median_run_ns $(pick "$name" 2))
  pred2=$(predicted_ns "$(first "$name" 1)" 2)
  pred1=$(predicted_ns "$(first "$name" 2)" 1)
  all2=$(predicted_ns "$(first "$name" 1)" 2 "$(others "$name" 1)")
  all1=$(predicted_ns "$(first "$name" 2)" 1 "$(others "$name" 2)")
  awk -v s="$spec" -v p2="$pred2" -v a2="$all2" -v r2="$real2" -v p1="$pred1" -v a1="$all1" \
    -v r1="$real1" 'BEGIN {
    printf "%-28s %9.3f ms %9.3f ms %9.3f ms %+6.1f%% %+6.1f%%   %9.3f ms %9.3f ms %9.3f ms %+6.1f%% %+6.1f%%\n",
      s, p2/1e6, a2/1e6, r2/1e6, 100*(p2-r2)/r2, 100*(a2-r2)/r2, p1/1e6, a1/1e6, r1/1e6,
      100*(p1-r1)/r1, 100*(a1-r1)/r1 }'
  find "$tmp" -mindepth 1 -maxdepth 1 \( -type d -o -name '*.quiet' \) -exec rm -rf {} +
done < "$tmp/programs"
[ "${CUTOFF:-1}" = 0 ] && exit 0
echo
printf '%-28s %12s %12s %12s %7s %7s\n' "cut-off at depth 3, 2 thr." "predicted" "all" "real" err \
  "err all"
ONLY2=1
record nocut tree 7 4 2
record cut tree 7 4 2 3
pred=$(cutoff_ns "$(first nocut 2)" 3)
all=$(cutoff_ns "$(first nocut 2)" 3 "$(others nocut 2)")
real=$(median_run_ns $(pick cut 2))
awk -v p="$pred" -v a="$all" -v r="$real" 'BEGIN {
  printf "%-28s %9.3f ms %9.3f ms %9.3f ms %+6.1f%% %+6.1f%%\n", "tree 7 4 2 -> tree 7 4 2 3", p/1e6,
    a/1e6, r/1e6, 100*(p-r)/r, 100*(a-r)/r }'
uptime
