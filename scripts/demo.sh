#!/usr/bin/env bash
# Installs what is needed, builds, and records a bundled example (recursive fib with tasks) on
# 2 threads, then explains it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" >/dev/null
build=${TASKLENS_BUILD_DIR:-$root/build}
out=$(mktemp -d /tmp/tasklens-demo-XXXXXX)/fib
"$build/bin/tasklens" run -n 2 -o "$out" -- "$build/examples/fib" 25 8
if "$build/bin/tasklens" report --help >/dev/null 2>&1; then
  "$build/bin/tasklens" report "$out"
else
  "$build/bin/tasklens" check "$out"
fi
