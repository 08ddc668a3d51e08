#!/usr/bin/python3
"""ONNX's own backend test runner (onnx 1.12's onnx.backend.test.BackendTest) drives
onnx_run.backend over the LeakyRelu node tests and those of the ops of its function body.

  onnx_backend_runner_test.py ONNX_RUN ONNX_TESTS_DIR

Runs, through onnx_run.backend_test (the numpy 1.24 shim, the runner pointed at
ONNX_TESTS_DIR/node), the CPU tests named test_leakyrelu*, test_constant*,
test_castlike_*, test_less*, test_mul*, test_where*, and requires each to pass or to be
reported unsupported (BackendIsNotSupposedToImplementIt); the six LeakyRelu tests and
the ones onnx-run implements (the same list as tests/onnx/function_ops_node_test.cc)
must pass. Prints the counts, then 'N passed, N failed'; exits non-zero on a failure.
"""
import os
import sys

from checks import Checks

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
from onnx_run import backend_test  # noqa: E402

onnx_run, data_dir = os.path.abspath(sys.argv[1]), sys.argv[2]
os.environ["ONNX_RUN"] = onnx_run
check = Checks("FAILED")

FLOATS = ("FLOAT", "DOUBLE", "FLOAT16", "BFLOAT16")
MUST_PASS = (
    [f"test_leakyrelu{s}" for s in ("", "_default", "_example")]
    + [f"test_leakyrelu{s}_expanded" for s in ("", "_default", "_example")]
    + ["test_constant", "test_less", "test_less_bcast", "test_where_example", "test_where_long_example"]
    + [f"test_less_{t}" for t in ("int8", "int16", "uint8", "uint16", "uint32", "uint64")]
    + ["test_mul", "test_mul_bcast", "test_mul_example"]
    + [f"test_mul_{t}" for t in ("int8", "int16", "uint8", "uint16", "uint32", "uint64")]
)
# CastLike among the four float types: the ONNX tree has 16 of these (8 pairs, plain and expanded).
CASTLIKE_FLOATS = {f"test_castlike_{a}_to_{b}{s}_cpu" for a in FLOATS for b in FLOATS for s in ("", "_expanded")}

outcomes = backend_test.run(data_dir, includes=[r"^test_(leakyrelu|constant|castlike_|less|mul|where)"])
print(backend_test.counts_line(outcomes))
check("the runner found the LeakyRelu tests", "test_leakyrelu_cpu" in outcomes, str(sorted(outcomes))[:500])
for name, (outcome, detail) in sorted(outcomes.items()):
    check(f"{name}: passed or unsupported", outcome in ("passed", "unsupported"), f"{outcome}: {detail}")
castlike = sorted(CASTLIKE_FLOATS & outcomes.keys())
check("16 CastLike tests among the float types", len(castlike) == 16, str(castlike))
for name in MUST_PASS + [c[: -len("_cpu")] for c in castlike]:
    outcome, detail = outcomes.get(f"{name}_cpu", ("not run", ""))
    check(f"{name}_cpu passed", outcome == "passed", f"{outcome}: {detail}")
check.finish()
