#!/usr/bin/env bash
# CI: the recorder under ThreadSanitizer (issue 15). Builds libtasklens.so and a few examples
# with clang -fsanitize=thread in a build directory of its own, records each example with
# OMP_NUM_THREADS=4, and fails on any TSan report whose first frame (of either access) is in the
# recorder's code (src/recorder, src/format).
#
# libomp is not TSan-instrumented (no archer here): the order it creates between threads (a task
# created on one thread runs on another; a barrier) is invisible to TSan, so reports between two
# OpenMP callbacks that libomp orders are false. scripts/ci/tsan.supp names the few places of the
# recorder that only read what libomp itself ordered (the ids in ompt_data_t slots), and TSan's
# reports with no frame of ours are ignored. docs/RECORDER.md, "Checked by ThreadSanitizer".
#
# Usage: scripts/ci/tsan.sh   (TASKLENS_TSAN_BUILD_DIR overrides build-tsan/)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${TASKLENS_TSAN_BUILD_DIR:-$root/build-tsan}
start=$(date +%s)

launcher=()
if command -v ccache > /dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
mkdir -p "$build"
out_log=$build/tsan-cmake.log
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ "${launcher[@]}" \
  -DCMAKE_C_FLAGS="-fsanitize=thread" -DCMAKE_CXX_FLAGS="-fsanitize=thread" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=thread" \
  > "$out_log" 2>&1 || { cat "$out_log"; exit 1; }

# name and arguments: tasks with and without dependences, taskloop, locks, detach, cancel.
examples=("fib 16" "nqueens 7" "dep_chain 40 20" "taskloop 4000 20" "critical 2000"
          "detach 16" "untied 10" "wavefront 8 10")
targets=(tasklens)
for e in "${examples[@]}"; do targets+=("example_${e%% *}"); done
ninja -C "$build" -j"${TASKLENS_JOBS:-2}" "${targets[@]}"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
[[ -n ${TASKLENS_TSAN_KEEP:-} ]] && trap - EXIT && echo "tsan: logs in $out"
failed=0
for e in "${examples[@]}"; do
  read -r -a argv <<< "$e"
  name=${argv[0]}
  log=$out/$name.log
  status=0
  TSAN_OPTIONS="suppressions=$root/scripts/ci/tsan.supp exitcode=0 report_signal_unsafe=0 \
history_size=4 log_path=$log" \
    OMP_NUM_THREADS=4 OMP_TOOL_LIBRARIES="$build/lib/libtasklens.so" \
    TASKLENS_OUTPUT="$out/exp-$name" \
    "$build/examples/$name" "${argv[@]:1}" > "$out/$name.out" 2>&1 || status=$?
  if [[ $status -ne 0 ]] || ! grep -q " OK" "$out/$name.out"; then
    echo "tsan: $name failed (status $status):"; cat "$out/$name.out"; failed=1
  fi
  [[ -f $out/exp-$name/experiment.json ]] || { echo "tsan: $name recorded nothing"; failed=1; }
  # Each report is a block ending in a SUMMARY line; ours have a first frame ("#0") in our code.
  reports=$(cat "$log".* 2> /dev/null || true)
  ours=$(awk '/^WARNING: ThreadSanitizer/ {block = ""; mine = 0}
              {block = block "\n" $0}
              /^ +#0 / && /\/src\/(recorder|format)\// {mine = 1}
              /^SUMMARY: ThreadSanitizer/ {if (mine) print block; mine = 0}' <<< "$reports")
  total=$(grep -c "^WARNING: ThreadSanitizer" <<< "$reports" || true)
  if [[ -n $ours ]]; then
    echo "tsan: $name: reports in the recorder's code:"; echo "$ours"; failed=1
  else
    echo "tsan: $name OK ($total reports, none in the recorder's code)"
  fi
done
echo "tsan: $(( $(date +%s) - start )) s"
exit $failed
