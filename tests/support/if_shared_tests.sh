#!/bin/sh
# tests/support/if_shared_tests.sh DIR LOG COMMAND...: runs COMMAND only if the ONNX test
# data folder exists: $ONNXRUN_TEST_DATA when set, else DIR (every argument of COMMAND
# equal to DIR then names it instead). Otherwise says why, appends the reason to LOG (which
# ctest summarises after the run) and exits 77, which ctest reports as a skipped test.
dir=$1
log=$2
shift 2
data=${ONNXRUN_TEST_DATA:-$dir}
if [ ! -d "$data/node" ]; then
  reason="no ONNX test data: $data/node not found (set ONNXRUN_TEST_DATA=DIR, or configure with -DONNXRUN_TEST_DATA=DIR)"
  echo "skipped: $reason"
  mkdir -p "$(dirname "$log")" && echo "$reason" >>"$log"
  exit 77
fi
for arg do
  shift
  if [ "$arg" = "$dir" ]; then set -- "$@" "$data"; else set -- "$@" "$arg"; fi
done
exec "$@"
