#!/bin/sh
# Runs the rest of the command line only if the ONNX test data folder ($1) exists;
# otherwise says why and exits 77, which ctest reports as a skipped test.
dir=$1
shift
if [ ! -d "$dir/node" ]; then
  echo "skipped: $dir not found (the ONNX project's test data lives in ../shared/onnx-tests)"
  exit 77
fi
exec "$@"
