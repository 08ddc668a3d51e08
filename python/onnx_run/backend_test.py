"""ONNX's own backend test runner (onnx.backend.test.BackendTest) over onnx_run.backend.

    python3 -m onnx_run.backend_test DATA_DIR [--kind node]... [--include RE]... [--each]

DATA_DIR holds the ONNX project's test folders by kind (node/, simple/, ...; Debian's
onnx 1.12 ships none of its own, so the runner is pointed at DATA_DIR). Only CPU tests
run. Prints each failure and error, then one line of counts; exits 1 when a test failed
or errored. "unsupported" counts the tests for which the backend raised
BackendIsNotSupposedToImplementIt: ONNX's runner lets those pass silently, so they are
told apart here.
"""
import argparse
import os
import re
import sys
import unittest

import numpy as np

# onnx 1.12's runner compares with np.object, which numpy 1.24 removed (an alias of object).
if "object" not in vars(np):
    np.object = object

import onnx.backend.test.runner as onnx_runner  # noqa: E402

from . import backend  # noqa: E402

OUTCOMES = ("passed", "unsupported", "failed", "error", "skipped")
_NOT_SELECTED = ("no matched include pattern", "Backend doesn't support device")


def _runner_over(data_dir, kinds):
    """A BackendTest whose tests are the folders of DATA_DIR/<kind> for the given kinds."""
    load = onnx_runner.load_model_tests
    onnx_runner.load_model_tests = lambda kind=None, **_: (
        load(data_dir=data_dir, kind=kind) if kind in kinds else [])
    try:
        return onnx_runner.Runner(_RecordingBackend, __name__)
    finally:
        onnx_runner.load_model_tests = load


class _RecordingBackend(backend.OnnxRunBackend):
    """onnx_run's backend, noting which test was refused as unsupported."""
    current_test = None
    unsupported = {}

    @classmethod
    def prepare(cls, model, device="CPU", **kwargs):
        try:
            return super().prepare(model, device, **kwargs)
        except backend.OnnxRunUnsupported as e:
            cls.unsupported[cls.current_test] = str(e)
            raise


def _gist(detail):
    """One line of a traceback: numpy's count of mismatched elements, else the last line."""
    lines = [line.strip() for line in detail.splitlines() if line.strip()]
    return next((line for line in lines if line.startswith("Mismatched elements")), lines[-1] if lines else "")


class _Result(unittest.TestResult):
    def __init__(self, verbose):
        super().__init__()
        self.outcomes = {}  # test name -> (outcome, detail)
        self.verbose = verbose

    def _note(self, test, outcome, detail=""):
        name = test.id().rsplit(".", 1)[-1]
        self.outcomes[name] = (outcome, detail)
        if self.verbose or outcome in ("failed", "error"):
            print(f"{outcome:<11} {name}  {_gist(detail)}"[:400], flush=True)

    def startTest(self, test):
        super().startTest(test)
        _RecordingBackend.current_test = test.id()

    def addSuccess(self, test):
        if test.id() in _RecordingBackend.unsupported:
            self._note(test, "unsupported", _RecordingBackend.unsupported[test.id()])
        else:
            self._note(test, "passed")

    def addFailure(self, test, err):
        self._note(test, "failed", self._exc_info_to_string(err, test))

    def addError(self, test, err):
        self._note(test, "error", self._exc_info_to_string(err, test))

    def addSkip(self, test, reason):
        if not reason.startswith(_NOT_SELECTED):
            self._note(test, "skipped", reason)

    def addExpectedFailure(self, test, err):
        self._note(test, "failed", "expected failure")

    def addUnexpectedSuccess(self, test):
        self._note(test, "passed")


def run(data_dir, kinds=("node",), includes=(), verbose=False):
    """Runs the CPU tests of DATA_DIR/<kind> whose names match one of `includes` (all
    when empty); returns {test name: (outcome, detail)}, outcome one of OUTCOMES."""
    runner = _runner_over(data_dir, set(kinds))
    for pattern in includes:
        runner.include(pattern)
    result = _Result(verbose)
    suite = runner.test_suite
    suite.run(result)
    # The CUDA twins were skipped (device) and never noted; keep CPU tests only anyway.
    return {name: v for name, v in result.outcomes.items() if name.endswith("_cpu")}


def counts_line(outcomes):
    counts = {o: 0 for o in OUTCOMES}
    for outcome, _ in outcomes.values():
        counts[outcome] += 1
    # "0 errors", "1 error", "1 test": as onnx-run test's summary says them.
    def noun(o, n):
        return o + "s" if o == "error" and n != 1 else o
    total = len(outcomes)
    return (", ".join(f"{n} {noun(o, n)}" for o, n in counts.items())
            + f" ({total} test{'' if total == 1 else 's'})")


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m onnx_run.backend_test", description=__doc__.split("\n\n")[0])
    ap.add_argument("data_dir", help="the ONNX test data folder (with node/, simple/, ...)")
    ap.add_argument("--kind", action="append", help="test kinds to run (default: node)")
    ap.add_argument("--include", action="append", default=[], help="run only tests whose names match (regex)")
    # Not -v: ONNX's runner reads -v from sys.argv itself and prints each unsupported test again.
    ap.add_argument("--each", action="store_true", help="print every test's outcome")
    args = ap.parse_args(argv)
    kinds = args.kind or ["node"]
    for kind in kinds:
        if not os.path.isdir(os.path.join(args.data_dir, kind)):
            print(f"onnx_run.backend_test: {os.path.join(args.data_dir, kind)} is not a folder", file=sys.stderr)
            return 2
    for pattern in args.include:
        try:
            re.compile(pattern)
        except re.error as e:
            print(f"onnx_run.backend_test: --include {pattern}: {e}", file=sys.stderr)
            return 2
    outcomes = run(args.data_dir, kinds, args.include, args.each)
    print(counts_line(outcomes))
    return 1 if any(o in ("failed", "error") for o, _ in outcomes.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
