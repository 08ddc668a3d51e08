#!/usr/bin/python3
"""onnx_run.backend, the Python ONNX backend over the CLI, through each of its doors.

  onnx_backend_test.py ONNX_RUN SCRATCH_DIR

With ONNX_RUN naming the built executable and the package imported from python/ in the
source tree: prepare/run (list and dict inputs, outputs by index and by name),
run_model, run_node (output types given and inferred, opset_version), supports_device,
bfloat16 given as float32 values, as uint16 bits and as a TensorProto, unsupported
models raised as ONNX's BackendIsNotSupposedToImplementIt, every other refusal raised
with onnx-run's message, and where the executable is looked for.
Prints 'N passed, N failed' and exits non-zero on a failure.
"""
import os
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.backend.test.runner import BackendIsNotSupposedToImplementIt

from checks import Checks

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.join(HERE, "..", "..", "python")
sys.path.insert(0, PYTHON_DIR)
import onnx_run.backend as backend  # noqa: E402
from onnx_run import bfloat16  # noqa: E402
from onnx_run.executable import ExecutableNotFound, find_onnx_run  # noqa: E402

onnx_run, scratch = os.path.abspath(sys.argv[1]), sys.argv[2]
os.environ["ONNX_RUN"] = onnx_run
os.makedirs(scratch, exist_ok=True)
check = Checks("FAILED")


def leaky_model(elem_type, opset=16, alpha=0.1, shape=(2, 3)):
    node = helper.make_node("LeakyRelu", ["x"], ["y"], alpha=alpha)
    graph = helper.make_graph([node], "leaky", [helper.make_tensor_value_info("x", elem_type, shape)],
                              [helper.make_tensor_value_info("y", elem_type, shape)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def raises(fn, kind):
    """The exception of type `kind` that fn() raises, else None."""
    try:
        fn()
    except kind as e:
        return e
    except Exception as e:  # another kind: report it as the detail
        return AssertionError(f"raised {type(e).__name__}: {e}")
    return None


x = np.array([[-2.0, -0.5, 0.0], [1.0, -8.0, 3.0]], np.float32)
expected = np.where(x < 0, np.float32(0.1) * x, x)

# prepare / run: inputs as a list, a dict or one array; outputs by index and by name.
rep = backend.prepare(leaky_model(TensorProto.FLOAT))
by_list, by_dict, single = rep.run([x]), rep.run({"x": x}), rep.run(x)
check("run([x]) computes LeakyRelu", np.array_equal(by_list[0], expected), f"{by_list[0]}")
check("run({'x': x}) gives output y by name", np.array_equal(by_dict["y"], expected), f"{by_dict}")
check("run(x) takes one array", np.array_equal(single.y, expected), f"{single}")
check("a list input takes the declared type", np.array_equal(rep.run([x.tolist()])[0], expected))
check("outputs are float32 as declared", by_list[0].dtype == np.float32, str(by_list[0].dtype))
for name, path in [("prepare(path)", None), ("prepare(bytes)", b"")]:
    model_path = os.path.join(scratch, "leaky.onnx")
    onnx.save(leaky_model(TensorProto.FLOAT), model_path)
    source = model_path if path is None else open(model_path, "rb").read()
    check(name, np.array_equal(backend.prepare(source).run([x])[0], expected))
check("run_model", np.array_equal(backend.run_model(leaky_model(TensorProto.FLOAT), [x])[0], expected))
for dtype, elem in [(np.float64, TensorProto.DOUBLE), (np.float16, TensorProto.FLOAT16)]:
    got = backend.run_model(leaky_model(elem), [x.astype(dtype)])[0]
    want = np.where(x < 0, np.float32(0.1).astype(dtype) * x.astype(dtype), x.astype(dtype))
    check(f"{np.dtype(dtype).name} in, {np.dtype(dtype).name} out", got.dtype == dtype and np.array_equal(got, want),
          f"{got!r}")

# bfloat16: float32 values, uint16 bits and TensorProto in; float32 values (onnx 1.12's
# numpy_helper and runner convention) or the TensorProto with its bits out.
bf_model = leaky_model(TensorProto.BFLOAT16)
bits = bfloat16.to_bits(x)
want_bits = np.where(x < 0, bfloat16.to_bits(bfloat16.from_bits(bfloat16.to_bits(np.float32(0.1))) * x), bits)
bf_rep = backend.prepare(bf_model)
as_proto = helper.make_tensor("ignored", TensorProto.BFLOAT16, x.shape, bits.tobytes(), raw=True)
for label, value in [("float32 values", x), ("uint16 bits", bits), ("a TensorProto", as_proto)]:
    out = bf_rep.run([value])[0]
    check(f"bfloat16 given as {label}: float32 of the bfloat16 result",
          out.dtype == np.float32 and np.array_equal(out, bfloat16.from_bits(want_bits)), f"{out!r}")
(proto,) = bf_rep.run_protos([x])
check("run_protos: a BFLOAT16 TensorProto named y with the bits",
      proto.data_type == TensorProto.BFLOAT16 and proto.name == "y" and list(proto.dims) == [2, 3]
      and np.array_equal(np.frombuffer(proto.raw_data, "<u2").reshape(2, 3), want_bits), str(proto)[:300])
rounded = bf_rep.run([np.array([[1.00390625, 1.01171875, -3.0], [0, 0, 0]], np.float32)])[0]
check("bfloat16 from float32 rounds to nearest even", rounded[0, 0] == 1.0 and rounded[0, 1] == 1.015625,
      f"{rounded!r}")

# run_node: output types given, or inferred by ONNX's shape inference; opset_version.
node = helper.make_node("LeakyRelu", ["x"], ["y"], alpha=0.5)
half = np.where(x < 0, np.float32(0.5) * x, x)
check("run_node infers the output type", np.array_equal(backend.run_node(node, [x])[0], half))
check("run_node with outputs_info", np.array_equal(backend.run_node(node, [x], outputs_info=[(np.float32, (2, 3))])[0],
                                                  half))
check("run_node opset_version=6", np.array_equal(backend.run_node(node, [x], opset_version=6)[0], half))
bf_input = helper.make_tensor("x", TensorProto.BFLOAT16, x.shape, bits.tobytes(), raw=True)
e = raises(lambda: backend.run_node(node, [bf_input], opset_version=6), backend.OnnxRunError)
check("run_node: bfloat16 at LeakyRelu-6 is invalid (ONNX allows it from 16), not unsupported",
      isinstance(e, backend.OnnxRunError) and not isinstance(e, backend.OnnxRunUnsupported), repr(e))
check("run_node: bfloat16 at opset 16", backend.run_node(node, [bf_input], opset_version=16)[0].dtype == np.float32)

# Devices.
check("supports_device('CPU')", backend.supports_device("CPU") is True)
check("not supports_device('CUDA')", backend.supports_device("CUDA") is False)
e = raises(lambda: backend.prepare(leaky_model(TensorProto.FLOAT), "CUDA"), ValueError)
check("prepare on CUDA refused", isinstance(e, ValueError) and "CPU only" in str(e), repr(e))

# Unsupported: ONNX's runner's "not supposed to implement it" exception, with the cause.
abs_model = helper.make_model(helper.make_graph(
    [helper.make_node("Abs", ["x"], ["y"])], "abs", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])]), opset_imports=[helper.make_opsetid("", 13)])
e = raises(lambda: backend.prepare(abs_model), BackendIsNotSupposedToImplementIt)
check("an unimplemented op raises BackendIsNotSupposedToImplementIt",
      isinstance(e, backend.OnnxRunUnsupported) and e.causes == ["Abs"], repr(e))
check("  naming the op, without the temporary path",
      e is not None and str(e).startswith("node '#0' (Abs): operator Abs") and "/tmp" not in str(e), str(e))
check("float8e4m3fn (17) at LeakyRelu-16 is unsupported (no onnx-run kernel takes float8)",
      isinstance(raises(lambda: backend.prepare(leaky_model(17, opset=16)),
                        backend.OnnxRunUnsupported), backend.OnnxRunUnsupported))
e = raises(lambda: backend.prepare(leaky_model(TensorProto.BFLOAT16, opset=6)), backend.OnnxRunError)
check("bfloat16 at LeakyRelu-6 is invalid, not unsupported",
      isinstance(e, backend.OnnxRunError) and not isinstance(e, backend.OnnxRunUnsupported), repr(e))

# Other refusals: OnnxRunError with onnx-run's one line, never the unsupported exception.
cycle = helper.make_model(helper.make_graph(
    [helper.make_node("LeakyRelu", ["z"], ["w"]), helper.make_node("LeakyRelu", ["w"], ["z"])], "cycle",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])], [helper.make_tensor_value_info("w", TensorProto.FLOAT, [2])]),
    opset_imports=[helper.make_opsetid("", 16)])
e = raises(lambda: backend.prepare(cycle), backend.OnnxRunError)
check("an invalid model raises OnnxRunError with onnx-run's message",
      isinstance(e, backend.OnnxRunError) and not isinstance(e, BackendIsNotSupposedToImplementIt)
      and "cycle" in str(e), repr(e))
e = raises(lambda: rep.run([x.astype(np.float64)]), backend.OnnxRunError)
check("an input of the wrong type: OnnxRunError, exit code 3, onnx-run's line",
      isinstance(e, backend.OnnxRunError) and e.exit_code == 3 and str(e).startswith("onnx-run: input 'x'")
      and "double[2,3]" in str(e), repr(e))
check("  naming no temporary path, only what the caller gave", rep._workdir not in str(e), str(e))
e = raises(lambda: rep.run([x[:1]]), backend.OnnxRunError)
check("an input of the wrong shape: OnnxRunError", isinstance(e, backend.OnnxRunError) and "x" in str(e), repr(e))
check("  naming no temporary path", rep._workdir not in str(e) and "input_0.pb" not in str(e), str(e))
e = raises(lambda: backend.prepare(cycle), backend.OnnxRunError)
check("an invalid model's error names no temporary folder", "onnx_run_" not in str(e), str(e))
e = raises(lambda: rep.run([]), ValueError)
check("no inputs for a model that needs them: ValueError naming x (not made-up inputs)",
      isinstance(e, ValueError) and "x" in str(e), repr(e))
e = raises(lambda: rep.run([x, x]), ValueError)
check("more inputs than the graph has: ValueError", isinstance(e, ValueError), repr(e))
check("a failed run leaves only the model behind", sorted(os.listdir(rep._workdir)) == ["load.json", "model"],
      str(os.listdir(rep._workdir)))
workdir = rep._workdir
rep.close()
check("close() removes the model's folder", not os.path.exists(workdir))

# python3 -m onnx_run.backend_test over a tree of its own: ONNX's runner sorts each
# outcome, and the exit code says whether any test failed or errored.
tree = os.path.join(scratch, "onnx-tests")
shutil.rmtree(tree, ignore_errors=True)


def node_test(name, model, x_value, y_value):
    folder = os.path.join(tree, "node", name)
    os.makedirs(os.path.join(folder, "test_data_set_0"))
    onnx.save(model, os.path.join(folder, "model.onnx"))
    onnx.save_tensor(numpy_helper.from_array(x_value, "x"), os.path.join(folder, "test_data_set_0", "input_0.pb"))
    onnx.save_tensor(numpy_helper.from_array(y_value, "y"), os.path.join(folder, "test_data_set_0", "output_0.pb"))


two = np.array([-1.0, 2.0], np.float32)
node_test("test_good", leaky_model(TensorProto.FLOAT, shape=[2]), two, np.array([-0.1, 2.0], np.float32))
node_test("test_wrong", leaky_model(TensorProto.FLOAT, shape=[2]), two, two)
node_test("test_unimplemented", abs_model, two, np.abs(two))
cycle_w = helper.make_model(helper.make_graph(
    [helper.make_node("LeakyRelu", ["z"], ["y"]), helper.make_node("LeakyRelu", ["y"], ["z"])], "cycle",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])], [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])]),
    opset_imports=[helper.make_opsetid("", 16)])
node_test("test_invalid", cycle_w, two, two)
runner_env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
p = subprocess.run([sys.executable, "-m", "onnx_run.backend_test", tree, "--each"], capture_output=True, text=True,
                   env=runner_env)
lines = p.stdout.splitlines()
check("backend_test: a failure and an error exit 1", p.returncode == 1, p.stdout + p.stderr)
for outcome, name in [("passed", "test_good_cpu"), ("failed", "test_wrong_cpu"), ("error", "test_invalid_cpu"),
                      ("unsupported", "test_unimplemented_cpu")]:
    check(f"backend_test: {name} {outcome}", any(l.split()[:2] == [outcome, name] for l in lines), p.stdout)
check("backend_test: the counts", lines[-1:] == ["1 passed, 1 unsupported, 1 failed, 1 error, 0 skipped (4 tests)"],
      p.stdout)
check("backend_test: the error carries onnx-run's message", "cycle" in p.stdout, p.stdout)
check("backend_test: the failure says how many elements differ", "Mismatched elements: 1 / 2" in p.stdout, p.stdout)
p = subprocess.run([sys.executable, "-m", "onnx_run.backend_test", tree, "--include", "^test_(good|unimplemented)"],
                   capture_output=True, text=True, env=runner_env)
check("backend_test --include: passed and unsupported exit 0, the others not counted",
      p.returncode == 0 and p.stdout.splitlines()[-1:] == ["1 passed, 1 unsupported, 0 failed, 0 errors, 0 skipped (2 tests)"],
      p.stdout + p.stderr)
p = subprocess.run([sys.executable, "-m", "onnx_run.backend_test", os.path.join(scratch, "no-such-tree")],
                   capture_output=True, text=True, env=runner_env)
check("backend_test on a folder without node/: exit 2, one line naming it",
      p.returncode == 2 and p.stderr.strip().count("\n") == 0 and "no-such-tree" in p.stderr, p.stdout + p.stderr)
p = subprocess.run([sys.executable, "-m", "onnx_run.backend_test", tree, "--include", "("],
                   capture_output=True, text=True, env=runner_env)
check("backend_test with a bad --include regex: exit 2, one line", p.returncode == 2
      and p.stderr.strip().count("\n") == 0 and "--include (" in p.stderr, p.stdout + p.stderr)

# The executable: ONNX_RUN, beside the module, the installed bindir (installed_backend_test.py), PATH.
check("ONNX_RUN is used", find_onnx_run() == onnx_run, find_onnx_run())
os.environ["ONNX_RUN"] = os.path.join(scratch, "no-such-onnx-run")
e = raises(find_onnx_run, ExecutableNotFound)
check("ONNX_RUN naming no executable is an error naming it", isinstance(e, ExecutableNotFound)
      and "no-such-onnx-run" in str(e), repr(e))
e = raises(lambda: backend.prepare(leaky_model(TensorProto.FLOAT)), ExecutableNotFound)
check("  prepare says so too", isinstance(e, ExecutableNotFound), repr(e))
del os.environ["ONNX_RUN"]
bindir = os.path.join(scratch, "bin")
os.makedirs(bindir, exist_ok=True)
if not os.path.lexists(os.path.join(bindir, "onnx-run")):
    os.symlink(onnx_run, os.path.join(bindir, "onnx-run"))
saved_path = os.environ["PATH"]
os.environ["PATH"] = bindir + os.pathsep + "/usr/bin:/bin"
check("PATH is searched last", find_onnx_run() == os.path.join(bindir, "onnx-run"), find_onnx_run())
os.environ["PATH"] = "/usr/bin:/bin"
e = raises(find_onnx_run, ExecutableNotFound)
check("nowhere: ExecutableNotFound saying where it looked", isinstance(e, ExecutableNotFound)
      and "ONNX_RUN" in str(e) and "PATH" in str(e), repr(e))
# Beside the module: a copy of the package with onnx-run next to it, in a fresh interpreter.
copy = os.path.join(scratch, "beside", "onnx_run")
shutil.rmtree(os.path.dirname(copy), ignore_errors=True)
shutil.copytree(os.path.join(PYTHON_DIR, "onnx_run"), copy, ignore=shutil.ignore_patterns("__pycache__"))
os.symlink(onnx_run, os.path.join(copy, "onnx-run"))
p = subprocess.run([sys.executable, "-c", "from onnx_run.executable import find_onnx_run; print(find_onnx_run())"],
                   capture_output=True, text=True,
                   env={"PATH": bindir + ":/usr/bin:/bin", "PYTHONPATH": os.path.dirname(copy)})
check("an onnx-run beside the module comes before PATH", p.stdout.strip() == os.path.join(copy, "onnx-run"),
      p.stdout + p.stderr)
os.environ["PATH"] = saved_path
check.finish()
