#!/bin/sh
# tools/check_format.sh CLANG_FORMAT: fails (exit 1), naming each file, when a C++ file of
# src/ or tests/ differs from what .clang-format lays out (ctest format-check). Pinned to
# Debian 12's clang-format 14: other versions lay out some lines differently.
# The files go to clang-format in batches, one process per core, rather than a process a file.
# To fix a file: CLANG_FORMAT -i FILE.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
format=${1:-clang-format-14}
cd "$root"
command -v "$format" >/dev/null || { echo "check_format: $format not found" >&2; exit 2; }
# clang-format names each file that differs in its "FILE:LINE:COL: error: code should be
# clang-formatted" lines; a file it cannot read fails the run on its own.
bad=$(find src tests \( -name '*.cc' -o -name '*.h' \) -print0 | sort -z |
  xargs -0 -n 40 -P "$(nproc)" "$format" --dry-run -Werror 2>&1 |
  sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' | sort -u) || true
if [ -n "$bad" ]; then
  for f in $bad; do echo "$f: not as .clang-format lays it out (run: $format -i $f)"; done
  echo "check_format: $(echo "$bad" | wc -l) file(s) to format" >&2
  exit 1
fi
echo "check_format: every C++ file of src/ and tests/ is as .clang-format lays it out"
