#!/usr/bin/python3
"""Every door of onnx-run gives the same answer, as a table test over the built binary.

  doors_test.py ONNX_RUN SCRATCH_DIR

For each element type (float, double, float16, bfloat16) and shape class (0-d, [0],
[3,0,2], [0,3], [2,0,0], small, over the 1000-element summary limit) it writes a
LeakyRelu-16 model with one test_data_set (Debian's python3-onnx and numpy; the
expected output is computed here, in numpy, from the ONNX definition) and runs it
through each door: `-i` printing, `-i -o DIR` in pb, npy and npz, `-q`, `--json`,
`--full`, test-set mode, `-d`, `onnx-run test`. It checks exit codes, written files
bit for bit, JSON values, and that the printed array is numpy's own str() (for
bfloat16, which numpy lacks, that every door prints the same text).
Prints 'N passed, N failed' and exits non-zero on a failure.
"""
import json
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from checks import Checks

# bfloat16 as its bits (uint16): the conversions of the onnx_run Python package.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
from onnx_run.bfloat16 import from_bits as from_bf16_bits, to_bits as to_bf16_bits  # noqa: E402

onnx_run, scratch = sys.argv[1], sys.argv[2]
check = Checks('FAILED')
os.makedirs(scratch, exist_ok=True)
ALPHA = 0.1



def run(*args):
    return subprocess.run([onnx_run, *args], capture_output=True, text=True)


TYPES = {
    "float": (TensorProto.FLOAT, np.float32),
    "double": (TensorProto.DOUBLE, np.float64),
    "float16": (TensorProto.FLOAT16, np.float16),
    "bfloat16": (TensorProto.BFLOAT16, None),
}
SHAPES = {"0d": [], "empty0": [0], "empty302": [3, 0, 2], "empty03": [0, 3], "empty200": [2, 0, 0],
          "small": [3, 4], "large": [3, 400]}


def leaky_relu(x, type_name):
    """The ONNX definition: alpha cast to x's type, one multiply in that type, one rounding."""
    if type_name == "bfloat16":  # x: uint16 bits; the float32 product of two bfloat16 is exact
        xf = from_bf16_bits(x)
        a = from_bf16_bits(to_bf16_bits(np.array(ALPHA, np.float32)))
        return np.where(xf < 0, to_bf16_bits(a * xf), x)
    a = np.array(ALPHA, dtype=np.float32).astype(x.dtype)
    return np.where(x < 0, a * x, x)


def tensor_proto(values, type_name, name):
    if type_name == "bfloat16":
        t = helper.make_tensor(name, TensorProto.BFLOAT16, values.shape, values.tobytes(), raw=True)
        return t
    return numpy_helper.from_array(values, name)


def proto_values(t, type_name):
    if type_name == "bfloat16":
        return np.frombuffer(t.raw_data, dtype=np.uint16).reshape(tuple(t.dims))
    return numpy_helper.to_array(t)


def make_case(type_name, shape_name):
    onnx_type, np_type = TYPES[type_name]
    shape = SHAPES[shape_name]
    folder = os.path.join(scratch, f"{type_name}_{shape_name}")
    os.makedirs(os.path.join(folder, "test_data_set_0"), exist_ok=True)
    node = helper.make_node("LeakyRelu", ["x"], ["y"], alpha=ALPHA)
    graph = helper.make_graph([node], "doors", [helper.make_tensor_value_info("x", onnx_type, shape)],
                              [helper.make_tensor_value_info("y", onnx_type, shape)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)])
    model.ir_version = 8
    onnx.save(model, os.path.join(folder, "model.onnx"))
    rng = np.random.default_rng(len(folder))
    base = (rng.standard_normal(shape) * 3).astype(np.float32)
    if base.size > 4:
        base.flat[0], base.flat[1], base.flat[2] = -0.0, np.float32(1e-3), -250.0
    x = to_bf16_bits(base) if type_name == "bfloat16" else base.astype(np_type)
    y = leaky_relu(x, type_name)
    with open(os.path.join(folder, "test_data_set_0", "input_0.pb"), "wb") as f:
        f.write(tensor_proto(x, type_name, "x").SerializeToString())
    with open(os.path.join(folder, "test_data_set_0", "output_0.pb"), "wb") as f:
        f.write(tensor_proto(y, type_name, "y").SerializeToString())
    return folder, x, y


def printed_array(stdout, verdict):
    """The array text printed after "output 'y'": the stats line, the verdict line when
    there are expected values, then the array up to a blank line or the end."""
    lines = stdout.split("\n")
    k = next(i for i, l in enumerate(lines) if l.startswith("output 'y'"))
    k += 2 + (1 if verdict else 0)
    out = []
    while k < len(lines) and lines[k] != "" and not lines[k].endswith("test sets passed"):
        out.append(lines[k])
        k += 1
    return "\n".join(out)


def numpy_text(y, type_name, full=False):
    if type_name == "bfloat16":
        return None
    # A 0-d array prints as its scalar (str); array2string would cut it to 8 digits.
    return np.array2string(y, threshold=sys.maxsize) if full and y.ndim else str(y)


def same_bits(a, b):
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def json_values(v, type_name):
    """JSON values (nested lists, 'nan'/'inf' strings) back to an array of the type."""
    def conv(e):
        return float(e) if isinstance(e, str) else e
    a = np.array(v, dtype=object)
    f = np.vectorize(conv, otypes=[np.float64])(a) if a.size else np.zeros(a.shape)
    if type_name == "bfloat16":
        return to_bf16_bits(f.astype(np.float32))
    return f.astype(TYPES[type_name][1])


for type_name in TYPES:
    for shape_name in SHAPES:
        case = f"{type_name} {shape_name}"
        folder, x, y = make_case(type_name, shape_name)
        model = os.path.join(folder, "model.onnx")
        inp = os.path.join(folder, "test_data_set_0", "input_0.pb")
        want_text = numpy_text(y, type_name)

        # -i, printing
        p = run(model, "-i", f"x={inp}")
        check(f"{case}: -i exits 0", p.returncode == 0, p.stderr)
        if p.returncode != 0:
            continue
        text_i = printed_array(p.stdout, verdict=False)
        if want_text is not None:
            check(f"{case}: -i prints numpy's text", text_i == want_text, f"got:\n{text_i}\nnumpy:\n{want_text}")
        empty = y.size == 0
        check(f"{case}: stats of an empty tensor say so", ("empty" in p.stdout) == empty and "nan nan" not in p.stdout,
              p.stdout[:500])

        # --full prints every element, as numpy with no threshold
        p = run(model, "-i", f"x={inp}", "--full")
        full_text = printed_array(p.stdout, verdict=False)
        if want_text is not None:
            check(f"{case}: --full prints numpy's whole text", full_text == numpy_text(y, type_name, True),
                  full_text[:300])

        # -i -o DIR in every format, and -q
        for fmt in ["pb", "npy", "npz"]:
            for quiet in [False, True]:
                out = os.path.join(folder, f"out_{fmt}_{int(quiet)}")
                args = [model, "-i", f"x={inp}", "-o", out, "--format", fmt] + (["-q"] if quiet else [])
                p = run(*args)
                check(f"{case}: -o {fmt}{' -q' if quiet else ''} exits 0", p.returncode == 0, p.stderr)
                if quiet:
                    check(f"{case}: -q prints nothing", p.stdout == "", p.stdout[:200])
                if fmt == "pb":
                    got = proto_values(onnx.load_tensor(os.path.join(out, "output_0.pb")), type_name)
                elif fmt == "npy":
                    got = np.load(os.path.join(out, "output_0.npy"))
                else:
                    got = np.load(os.path.join(out, "outputs.npz"))["y"]
                check(f"{case}: -o {fmt} file is bit-exact", same_bits(got, y), f"{got!r} vs {y!r}")
                names = sorted(os.listdir(out))
                check(f"{case}: -o {fmt} leaves no temporaries", all(not n.startswith(".") for n in names), names)

        # --json
        p = run(model, "-i", f"x={inp}", "--json")
        j = json.loads(p.stdout)
        o = j["outputs"][0]
        check(f"{case}: --json shape", o["shape"] == list(y.shape), o["shape"])
        if y.size <= 1000:
            got = json_values(o["values"], type_name)
            check(f"{case}: --json values are bit-exact", same_bits(got.reshape(y.shape), y) and not o["truncated"],
                  str(o["values"])[:300])
        else:
            check(f"{case}: --json says it truncated", o["values"] is None and o["truncated"] is True, str(o)[:300])
        check(f"{case}: --json stats of an empty tensor", (o["stats"].get("empty") is True) == empty, o["stats"])

        # test-set mode and -d print exactly as -i does, with the verdict
        for args, label in [([model], "test-set mode"), ([model, "-d", os.path.join(folder, "test_data_set_0")], "-d")]:
            p = run(*args)
            check(f"{case}: {label} passes", p.returncode == 0 and "test_data_set_0: passed" in p.stdout,
                  p.stdout[:300] + p.stderr)
            check(f"{case}: {label} prints as -i", printed_array(p.stdout, verdict=True) == text_i,
                  f"{printed_array(p.stdout, verdict=True)[:300]}\nvs -i:\n{text_i[:300]}")
            check(f"{case}: {label} prints the output once", p.stdout.count("output 'y'") == 1, p.stdout[:300])
            p = run(*args, "--json")
            ok = p.returncode == 0
            if ok:
                s = json.loads(p.stdout)["test_sets"][0]
                ok = s["passed"] and s["outputs"][0]["comparison"]["ok"]
            check(f"{case}: {label} --json", ok, p.stdout[:300] + p.stderr)
            p = run(*args, "--full")
            if want_text is not None:
                check(f"{case}: {label} --full prints every element",
                      printed_array(p.stdout, verdict=True) == numpy_text(y, type_name, True), p.stdout[:300])

        # onnx-run test
        p = run("test", folder, "-j", "1")
        check(f"{case}: onnx-run test passes", p.returncode == 0 and "1 passed" in p.stdout, p.stdout[-300:])

check.finish()
