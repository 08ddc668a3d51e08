#!/usr/bin/python3
"""The onnx_run Python package as `cmake --install` lays it out, in a clean environment.

  installed_backend_test.py PREFIX MODEL_DIR

With only PREFIX/lib/python3/dist-packages on PYTHONPATH, no ONNX_RUN and no onnx-run on
PATH, the package must find PREFIX/bin/onnx-run (through the bindir it recorded at
install) and run MODEL_DIR's model on its first test set through ONNX's own runner code
path (numpy_helper in and out); `python3 -m onnx_run.backend_test --help` must work.
Prints 'N passed, N failed' and exits non-zero on a failure.
"""
import os
import subprocess
import sys

from checks import Checks

prefix, model_dir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
check = Checks("FAILED")
site = os.path.join(prefix, "lib", "python3", "dist-packages")
env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": site, "HOME": os.environ.get("HOME", "/tmp")}
check("the package is installed", os.path.isfile(os.path.join(site, "onnx_run", "backend.py")), site)

script = f"""
import glob, os
import numpy as np, onnx
from onnx import numpy_helper
import onnx_run, onnx_run.backend as backend
from onnx_run.executable import find_onnx_run
print("module", os.path.dirname(onnx_run.__file__))
print("executable", find_onnx_run())
def load(p):
    t = onnx.TensorProto(); t.ParseFromString(open(p, "rb").read()); return numpy_helper.to_array(t)
d = sorted(glob.glob("{model_dir}/test_data_set_*"))[0]
out = backend.prepare(onnx.load("{model_dir}/model.onnx")).run([load(d + "/input_0.pb")])[0]
print("matches", np.array_equal(out, load(d + "/output_0.pb"), equal_nan=True))
"""
p = subprocess.run(["/usr/bin/python3", "-c", script], capture_output=True, text=True, env=env)
lines = dict(line.split(" ", 1) for line in p.stdout.splitlines() if " " in line)
check("imported from the install", lines.get("module") == os.path.join(site, "onnx_run"), p.stdout + p.stderr)
check("finds the installed executable", lines.get("executable") == os.path.join(prefix, "bin", "onnx-run"),
      p.stdout + p.stderr)
check("runs the model and matches its test set", lines.get("matches") == "True", p.stdout + p.stderr)
p = subprocess.run(["/usr/bin/python3", "-m", "onnx_run.backend_test", "--help"], capture_output=True, text=True, env=env)
check("python3 -m onnx_run.backend_test --help", p.returncode == 0 and "data_dir" in p.stdout, p.stdout + p.stderr)
check.finish()
