#!/usr/bin/env bash
# Installs what is needed, builds, and runs every test (unit, golden, integration).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
cd "${TASKLENS_BUILD_DIR:-$root/build}"
ctest --output-on-failure -j"$(nproc)" "$@"
"$root/scripts/ci/tsan.sh"  # the recorder under ThreadSanitizer (about 1 min warm, 3 min cold)
"$root/scripts/ci/sanitize.sh"  # ASan+UBSan tests of the reader side, then the fuzzer (ROBUSTNESS.md)
