#!/bin/bash
# tools/test-sanitized.sh [BUILD_DIR]: builds the library, the CLI and the tests with
# AddressSanitizer and UndefinedBehaviorSanitizer (-DONNXRUN_SANITIZE=ON) in their own
# folder (default build-sanitize/) and runs the whole ctest suite under them. Any
# sanitizer report fails the test that caused it: UB aborts (-fno-sanitize-recover),
# ASan and LeakSanitizer end the process with an error.
# The checks of the source text alone (label `static`: layout, include floors, the operator
# versions file) prove nothing new under a sanitizer and are left to the normal suite.
# Environment: SANITIZE_JOBS (ninja -j and ctest -j, default 2). Compilations go through
# ccache where it is installed.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build-sanitize}
jobs=${SANITIZE_JOBS:-2}
# -O1 keeps the sanitized build quick to compile and to run; assertions stay on. -g1 (line
# tables and function names, no variables) is all a sanitizer's stack trace reads, at a
# quarter less compile time than -g.
launcher=""
command -v ccache >/dev/null && launcher=ccache
# The tests compile against a precompiled header; ccache caches those compilations only
# when told that the header's macros and __TIME__ may be taken as they were. Paths
# relative to the checkout, and the working directory left out of the hash, let a clone
# in another folder (CI's) reuse what this one compiled.
export CCACHE_SLOPPINESS=pch_defines,time_macros CCACHE_BASEDIR="$src" CCACHE_NOHASHDIR=1
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
  -DONNXRUN_SANITIZE=ON -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" >/dev/null
ninja -C "$build" -j "$jobs"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# agreement-onnx-tests starts onnx-run twice for each of the ONNX tree's 1,802 models
# to check that three commands give one verdict, which the normal suite proves. Under the
# sanitizers that cost 700 s, most of the run; every 4th model in name order (451, with
# 162 of the tree's 200 operator types) still takes `info` and a whole run under ASan,
# and the whole tree runs in one sanitized process in the onnx-tests test.
export ONNXRUN_AGREEMENT_EVERY=4
cd "$build"
# --timeout: a test stuck for 15 minutes fails rather than holding CI to its own limit.
ctest --output-on-failure -j "$jobs" --label-exclude static --timeout 900
