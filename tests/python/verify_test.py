#!/usr/bin/python3
"""`onnx-run verify` on the models its users bring: LeakyRelu between Conv nodes.

  verify_test.py ONNX_RUN SCRATCH_DIR

onnx.helper builds Conv -> LeakyRelu -> Conv -> LeakyRelu in float (opset 13: LeakyRelu-6)
and float16 (opset 16: LeakyRelu-16), and a model whose LeakyRelu is wrapped in a
model-local function. numpy computes the values another runtime would dump (Conv's
values need not be right: verify does not check Conv) and writes them in every format
verify reads: a folder of .npy, a folder of .pb, onnxruntime's .tensorproto node dump,
an .npz, Polygraphy's --save-outputs JSON, and onnx-run's own --dump-intermediates.
Then bugs published against real runtimes are planted one at a time, and each must be
found in the right node with its ULP distance: a 1-ULP change, alpha kept in float32
(not rounded to float16 first), +0 turned into -0, a quieted NaN.
Prints 'N passed, N failed' and exits non-zero on a failure.
"""
import base64
import io
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from checks import Checks

onnx_run, scratch = sys.argv[1], sys.argv[2]
check = Checks("FAILED")
shutil.rmtree(scratch, ignore_errors=True)
os.makedirs(scratch)


def run(*args):
    return subprocess.run([onnx_run, *args], capture_output=True, text=True)


def one_failure_line(p):
    lines = p.stderr.splitlines()
    return len(lines) == 1 and lines[0].startswith("onnx-run: ")


def leaky(x, alpha):
    # The ONNX definition: alpha first cast to x's type, then one multiply in that type.
    a = np.array(alpha, dtype=np.float32).astype(x.dtype)
    with np.errstate(invalid="ignore", over="ignore"):
        return np.where(x < 0, a * x, x)


def dump_name(name):  # onnx-run's --dump-intermediates file name
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in name)


def ort_name(name):  # onnxruntime's node dump file name
    return "".join(c if c.isalnum() else "_" for c in name)


def conv_leaky_model(path, elem, opset, channels, names, alpha1):
    x, c1, y1, c2, y2 = names
    np_type = helper.tensor_dtype_to_np_dtype(elem) if hasattr(helper, "tensor_dtype_to_np_dtype") else \
        onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[elem]
    w = np.eye(channels, dtype=np_type).reshape(channels, channels, 1, 1)
    nodes = [
        helper.make_node("Conv", [x, "W1"], [c1], name="conv1"),
        helper.make_node("LeakyRelu", [c1], [y1], name="lr1", alpha=alpha1),
        helper.make_node("Conv", [y1, "W2"], [c2], name="conv2"),
        helper.make_node("LeakyRelu", [c2], [y2], name="lr2"),  # the default alpha, 0.01
    ]
    graph = helper.make_graph(
        nodes, "conv_leaky", [helper.make_tensor_value_info(x, elem, [1, channels, None, None])],
        [helper.make_tensor_value_info(y2, elem, [1, channels, None, None])],
        [numpy_helper.from_array(w, "W1"), numpy_helper.from_array(w, "W2")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    onnx.checker.check_model(model)
    onnx.save(model, path)


def function_model(path, channels):
    # LeakyRelu inside a model-local function, its alpha given by the call.
    body = [helper.make_node("LeakyRelu", ["a"], ["b"], name="inner")]
    body[0].attribute.append(onnx.AttributeProto(name="alpha", ref_attr_name="alpha", type=onnx.AttributeProto.FLOAT))
    fn = helper.make_function("local", "MyLeaky", ["a"], ["b"], body, [helper.make_opsetid("", 16)], ["alpha"])
    w = np.eye(channels, dtype=np.float16).reshape(channels, channels, 1, 1)
    call = helper.make_node("MyLeaky", ["c"], ["y"], name="act", domain="local", alpha=0.2)
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "W"], ["c"], name="conv"), call], "fn",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT16, [1, channels, None, None])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT16, [1, channels, None, None])],
        [numpy_helper.from_array(w, "W")])
    model = helper.make_model(graph, functions=[fn], opset_imports=[helper.make_opsetid("", 16),
                                                                      helper.make_opsetid("local", 1)])
    onnx.save(model, path)


def all_float16(seed):
    # Every float16 bit pattern once (NaNs with payloads, both zeros, denormals), shuffled.
    bits = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    np.random.default_rng(seed).shuffle(bits)
    return bits.view(np.float16).reshape(1, 4, 128, 128)


def float32_values(seed):
    v = np.random.default_rng(seed).standard_normal((1, 4, 16, 16)).astype(np.float32)
    v.flat[:6] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45]
    return v


def write_npy_folder(d, values, file_name=dump_name):
    os.makedirs(d, exist_ok=True)
    for name, a in values.items():
        np.save(os.path.join(d, file_name(name) + ".npy"), a)


def write_pb_folder(d, values, file_name=dump_name, ext=".pb"):
    os.makedirs(d, exist_ok=True)
    for name, a in values.items():
        with open(os.path.join(d, file_name(name) + ext), "wb") as f:
            f.write(numpy_helper.from_array(a, name).SerializeToString())


def encode_array(a, older=None):
    """polygraphy/json/serde.py: base64 of numpy.save's bytes. `older`: what Polygraphy's
    decoder still reads from earlier files, "latin-1" (the bytes as a latin-1 string),
    "npz" (numpy.savez's bytes of the one array, base64) or "npz latin-1"."""
    buf = io.BytesIO()
    if older and older.startswith("npz"):
        np.savez(buf, a)
    else:
        np.save(buf, a, allow_pickle=False)
    data = buf.getvalue()
    text = data.decode("latin-1") if older and older.endswith("latin-1") else base64.b64encode(data).decode()
    return {"array": text, "polygraphy_class": "ndarray"}


def write_polygraphy(path, values, older=None):
    outputs = {n: {"values": encode_array(a, older), "polygraphy_class": "LazyNumpyArray"} for n, a in values.items()}
    iteration = {"outputs": outputs, "runtime": 0.01, "runner_name": "onnxrt-runner-N0",
                 "polygraphy_class": "IterationResult"}
    with open(path, "w") as f:
        json.dump({"lst": [["onnxrt-runner-N0", [iteration]]], "polygraphy_class": "RunResults"}, f, indent=4)


def verify(model, *values, extra=()):
    p = run("verify", model, *values, "--json", *extra)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        doc = None
    return p, doc


def node(doc, name):
    return next((n for n in doc["nodes"] if n["name"] == name), None) if doc else None


def bits16(a):
    return a.view(np.uint16).copy()


# ---------------------------------------------------------------- float16, every format
F16_NAMES = ["x", "block1/conv:0", "block1/act.1", "block2/conv:0", "y"]
f16_model = os.path.join(scratch, "conv_leaky_f16.onnx")
conv_leaky_model(f16_model, TensorProto.FLOAT16, 16, 4, F16_NAMES, 0.1)
c1, c2 = all_float16(1), all_float16(2)
f16 = {F16_NAMES[1]: c1, F16_NAMES[2]: leaky(c1, 0.1), F16_NAMES[3]: c2, F16_NAMES[4]: leaky(c2, 0.01)}

formats = {}
formats["npy folder"] = [os.path.join(scratch, "f16_npy")]
write_npy_folder(formats["npy folder"][0], f16)
formats["pb folder"] = [os.path.join(scratch, "f16_pb")]
write_pb_folder(formats["pb folder"][0], f16)
formats["onnxruntime node dump"] = [os.path.join(scratch, "f16_ort")]
write_pb_folder(formats["onnxruntime node dump"][0], f16, ort_name, ".tensorproto")
formats["npz"] = [os.path.join(scratch, "f16.npz")]
np.savez(formats["npz"][0], **f16)
formats["polygraphy json"] = [os.path.join(scratch, "f16_polygraphy.json")]
write_polygraphy(formats["polygraphy json"][0], f16)
for older in ("latin-1", "npz", "npz latin-1"):
    formats[f"older polygraphy json ({older})"] = [os.path.join(scratch, f"f16_polygraphy_{older.replace(' ', '_')}.json")]
    write_polygraphy(formats[f"older polygraphy json ({older})"][0], f16, older)
formats["mixed"] = [os.path.join(scratch, "f16_conv.npz"), os.path.join(scratch, "f16_act")]
np.savez(formats["mixed"][0], **{k: v for k, v in f16.items() if "conv" in k})
write_pb_folder(formats["mixed"][1], {k: v for k, v in f16.items() if "conv" not in k})

for what, paths in formats.items():
    p, doc = verify(f16_model, *paths)
    ok = p.returncode == 0 and doc is not None
    check(f"float16 {what}: exit 0", ok, p.stderr + p.stdout[-2000:])
    if not ok:
        continue
    for name in ("lr1", "lr2"):
        n = node(doc, name)
        check(f"float16 {what}: {name} checked exact", n and n["status"] == "exact" and n["max_ulp"] == 0, n)
    for name in ("conv1", "conv2"):
        n = node(doc, name)
        check(f"float16 {what}: {name} not checked, onnx-run does not run Conv",
              n and n["status"] == "not_checked" and "does not run Conv" in n["reason"], n)
    check(f"float16 {what}: versions", node(doc, "lr1")["version"].startswith("v16"), node(doc, "lr1"))

# Text: one line per node, Conv's reason, the summary.
p = run("verify", f16_model, *formats["npz"])
check("text: Conv not checked with its reason",
      "node 'conv1' (Conv): not checked: onnx-run does not run Conv (ai.onnx)" in p.stdout, p.stdout)
check("text: LeakyRelu exact", "node 'lr1' (LeakyRelu v16 (16+)): exact" in p.stdout, p.stdout)
check("text: summary", "4 nodes: 2 checked (2 exact, 0 differ), 2 not checked" in p.stdout, p.stdout)


# ---------------------------------------------------------------- planted bugs (float16)
def planted(label, node_name, value, change, want_ulp, want_count=None, extra=()):
    vals = {k: v.copy() for k, v in f16.items()}
    vals[value] = change(vals[value])
    d = os.path.join(scratch, "bug_" + label.replace(" ", "_"))
    write_pb_folder(d, vals)
    p, doc = verify(f16_model, d, extra=extra)
    check(f"{label}: exit 1 with one stderr line", p.returncode == 1 and one_failure_line(p), p.stderr)
    check(f"{label}: the first differing node is {node_name}", doc and doc["first_differing"] == node_name,
          doc and doc["first_differing"])
    n = node(doc, node_name)
    check(f"{label}: {node_name} differs, max ulp {want_ulp}", n and n["status"] == "differs" and n["max_ulp"] == want_ulp,
          n and (n["status"], n["max_ulp"]))
    if want_count is not None and n:
        got = n["outputs"][0]["comparison"]["mismatches"]
        check(f"{label}: {want_count} elements differ", got == want_count, got)
    other = node(doc, "lr1" if node_name == "lr2" else "lr2")
    check(f"{label}: the other LeakyRelu is exact", other and other["status"] == "exact", other)
    check(f"{label}: stderr names the node", f"node '{node_name}' (LeakyRelu)" in p.stderr, p.stderr)
    if n:
        worst = n["outputs"][0]
        check(f"{label}: the worst element's input is shown", worst["worst_inputs"] and
              worst["worst_inputs"][0].startswith(n["inputs"][0]["name"] + "["), worst["worst_inputs"])
        cmp = worst["comparison"]
        check(f"{label}: expected and got bits are given", cmp["worst"]["expected_bits"].startswith("0x") and
              cmp["worst"]["actual_bits"].startswith("0x") and cmp["worst"]["expected_bits"] != cmp["worst"]["actual_bits"],
              cmp.get("worst"))
    return p, doc


def one_ulp(y):
    b = bits16(y).reshape(-1)
    k = int(np.nonzero((b & 0x7c00) == 0x3c00)[0][0])  # a positive normal value in [1, 2)
    b[k] += 1
    return b.view(np.float16).reshape(y.shape)


def alpha_in_float32(y):
    # The kernel that keeps alpha in float32: float16(float(x) * 0.01f), alpha never rounded
    # to float16. Only negative finite inputs go through the multiply.
    y = y.copy()
    neg = (c2 < 0) & np.isfinite(c2)
    y[neg] = (c2[neg].astype(np.float32) * np.float32(0.01)).astype(np.float16)
    return y


def plus_zero_to_minus(y):  # `x <= 0` for `x < 0`: +0 * a negative alpha is -0
    b = bits16(y).reshape(-1)
    b[bits16(c1).reshape(-1) == 0x0000] = 0x8000
    return b.view(np.float16).reshape(y.shape)


def quiet_nan(y):  # a multiply on a signalling NaN sets its quiet bit
    b = bits16(y).reshape(-1)
    b[bits16(c1).reshape(-1) == 0x7c01] = 0x7e01
    return b.view(np.float16).reshape(y.shape)


# How many negative finite float16 inputs the float32 alpha changes, counted here.
neg = c2[(c2 < 0) & np.isfinite(c2)]
n_alpha32 = int(np.count_nonzero(leaky(neg, 0.01).view(np.uint16) !=
                                 (neg.astype(np.float32) * np.float32(0.01)).astype(np.float16).view(np.uint16)))
check("the float32 alpha changes 7745 negative finite float16 inputs", n_alpha32 == 7745, n_alpha32)

p, doc = planted("one ulp", "lr2", F16_NAMES[4], one_ulp, 1, 1)
check("one ulp: text gives the ULP", "max ulp 1" in run("verify", f16_model, os.path.join(scratch, "bug_one_ulp")).stdout)
planted("float32 alpha", "lr2", F16_NAMES[4], alpha_in_float32, 1, n_alpha32)
planted("plus zero to minus zero", "lr1", F16_NAMES[2], plus_zero_to_minus, 0, 1)
planted("quieted NaN", "lr1", F16_NAMES[2], quiet_nan, 0, 1)

# Tolerances as in compare: the 1-ULP bug passes --max-ulp 1 (also per output) and an atol.
bug = os.path.join(scratch, "bug_one_ulp")
check("--max-ulp 1 passes one ULP", run("verify", f16_model, bug, "--max-ulp", "1").returncode == 0)
check("--max-ulp y:1 passes one ULP", run("verify", f16_model, bug, "--max-ulp", "y:1").returncode == 0)
check("--max-ulp block1/act.1:1 does not", run("verify", f16_model, bug, "--max-ulp", "block1/act.1:1").returncode == 1)
check("--atol 0.01 passes one ULP", run("verify", f16_model, bug, "--atol", "0.01").returncode == 0)
check("--max-ulp for no output is a usage error", run("verify", f16_model, bug, "--max-ulp", "nope:1").returncode == 2)
p = run("verify", f16_model, bug, "--max-ulp", "1")
check("agrees within tolerance is said", "agrees (max ulp 1)" in p.stdout, p.stdout)

# JUnit: one test case per checked node, the differing one a failure.
junit = os.path.join(scratch, "verify.xml")
p = run("verify", f16_model, bug, "--junit", junit)
root = ET.parse(junit).getroot()
cases = root.findall(".//testcase")
check("junit: one test case per checked node", sorted(c.get("name") for c in cases) == ["lr1", "lr2"],
      [c.get("name") for c in cases])
failed = [c.get("name") for c in cases if c.find("failure") is not None]
check("junit: lr2 fails", failed == ["lr2"], failed)

# ---------------------------------------------------------------- missing values, --require-all
only_y = os.path.join(scratch, "f16_partial")
write_pb_folder(only_y, {k: v for k, v in f16.items() if k != F16_NAMES[1]})
p, doc = verify(f16_model, only_y)
n = node(doc, "lr1")
check("missing input: not checked, named", p.returncode == 0 and n and n["status"] == "not_checked" and
      "not in VALUES: input 'block1/conv:0'" in n["reason"], n)
p = run("verify", f16_model, only_y, "--require-all")
check("--require-all: an unchecked LeakyRelu fails", p.returncode == 1 and one_failure_line(p) and "lr1" in p.stderr,
      p.stderr)
p = run("verify", f16_model, formats["npz"][0], "--require-all")
check("--require-all: all checked passes", p.returncode == 0, p.stderr)

# A value of another type than the graph's: not checked, with the reason.
wrong = os.path.join(scratch, "f16_wrong_type")
write_pb_folder(wrong, {**f16, F16_NAMES[4]: f16[F16_NAMES[4]].astype(np.float32)})
p, doc = verify(f16_model, wrong)
n = node(doc, "lr2")
check("wrong dtype: not checked, why", n and n["status"] == "not_checked" and "float" in n["reason"] and
      "graph" in n["reason"], n)

# ---------------------------------------------------------------- exit codes 2 and 3
check("a path that is not there: exit 2", run("verify", f16_model, os.path.join(scratch, "nope")).returncode == 2)
bad = os.path.join(scratch, "bad.npz")
with open(bad, "wb") as f:
    f.write(b"PK not a zip")
p = run("verify", f16_model, bad)
check("a damaged value file: exit 3, one line", p.returncode == 3 and one_failure_line(p), p.stderr)
bad_json = os.path.join(scratch, "bad.json")
with open(bad_json, "w") as f:
    f.write('{"not": "polygraphy"}')
p = run("verify", f16_model, bad_json)
check("a JSON that is not Polygraphy's: exit 3", p.returncode == 3 and one_failure_line(p), p.stderr)
# An array string that is neither base64 nor latin-1 text (a code point past U+00FF).
not_latin1 = os.path.join(scratch, "not_latin1.json")
write_polygraphy(not_latin1, f16)
with open(not_latin1) as f:
    text = f.read()
with open(not_latin1, "w") as f:
    f.write(text.replace('"array": "', '"array": "\\u0100', 1))
p = run("verify", f16_model, not_latin1)
check("an array neither base64 nor latin-1: exit 3, one line naming it",
      p.returncode == 3 and one_failure_line(p) and "neither base64 nor latin-1 text" in p.stderr, p.stderr)

# ---------------------------------------------------------------- float32, LeakyRelu-6
F32_NAMES = ["x", "c1", "y1", "c2", "y2"]
f32_model = os.path.join(scratch, "conv_leaky_f32.onnx")
conv_leaky_model(f32_model, TensorProto.FLOAT, 13, 4, F32_NAMES, 0.1)
a1, a2 = float32_values(3), float32_values(4)
f32 = {"c1": a1, "y1": leaky(a1, 0.1), "c2": a2, "y2": leaky(a2, 0.01)}
d32 = os.path.join(scratch, "f32_npy")
write_npy_folder(d32, f32)
p, doc = verify(f32_model, d32)
check("float32: exit 0, both exact", p.returncode == 0 and node(doc, "lr1")["status"] == "exact" and
      node(doc, "lr2")["status"] == "exact" and node(doc, "lr1")["version"].startswith("v6"), p.stdout[-1500:])
y1 = f32["y1"].copy()
y1.view(np.uint32).reshape(-1)[10] += 1
write_npy_folder(d32 + "_bug", {**f32, "y1": y1})
p, doc = verify(f32_model, d32 + "_bug")
n = node(doc, "lr1")
check("float32 one ulp: lr1 differs by 1 ULP", p.returncode == 1 and n["status"] == "differs" and n["max_ulp"] == 1
      and n["outputs"][0]["comparison"]["worst"]["index"] == 10, n and n["outputs"][0]["comparison"])

# ---------------------------------------------------------------- a model-local function
fn_model = os.path.join(scratch, "function.onnx")
function_model(fn_model, 4)
fv = {"c": c1, "y": leaky(c1, 0.2)}
dfn = os.path.join(scratch, "fn_values.npz")
np.savez(dfn, **fv)
p, doc = verify(fn_model, dfn)
lr = [n for n in doc["nodes"] if n["op_type"] == "LeakyRelu"] if doc else []
check("function: its LeakyRelu is checked exact", p.returncode == 0 and len(lr) == 1 and lr[0]["status"] == "exact",
      p.stdout[-1500:] + p.stderr)
np.savez(dfn, c=c1, y=quiet_nan(fv["y"]))
p, doc = verify(fn_model, dfn)
lr = [n for n in doc["nodes"] if n["op_type"] == "LeakyRelu"] if doc else []
check("function: a quieted NaN is found in it", p.returncode == 1 and lr and lr[0]["status"] == "differs", p.stdout[-1500:])

# ---------------------------------------------------------------- onnx-run verifies itself
# A model onnx-run runs whole, its --dump-intermediates folder (values.tsv maps names that
# need sanitising), the graph input from a file of its own.
chain = helper.make_graph(
    [helper.make_node("LeakyRelu", ["in:0"], ["mid/a.b"], name="first", alpha=0.3),
     helper.make_node("LeakyRelu", ["mid/a.b"], ["out"], name="second")],
    "chain", [helper.make_tensor_value_info("in:0", TensorProto.FLOAT16, [4, 128, 128])],
    [helper.make_tensor_value_info("out", TensorProto.FLOAT16, [4, 128, 128])])
chain_model = os.path.join(scratch, "chain.onnx")
onnx.save(helper.make_model(chain, opset_imports=[helper.make_opsetid("", 14)]), chain_model)
x_in = os.path.join(scratch, "chain_in")
write_pb_folder(x_in, {"in:0": c1.reshape(4, 128, 128)})
for fmt in ("pb", "npy"):
    dump = os.path.join(scratch, f"chain_dump_{fmt}")
    p = run(chain_model, "-i", os.path.join(x_in, "in_0.pb"), "--dump-intermediates", dump, "--format", fmt, "-q")
    check(f"--dump-intermediates ({fmt}) ran", p.returncode == 0, p.stderr)
    p, doc = verify(chain_model, dump, x_in)
    check(f"onnx-run verifies its own dump ({fmt})", p.returncode == 0 and doc and doc["checked"] == 2 and
          doc["exact"] == 2, p.stdout[-1500:] + p.stderr)

# ---------------------------------------------------------------- info --verify
p = run("info", f16_model, "--verify")
check("info --verify: Conv not checked, LeakyRelu checked, the values needed",
      p.returncode == 0 and "verify would check 2 of 4 nodes" in p.stdout and
      "values it needs: block1/conv:0, block1/act.1, block2/conv:0, y" in p.stdout, p.stdout)

# ---------------------------------------------------------------- memory: one node at a time
# Four 32 MiB values: a reader holding them all would pass 128 MiB; verify holds one node's
# input and dumped output and a block. A child's peak RSS counts what it shared with this
# process when forked, so it is measured against `info` spawned the same way.
big_model = os.path.join(scratch, "big.onnx")
conv_leaky_model(big_model, TensorProto.FLOAT, 13, 8, F32_NAMES, 0.1)
dbig = os.path.join(scratch, "big_pb")
big = np.random.default_rng(5).standard_normal((1, 8, 1024, 1024)).astype(np.float32)
write_pb_folder(dbig, {"c1": big, "y1": leaky(big, 0.1)})
write_pb_folder(dbig, {"c2": -big, "y2": leaky(-big, 0.01)})
del big


def peak_mib(*args):
    proc = subprocess.Popen([onnx_run, *args], stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    return usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


base, _ = peak_mib("info", big_model)
for extra in ([], ["--atol", "0"]):
    peak, code = peak_mib("verify", big_model, dbig, "-q", *extra)
    check(f"memory {extra}: exit 0", code == 0)
    # Block by block (the default): input and dumped output. With atol: onnx-run's output too.
    bound = (3 if extra else 2) * 32 + 16
    check(f"memory {extra}: peak within the node's tensors plus a constant", peak - base < bound,
          f"{peak - base:.1f} MiB over info's {base:.1f} MiB, bound {bound}")
shutil.rmtree(dbig, ignore_errors=True)

check.finish()
