#!/usr/bin/env bash
# tools/setup.sh [--tests]: sets up and builds onnx-run on Debian 12. Installs the Debian
# packages that are missing (as root, or through sudo), then configures build/ and builds
# what the README's command needs: onnx-run and its generated man page and completions;
# with --tests, the test programs too (everything ctest runs).
# Safe to run again: it installs nothing that is there and rebuilds only what changed.
# Where ccache is installed, compilations go through it.
set -euo pipefail
cd "$(dirname "$0")/.."

tests=0
for arg in "$@"; do
  case $arg in
    --tests) tests=1 ;;
    -h | --help)
      sed -n '2,7p' "$0" | cut -c3-
      exit 0
      ;;
    *)
      echo "setup: unknown option '$arg' (usage: tools/setup.sh [--tests])" >&2
      exit 2
      ;;
  esac
done

packages=(
  g++ cmake ninja-build pkg-config           # toolchain
  libprotobuf-dev protobuf-compiler          # ModelProto / TensorProto
  libonnx-dev                                # /usr/include/onnx/onnx.proto (the schema only)
  libcli11-dev libspdlog-dev catch2          # command line, logging, tests
  nlohmann-json3-dev libtinyxml2-dev         # JSON reports; JUnit XML read back in tests
  zlib1g-dev dpkg-dev                        # .npz (inflate, CRC-32); cpack .deb dependencies
  python3-onnx python3-numpy                 # tools/gen_testdata.py and the numpy tests
  clang-format-14                            # the layout of .clang-format (ctest format-check)
  libxml2-utils python3-junitparser          # JUnit reports validated (xmllint) and read back in tests
  lintian gzip                               # tools/test-deb.sh checks the .deb; the man page is compressed
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

launcher=""
command -v ccache >/dev/null && launcher=ccache
# The tests compile against a precompiled header; ccache caches those compilations only
# when told that the header's macros and __TIME__ may be taken as they were. Paths
# relative to the checkout, and the working directory left out of the hash, let a clone
# in another folder (CI's) reuse what this one compiled.
export CCACHE_SLOPPINESS=pch_defines,time_macros CCACHE_BASEDIR="$(pwd)" CCACHE_NOHASHDIR=1
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" >/dev/null
if ((tests)); then
  cmake --build build
else
  cmake --build build --target onnx-run onnxrun_interface_docs
fi
