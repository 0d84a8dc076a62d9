#!/usr/bin/env bash
# Installs what tasklens needs from Debian's packages. Idempotent: installs only what is missing.
# Never installs libomp-19-dev: apt would remove libomp 14, which clang 14 needs (docs/LIBOMP.md).
set -euo pipefail

packages=(
  clang-14 libomp-14-dev llvm-14    # compiler, LLVM's OpenMP runtime with OMPT, llvm-symbolizer
  lld                               # ld.lld: libtasklens.so linked with link-time optimization
  libclang-rt-14-dev                # ASan, UBSan and libFuzzer (scripts/ci/sanitize.sh)
  cmake ninja-build pkg-config
  libotf2-trace-dev otf2-tools      # OTF2 export and its reader (otf2-print)
  libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev libzstd-dev
  graphviz                          # dot -Tsvg checks the DOT export
  protobuf-compiler                 # protoc --decode_raw parses the Perfetto protobuf export
  libxml2-utils                     # xmllint checks the SVG of `tasklens compare -o`
  gcc g++                           # GCC-built OpenMP programs (run on libomp)
  openmpi-bin libopenmpi-dev        # MPI+OpenMP: libtasklens_mpi.so, examples/mpi_tasks (docs/MPI.md)
  python3
  time                              # /usr/bin/time -v: peak RSS in bench/speed/speed_table.sh
  chromium                          # the HTML report's browser tests (tests/html), headless
  nodejs                            # runs those tests' driver (puppeteer-core, from web/package-lock.json)
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

# npm: Debian's package, unless a Node.js that brings its own (NodeSource's) is installed.
if ! command -v npm >/dev/null 2>&1; then
  echo "setup: installing npm" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends npm >/dev/null
fi

# The HTML report's test driver: puppeteer-core at the exact version of web/package-lock.json,
# every package checked against the lock file's integrity hash (npm ci), into web/node_modules.
# The page itself needs nothing from npm; the build never touches the network.
web="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/web"
if [ ! -f "$web/node_modules/puppeteer-core/package.json" ] ||
   ! cmp -s "$web/package-lock.json" "$web/node_modules/.package-lock-copy.json"; then
  echo "setup: npm ci in web/ (puppeteer-core for the HTML report's tests)" >&2
  (cd "$web" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  cp "$web/package-lock.json" "$web/node_modules/.package-lock-copy.json"
fi
