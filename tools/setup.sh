#!/usr/bin/env bash
# Sets up and builds onnx-run on Debian 12: installs the Debian packages that are
# missing (as root, or through sudo), then configures and builds into build/.
# Safe to run again: it installs nothing that is there and rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

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

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build
