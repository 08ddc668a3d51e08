#!/usr/bin/python3
"""The installed CMake package: find_package(onnx-run) and onnx_run_add_tests() in a
project of its own (tests/cmake_module), configured against a staged install.

  cmake_module_test.py CMAKE CTEST PREFIX PROJECT_DIR TESTDATA_DIR SCRATCH_DIR

Builds a tree of model folders from testdata/ (nested, one without test data, one that
onnx-run does not implement, one that needs a looser tolerance, one whose expected output
is wrong), configures the project with CMAKE_PREFIX_PATH=PREFIX, and checks the tests
ctest lists (names, commands, labels), that labels select, that tolerances reach
onnx-run, that the wrong one fails and the unimplemented one is skipped; then each bad
call of onnx_run_add_tests fails the configure with its own message.
Prints 'N passed, N failed' and exits non-zero on a failure.
"""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from checks import Checks

cmake, ctest, prefix, project, testdata, scratch = sys.argv[1:7]
prefix = os.path.abspath(prefix)
check = Checks("FAILED")
shutil.rmtree(scratch, ignore_errors=True)
models = os.path.join(scratch, "models")


def copy_model(name, dest):
    shutil.copytree(os.path.join(testdata, name), os.path.join(models, dest))
    return os.path.join(models, dest)


def each_output(folder):
    for s in sorted(os.listdir(folder)):
        if s.startswith("test_data_set_"):
            yield os.path.join(folder, s, "input_0.pb"), os.path.join(folder, s, "output_0.pb")


def rewrite(path, change):
    t = onnx.load_tensor(path)
    onnx.save_tensor(numpy_helper.from_array(change(numpy_helper.to_array(t)), t.name), path)


copy_model("leakyrelu_opset16_float_alpha0.1", "leaky/opset16_float")
copy_model("leakyrelu_opset1_double_default", "leaky/deep/opset1_double")
os.makedirs(os.path.join(models, "leaky/no_data"))
shutil.copy(os.path.join(testdata, "leakyrelu_opset16_float_alpha0.1/model.onnx"), os.path.join(models, "leaky/no_data"))
# An op onnx-run does not implement: skipped, not failed.
abs_dir = os.path.join(models, "leaky/unsupported_abs")
os.makedirs(os.path.join(abs_dir, "test_data_set_0"))
onnx.save(helper.make_model(helper.make_graph(
    [helper.make_node("Abs", ["x"], ["y"])], "abs", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])]), opset_imports=[helper.make_opsetid("", 13)]),
    os.path.join(abs_dir, "model.onnx"))
onnx.save_tensor(numpy_helper.from_array(np.array([-1, 2], np.float32), "x"), os.path.join(abs_dir, "test_data_set_0/input_0.pb"))
onnx.save_tensor(numpy_helper.from_array(np.array([1, 2], np.float32), "y"), os.path.join(abs_dir, "test_data_set_0/output_0.pb"))
copy_model("leakyrelu_opset16_bfloat16_default", "other/bf16")
# Expected values 0.5% off: fails at the default rtol (1e-3), passes with RTOL 0.01.
near = copy_model("leakyrelu_opset16_float_alpha0.1", "other/near_float")
for _, out in each_output(near):  # (the huge values stay: a product would overflow)
    with np.errstate(over="ignore"):
        rewrite(out, lambda y: np.where(np.abs(y) < 1e30, y * np.float32(1.005), y).astype(y.dtype))
# The input given as the expected output: LeakyRelu changes its negative elements.
swapped = copy_model("leakyrelu_opset16_float_default", "failing/swapped")
for inp, out in each_output(swapped):
    check("the swapped model's input has negative elements", (numpy_helper.to_array(onnx.load_tensor(inp)) < 0).any())
    shutil.copy(inp, out)


def configure(build, *defs):
    args = [cmake, "-S", project, "-B", build, f"-DCMAKE_PREFIX_PATH={prefix}", f"-DMODELS={models}", *defs]
    return subprocess.run(args, capture_output=True, text=True)


def run_ctest(build, *args):
    return subprocess.run([ctest, "--test-dir", build, *args], capture_output=True, text=True)


build = os.path.join(scratch, "build")
p = configure(build)
check("the project configures against the staged install", p.returncode == 0, p.stdout + p.stderr)
cache = open(os.path.join(build, "CMakeCache.txt")).read() if p.returncode == 0 else ""
check("ONNX_RUN_EXECUTABLE is the installed onnx-run",
      f"ONNX_RUN_EXECUTABLE:FILEPATH={prefix}/bin/onnx-run" in cache, p.stdout)

listing = run_ctest(build, "--show-only=json-v1")
tests = {t["name"]: t for t in json.loads(listing.stdout or '{"tests": []}')["tests"]}
expected = {"opset16_float", "deep/opset1_double", "unsupported_abs", "bf16", "near_float", "swapped"}
check("one test per model folder, named by its path under PATH (none for the folder without data)",
      set(tests) == expected, f"{sorted(tests)}")


def labels(t):
    return next((p["value"] for p in t.get("properties", []) if p["name"] == "LABELS"), [])


def command(name):
    return tests.get(name, {}).get("command", [])


check("labels as given", [sorted(labels(tests.get(n, {}))) for n in ("opset16_float", "bf16", "swapped")]
      == [["leaky"], ["slow", "tolerant"], ["failing"]], str({n: labels(t) for n, t in tests.items()}))
check("the command is `onnx-run test FOLDER`",
      command("opset16_float") == [f"{prefix}/bin/onnx-run", "test", os.path.join(models, "leaky/opset16_float")],
      str(command("opset16_float")))
check("RTOL and ATOL are passed on", command("near_float")[-4:] == ["--rtol", "0.01", "--atol", "0.001"],
      str(command("near_float")))
p = subprocess.run([f"{prefix}/bin/onnx-run", "test", near, "-q"], capture_output=True, text=True)
check("  (near_float fails at the default tolerance)", p.returncode == 1, p.stdout + p.stderr)

p = run_ctest(build, "-L", "leaky")
check("ctest -L leaky passes", p.returncode == 0, p.stdout + p.stderr)
check("  runs the three leaky tests only", "3 tests" in p.stdout and "opset1_double" in p.stdout
      and "swapped" not in p.stdout and "bf16" not in p.stdout, p.stdout)
check("  and reports the unimplemented model skipped", "unsupported_abs" in p.stdout and "Skipped" in p.stdout, p.stdout)
p = run_ctest(build, "-L", "tolerant", "-j2")
check("ctest -L tolerant passes (bfloat16, and the looser tolerance)", p.returncode == 0
      and "2 tests" in p.stdout, p.stdout + p.stderr)
p = run_ctest(build, "-j2")
check("the whole ctest fails, on the wrong model alone", p.returncode != 0 and "1 tests failed out of 6" in p.stdout
      and "swapped (Failed)" in p.stdout, p.stdout + p.stderr)

# STRICT: the unimplemented model fails instead of being skipped.
strict_models = os.path.join(scratch, "strict")
shutil.copytree(abs_dir, os.path.join(strict_models, "abs_strict"))
strict_build = os.path.join(scratch, "strict-build")
p = configure(strict_build, f"-DEXTRA_PATH={strict_models}", "-DEXTRA_ARGS=STRICT")
check("STRICT configures", p.returncode == 0, p.stdout + p.stderr)
p = run_ctest(strict_build, "-R", "abs_strict")
check("  and its unimplemented model fails", p.returncode != 0 and "abs_strict (Failed)" in p.stdout, p.stdout + p.stderr)

# Each bad call fails the configure and says why.
empty = os.path.join(scratch, "empty")
os.makedirs(empty)
bad_calls = [
    ("a PATH that is not a folder", [f"-DEXTRA_PATH={scratch}/missing"], "is not a folder"),
    ("an unknown argument", [f"-DEXTRA_PATH={empty}", "-DEXTRA_ARGS=BOGUS"], "unknown arguments: BOGUS"),
    ("a second test of the same name", [f"-DEXTRA_PATH={models}/leaky"], "exists already (from"),
    ("a version newer than installed", ["-DONNX_RUN_WANT_VERSION=99"], "99"),
    ("ONNX_RUN_EXECUTABLE naming no file", [f"-DONNX_RUN_EXECUTABLE={scratch}/none"], f"no executable at {scratch}/none"),
]
for k, (what, defs, message) in enumerate(bad_calls):
    p = configure(os.path.join(scratch, f"bad{k}"), *defs)
    # (CMake wraps its messages: compare with the white space folded.)
    check(f"{what}: configure fails saying so", p.returncode != 0 and message in " ".join(p.stderr.split()),
          p.stdout + p.stderr)
p = configure(os.path.join(scratch, "warn"), f"-DEXTRA_PATH={empty}")
check("a PATH without models: a warning, no test", p.returncode == 0 and "no model folder" in p.stderr, p.stderr)
check.finish()
