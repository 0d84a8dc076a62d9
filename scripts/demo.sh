#!/usr/bin/env bash
# Installs what is needed, builds, and records a bundled example (nqueens, a task per column
# tried) on 2 threads, then explains it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
build=${TASKLENS_BUILD_DIR:-$root/build}
out=$(mktemp -d /tmp/tasklens-demo-XXXXXX)/nqueens
"$build/bin/tasklens" run -n 2 -o "$out" -- "$build/examples/nqueens" 8
"$build/bin/tasklens" report "$out" --profile --graph --depth 2
