#!/bin/sh
# tests/support/deb_lintian.sh BUILD_DIR SCRATCH: makes the .deb files of BUILD_DIR
# (cpack -G DEB, into SCRATCH) and fails unless lintian finds them free of errors and
# warnings. tools/test-deb.sh goes further (installs them in a clean Debian 12 root).
set -eu
build=$1
scratch=$2
command -v lintian >/dev/null || { echo "lintian missing: apt-get install lintian (tools/setup.sh)"; exit 1; }
rm -rf "$scratch" && mkdir -p "$scratch"
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$scratch" >/dev/null
ls "$scratch"/*.deb
lintian --fail-on error,warning --tag-display-limit 0 "$scratch"/*.deb
echo "deb_lintian: no errors, no warnings"
