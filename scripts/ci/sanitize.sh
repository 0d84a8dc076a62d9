#!/usr/bin/env bash
# CI's sanitizer step (docs/ROBUSTNESS.md): builds the reader side (format, replay, analysis,
# report, export, html, the CLI) with ASan+UBSan and libFuzzer coverage into its own build directory,
# runs the tests of those libraries and the CLI's bad-input tests there (not the timing tests, not
# the recordings: the recorder stays uninstrumented in the programs it is loaded into), then
# fuzzes the experiment reader for a fixed time from a seed corpus recorded from the examples.
# Any sanitizer report, failed test or fuzzer finding fails the step; a finding is left in
# $build/fuzz-findings to be checked in under tests/fuzz/regressions once fixed.
#
#   TASKLENS_BUILD_DIR      the normal build (its `tasklens run` records the seeds)  [build]
#   TASKLENS_SANITIZE_DIR   this step's build directory                          [build-sanitize]
#   TASKLENS_FUZZ_SECONDS   how long the fuzzer runs                                      [150]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
normal=${TASKLENS_BUILD_DIR:-$root/build}
build=${TASKLENS_SANITIZE_DIR:-$root/build-sanitize}
seconds=${TASKLENS_FUZZ_SECONDS:-150}
jobs=$(nproc)
start=$(date +%s)
say() { echo "sanitize: $* ($(( $(date +%s) - start )) s)" >&2; }

san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
if [ ! -f "$build/build.ninja" ]; then
  launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  fi
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ "${launcher[@]}" -DTASKLENS_FUZZ=ON \
    -DCMAKE_CXX_FLAGS="$san -fsanitize=fuzzer-no-link" \
    -DCMAKE_EXE_LINKER_FLAGS="$san" \
    -DCMAKE_SHARED_LINKER_FLAGS="$san -shared-libsan" >/dev/null
fi
test_targets=(format_tests replay_tests analysis_tests profile_tests task_graph_tests
              overheads_tests scaling_tests export_tests integration_tests fuzz_regression_tests
              html_tests)
cmake --build "$build" -- -j"$jobs" "${test_targets[@]}" experiment_fuzzer tasklens_fuzz_pack
say "built"

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The unit and golden tests of the reader's layers, the fuzzer's regressions, and the CLI's
# bad-input tests that need no recording.
(cd "$build" && ctest --output-on-failure -j"$jobs" \
   -L '^(format|replay|analysis|export|fuzz|html)$' -E '_NOT_BUILT')
(cd "$build" && ctest --output-on-failure -j"$jobs" \
   -R '(ReaderBadInput|DamagedExperiment|CommandLine)\.|InvalidBufferSizeInTheEnvironment')
say "tests passed"

# Seeds: the checked-in corpus, and the examples recorded now by the normal build.
corpus="$build/fuzz-corpus"
findings="$build/fuzz-findings"
rm -rf "$corpus" "$findings" "$build/fuzz-seeds"
mkdir -p "$corpus" "$findings" "$build/fuzz-seeds"
cp "$root"/tests/fuzz/corpus/* "$root"/tests/fuzz/regressions/* "$corpus"/
for ex in "fib 12" "nqueens 5" "dep_chain 10 5" "wavefront 3 4" "untied 6" "taskloop 200 4" \
          "taskgroup 5" "critical 100" "single 3" "fork_join 20" "detach 4" "cancel 4" \
          "skewed_loop 10" "imbalance 100 20"; do
  set -- $ex
  dir="$build/fuzz-seeds/$1"
  if "$normal/bin/tasklens" run -q -n 2 -o "$dir" -- "$normal/examples/$1" "${@:2}" >/dev/null 2>&1; then
    "$build/bin/tasklens_fuzz_pack" "$dir" "$corpus/$1"
  fi
done
say "$(ls "$corpus" | wc -l) seeds"

# One process, a fixed time; -timeout: an input slower than this is a hang.
"$build/bin/experiment_fuzzer" "$corpus" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
  -max_len=262144 -artifact_prefix="$findings/" -print_final_stats=1 2>"$build/fuzz.log" || {
  tail -60 "$build/fuzz.log" >&2
  say "the fuzzer found a bug: $(ls "$findings")"
  exit 1
}
grep -E '^stat::number_of_executed_units|^Done' "$build/fuzz.log" >&2 || true
say "fuzzer clean"
