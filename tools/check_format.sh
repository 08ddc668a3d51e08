#!/bin/sh
# tools/check_format.sh CLANG_FORMAT: fails (exit 1), naming each file, when a C++ file of
# src/ or tests/ differs from what .clang-format lays out (ctest format-check). Pinned to
# Debian 12's clang-format 14: other versions lay out some lines differently.
# To fix a file: CLANG_FORMAT -i FILE.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
format=${1:-clang-format-14}
cd "$root"
bad=0
for f in $(find src tests \( -name '*.cc' -o -name '*.h' \) | sort); do
  if ! "$format" --dry-run -Werror "$f" >/dev/null 2>&1; then
    echo "$f: not as .clang-format lays it out (run: $format -i $f)"
    bad=$((bad + 1))
  fi
done
[ "$bad" -eq 0 ] || { echo "check_format: $bad file(s) to format" >&2; exit 1; }
echo "check_format: every C++ file of src/ and tests/ is as .clang-format lays it out"
