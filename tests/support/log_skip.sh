#!/bin/sh
# tests/support/log_skip.sh LOG COMMAND...: runs COMMAND; when it exits 77 (ctest's
# SKIP_RETURN_CODE here), appends its last line of output, the reason it skipped, to LOG,
# which ctest summarises after the run (support/skip_summary.cmake).
log=$1
shift
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$@" >"$out" 2>&1
rc=$?
cat "$out"
if [ "$rc" -eq 77 ]; then
  reason=$(grep . "$out" | tail -n 1)
  mkdir -p "$(dirname "$log")" && echo "${reason#skipped: }" >>"$log"
fi
exit "$rc"
