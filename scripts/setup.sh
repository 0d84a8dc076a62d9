#!/usr/bin/env bash
# Installs what tasklens needs from Debian's packages. Idempotent: installs only what is missing.
# Never installs libomp-19-dev: apt would remove libomp 14, which clang 14 needs (docs/LIBOMP.md).
set -euo pipefail

packages=(
  clang-14 libomp-14-dev llvm-14    # compiler, LLVM's OpenMP runtime with OMPT, llvm-symbolizer
  libclang-rt-14-dev                # ASan, UBSan and libFuzzer (scripts/ci/sanitize.sh)
  cmake ninja-build pkg-config
  libotf2-trace-dev otf2-tools      # OTF2 export and its reader (otf2-print)
  libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev libzstd-dev
  graphviz                          # dot -Tsvg checks the DOT export
  protobuf-compiler                 # protoc --decode_raw parses the Perfetto protobuf export
  libxml2-utils                     # xmllint checks the SVG of `tasklens compare -o`
  gcc g++                           # GCC-built OpenMP programs (run on libomp)
  python3
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
