#!/usr/bin/python3
"""`onnx-run test`, `onnx-run MODEL` and `onnx-run info` agree on every model.

  agreement_test.py ONNX_RUN SCRATCH_DIR ROOT...

Runs `onnx-run test ROOT --json` over each ROOT (the ONNX project's test tree, the
project's testdata/), then for every test found runs `onnx-run info --json MODEL` and,
for model folders, `onnx-run MODEL -q`, and requires one verdict:
  - info's `runnable` is false exactly when `test` reports the model unsupported or in
    error at load (the model layer decides both);
  - `onnx-run MODEL` exits 0 for a passed test, 1 for a failed one, 3 for unsupported
    or error.
Prints 'N passed, N failed' and exits non-zero on a disagreement.

ONNXRUN_AGREEMENT_EVERY=K (tools/test-sanitized.sh sets it) checks every K-th test of each
report instead of each: a sanitized process takes about 0.3 s to start, and the verdicts
are not what a sanitizer is there to check (see tools/test-sanitized.sh).
"""
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from checks import Checks

onnx_run, scratch, roots = sys.argv[1], sys.argv[2], sys.argv[3:]
check = Checks('DISAGREE')
os.makedirs(scratch, exist_ok=True)
# A model with no test data: `onnx-run MODEL` runs it on made-up inputs.
EXPECTED_EXIT = {"passed": 0, "failed": 1, "unsupported": 3, "error": 3, "no data": 0}



def verdicts(test):
    model = test["model"]
    if not model.endswith(".onnx") or not os.path.isfile(model):
        return test, None, None
    info = subprocess.run([onnx_run, "info", "--json", model], capture_output=True, text=True)
    runnable = json.loads(info.stdout)["runnable"] if info.returncode == 0 else None
    code = None
    if os.path.basename(model) == "model.onnx":  # a model folder: its test sets are the default run
        code = subprocess.run([onnx_run, model, "-q"], capture_output=True, text=True).returncode
    return test, runnable, code


for k, root in enumerate(roots):
    report = os.path.join(scratch, f"report_{k}.json")
    p = subprocess.run([onnx_run, "test", root, "-j", "2", "--json", report], capture_output=True, text=True)
    check(f"onnx-run test {root} runs", p.returncode in (0, 1), p.stderr)
    with open(report) as f:
        tests = json.load(f)["tests"]
    every = int(os.environ.get("ONNXRUN_AGREEMENT_EVERY", "1"))
    if every > 1:
        print(f"{root}: every {every}th test of {len(tests)} (ONNXRUN_AGREEMENT_EVERY)")
        tests = tests[::every]
    with ThreadPoolExecutor(max_workers=2) as pool:
        for test, runnable, code in pool.map(verdicts, tests):
            name, outcome = test["name"], test["outcome"]
            if runnable is None and code is None:
                continue  # no model file (the real/ layout downloads it)
            light_without_inputs = outcome == "unsupported" and "no input data" in " ".join(test.get("causes", []))
            at_load = outcome == "unsupported" and not light_without_inputs
            if runnable is not None:
                # An error may come from the model (info: not runnable) or from its data
                # (runnable); every other outcome fixes what info must say.
                if outcome in ("passed", "failed", "no data") or light_without_inputs:
                    ok = runnable is True
                elif at_load:
                    ok = runnable is False
                else:
                    ok = outcome == "error"
                check(f"{name}: info runnable={runnable} vs test {outcome}", ok, test.get("message", "")[:300])
            if code is not None:
                check(f"{name}: onnx-run MODEL exit {code} vs test {outcome}", code == EXPECTED_EXIT.get(outcome),
                      test.get("message", "")[:300])

check.finish()
