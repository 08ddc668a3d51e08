#!/bin/bash
# Runs the Bazel example of docs/scale-out.md for real: an sh_test with shard_count = 4
# over a corpus, each shard `onnx-run test --shard auto` under Bazel's test sharding
# protocol, then `onnx-run report merge` of the four reports, which must equal a full
# run's report test by test; each shard's test.xml must be onnx-run's JUnit report.
#
#   tools/bazel-example.sh [BUILD_DIR] [CORPUS]
#
# BUILD_DIR (default build) holds the built onnx-run; CORPUS (default testdata) is the
# tree of model tests. Needs Debian's bazel-bootstrap (apt-get install bazel-bootstrap;
# a JDK comes with it, which is why neither tools/setup.sh nor CI installs it). Bazel 4
# fetches rules_cc, rules_java and its coverage tools from the network even for an
# sh_test; this machine has none, so the workspace overrides them with local stubs that
# forward to the native rules. Not in ctest: Bazel's first start takes a while.
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
corpus=$(cd "${2:-$src/testdata}" && pwd)
shards=4

say() { printf 'bazel-example: %s\n' "$*"; }
die() { say "FAILED: $*"; exit 1; }

command -v bazel >/dev/null || die "bazel missing: apt-get install bazel-bootstrap"
[ -x "$build/src/onnx-run" ] || die "$build/src/onnx-run missing: build first"
scratch=$(mktemp -d /tmp/onnx-run-bazel.XXXXXX)
ws=$scratch/workspace
bazel_cmd=(bazel --output_user_root="$scratch/root")
cleanup() {
  (cd "$ws" 2>/dev/null && "${bazel_cmd[@]}" shutdown >/dev/null 2>&1) || true
  chmod -R u+w "$scratch" 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT

# Stubs for the repositories Bazel 4's own tools load (offline: nothing to fetch them from).
offline=$scratch/offline
mkdir -p "$offline/rules_cc/cc" "$offline/rules_java/java" "$offline/remote_coverage_tools"
touch "$offline"/{rules_cc,rules_java,remote_coverage_tools}/WORKSPACE "$offline"/rules_cc/{BUILD,cc/BUILD} \
  "$offline"/rules_java/{BUILD,java/BUILD}
for rule in cc_binary cc_library cc_test cc_proto_library cc_toolchain cc_toolchain_suite; do
  echo "$rule = native.$rule"
done >"$offline/rules_cc/cc/defs.bzl"
for rule in java_binary java_import java_library java_proto_library java_runtime java_toolchain; do
  echo "$rule = native.$rule"
done >"$offline/rules_java/java/defs.bzl"
cat >"$offline/remote_coverage_tools/BUILD" <<'EOF'
package(default_visibility = ["//visibility:public"])
filegroup(name = "coverage_report_generator", srcs = [])
filegroup(name = "lcov_merger", srcs = [])
EOF

# The workspace of docs/scale-out.md, with the built onnx-run as a data file.
mkdir -p "$ws"
cp -rL "$corpus" "$ws/models"
cp "$build/src/onnx-run" "$ws/onnx-run"
echo 'workspace(name = "onnx_run_example")' >"$ws/WORKSPACE"
cat >"$ws/.bazelrc" <<EOF
common --override_repository=rules_cc=$offline/rules_cc
common --override_repository=rules_java=$offline/rules_java
common --override_repository=remote_coverage_tools=$offline/remote_coverage_tools
EOF
cat >"$ws/BUILD" <<EOF
sh_test(
    name = "onnx_models",
    srcs = ["onnx_models.sh"],
    data = glob(["models/**"]) + ["onnx-run"],
    shard_count = $shards,
)
EOF
cat >"$ws/onnx_models.sh" <<'EOF'
#!/bin/sh
exec ./onnx-run test models --shard auto -v --json "$TEST_UNDECLARED_OUTPUTS_DIR/report.json"
EOF
chmod +x "$ws/onnx_models.sh"

cd "$ws"
say "bazel test //:onnx_models ($shards shards) over $corpus"
set +e
"${bazel_cmd[@]}" test //:onnx_models --test_output=errors 2>"$scratch/bazel.log"
bazel_rc=$?
set -e
tail -5 "$scratch/bazel.log"
logs=$("${bazel_cmd[@]}" info bazel-testlogs 2>/dev/null)/onnx_models
reports=()
for k in $(seq 1 $shards); do
  dir=$logs/shard_${k}_of_$shards
  # Bazel zips each shard's undeclared outputs (Bazel 5 and later can be told not to).
  [ -f "$dir/test.outputs/outputs.zip" ] || die "shard $k/$shards wrote no report (bazel exit $bazel_rc)"
  unzip -p "$dir/test.outputs/outputs.zip" report.json >"$scratch/shard-$k.json"
  grep -q '<testsuites name="onnx-run"' "$dir/test.xml" || die "shard $k/$shards: test.xml is not onnx-run's JUnit report"
  grep -q "shard $k/$shards from Bazel" "$dir/test.log" || die "shard $k/$shards: -v did not name Bazel's slice"
  reports+=("$scratch/shard-$k.json")
done

set +e
"$build/src/onnx-run" report merge "${reports[@]}" --json "$scratch/merged.json" --junit "$scratch/merged.xml"
merge_rc=$?
"$build/src/onnx-run" test models -q --json "$scratch/full.json" >/dev/null  # as the sh_test names it
full_rc=$?
set -e
[ "$merge_rc" = "$full_rc" ] || die "report merge exited $merge_rc, a full run $full_rc"
python3 - "$scratch/merged.json" "$scratch/full.json" <<'EOF'
import json, sys
merged, full = (json.load(open(p)) for p in sys.argv[1:])
keys = ("name", "outcome", "message", "causes", "sets")
pick = lambda r: [{k: t.get(k) for k in keys} for t in r["tests"]]
for a, b in zip(pick(merged), pick(full)):
    if a != b: print("differs:", a, b, sep="\n  ")
assert pick(merged) == pick(full), "the merged report differs from the full run's"
assert merged["merge"]["missing"] == [], merged["merge"]
print(f"bazel-example: merged {len(merged['merge']['shards'])} shards = the full run, test by test "
      f"({len(full['tests'])} tests)")
EOF
say "OK"
