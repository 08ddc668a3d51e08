#!/usr/bin/python3
"""Generates testdata/: LeakyRelu models and ONNX test sets for onnx-run's own tests.

Run from anywhere: /usr/bin/python3 tools/gen_testdata.py [OUT_DIR]   (default: testdata/)
Needs Debian's python3-onnx and python3-numpy. Output is deterministic.

Expected outputs are computed here, independently of onnx-run, from the definition
Y = Where(X < 0, CastLike(alpha, X) * X, X): alpha rounded to the tensor's type, one
multiply, one correct rounding. numpy gives that for float32, float64 and float16 (it
multiplies float16 in float32, where the product of two float16 values is exact). numpy
has no bfloat16, so bfloat16 is done here on the exact float64 product with an explicit
round-to-nearest-even (round_to_bfloat16).
"""
import math
import os
import shutil
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

# IR version that goes with each opset (../shared/spec/README.md).
def ir_for_opset(opset):
    for ir, newest in ((3, 8), (4, 9), (5, 10), (6, 11), (7, 14), (8, 18), (9, 20), (10, 22), (11, 23), (12, 24)):
        if opset <= newest:
            return ir
    return 13

LATEST_OPSET = 28

# ---- bfloat16, by hand -------------------------------------------------------------

BF16_MAX = (2 - 2**-7) * 2.0**127

def round_to_bfloat16(v):
    """Nearest bfloat16 value to the float64 v, ties to even; overflow to inf."""
    if math.isnan(v) or math.isinf(v) or v == 0:
        return v
    m, e = math.frexp(abs(v))          # abs(v) = m * 2^e, 0.5 <= m < 1
    quantum_exp = max(e - 1, -126) - 7  # spacing of bfloat16 values near v
    r = math.ldexp(abs(v), -quantum_exp)  # exact: scaling by a power of two
    rounded = math.ldexp(round(r), quantum_exp)  # Python's round() ties to even
    if rounded > BF16_MAX:
        rounded = math.inf
    return math.copysign(rounded, v)

def bf16_bits_from_values(values):
    """bfloat16 bit patterns of values that are exactly representable in bfloat16."""
    f32 = np.asarray(values, dtype=np.float64).astype(np.float32)  # exact for bf16 values
    return (f32.view(np.uint32) >> 16).astype(np.uint16)

def bf16_values_from_bits(bits):
    return (np.asarray(bits, dtype=np.uint32) << 16).view(np.float32).astype(np.float64)

# ---- inputs ------------------------------------------------------------------------

def edge_values(dtype_name):
    """Values every kernel must get right: signed zeros, infinities, NaN, the extremes
    and denormals of the type, ordinary values."""
    if dtype_name == "float16":
        fi = np.finfo(np.float16)
        tiny_den = float(np.float16(2**-24))
    elif dtype_name == "bfloat16":
        fi = None
        tiny_den = 2.0**-133
    else:
        fi = np.finfo(np.float32 if dtype_name == "float" else np.float64)
        tiny_den = float(fi.smallest_subnormal)
    big = float(fi.max) if fi is not None else BF16_MAX
    small_norm = float(fi.tiny) if fi is not None else 2.0**-126
    return [0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan, -math.nan, big, -big, small_norm,
            -small_norm, tiny_den, -tiny_den, -3 * tiny_den, -7 * tiny_den, 0.5, -0.5, 3.25, -3.25, 1e-3, -1e-3]

def make_input(dtype_name, shape, seed):
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    vals = list(edge_values(dtype_name))
    vals += list(rng.standard_normal(max(0, n - len(vals))) * 4)
    vals = np.array(vals[:n], dtype=np.float64).reshape(shape)
    if dtype_name == "float":
        return vals.astype(np.float32)
    if dtype_name == "double":
        return vals
    if dtype_name == "float16":
        with np.errstate(over="ignore"):
            return vals.astype(np.float16)
    # bfloat16: keep the bit patterns (uint16) of the rounded values
    return bf16_bits_from_values([round_to_bfloat16(v) for v in vals.ravel()]).reshape(shape)

# ---- the reference -----------------------------------------------------------------

def leaky_relu_reference(x, dtype_name, alpha):
    """Y = Where(X < 0, CastLike(alpha, X) * X, X), written out per type."""
    a32 = np.float32(alpha)
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        if dtype_name == "float":
            return np.where(x < 0, x * a32, x)
        if dtype_name == "double":
            return np.where(x < 0, x * np.float64(a32), x)
        if dtype_name == "float16":
            return np.where(x < 0, x * np.float16(a32), x)
    # bfloat16: x holds bit patterns
    a = round_to_bfloat16(float(a32))
    xs = bf16_values_from_bits(x.ravel())
    out = x.ravel().copy()
    for k, v in enumerate(xs):
        if v < 0:
            out[k] = bf16_bits_from_values([round_to_bfloat16(v * a)])[0]  # v * a is exact in float64
    return out.reshape(x.shape)

# ---- writing -----------------------------------------------------------------------

ONNX_TYPE = {"float": TensorProto.FLOAT, "double": TensorProto.DOUBLE, "float16": TensorProto.FLOAT16,
             "bfloat16": TensorProto.BFLOAT16}

def tensor_proto(arr, dtype_name, name, typed_field=False):
    t = TensorProto()
    t.name = name
    t.data_type = ONNX_TYPE[dtype_name]
    t.dims.extend(arr.shape)
    if not typed_field:
        t.raw_data = np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<")).tobytes()
    elif dtype_name == "float":
        t.float_data.extend(arr.ravel().tolist())
    elif dtype_name == "double":
        t.double_data.extend(arr.ravel().tolist())
    else:  # 16-bit floats: one bit pattern per int32_data entry
        t.int32_data.extend(arr.ravel().view(np.uint16).astype(np.int32).tolist())
    return t

def write_tensor(path, arr, dtype_name, name, typed_field=False):
    with open(path, "wb") as f:
        f.write(tensor_proto(arr, dtype_name, name, typed_field).SerializeToString())

def write_model(folder, nodes, inputs, outputs, opset, initializers=(), name="graph"):
    os.makedirs(folder, exist_ok=True)
    graph = helper.make_graph(nodes, name, inputs, outputs, initializer=list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                              producer_name="onnx-run tools/gen_testdata.py")
    model.ir_version = ir_for_opset(opset)
    with open(os.path.join(folder, "model.onnx"), "wb") as f:
        f.write(model.SerializeToString())

def write_set(folder, k, inputs, outputs, typed_field=False):
    d = os.path.join(folder, f"test_data_set_{k}")
    os.makedirs(d, exist_ok=True)
    for i, (name, arr, dt) in enumerate(inputs):
        write_tensor(os.path.join(d, f"input_{i}.pb"), arr, dt, name, typed_field)
    for i, (name, arr, dt) in enumerate(outputs):
        write_tensor(os.path.join(d, f"output_{i}.pb"), arr, dt, name, typed_field)

# ---- the models --------------------------------------------------------------------

def leaky_relu_models(out):
    count = 0
    for opset in (1, 5, 6, 15, 16, LATEST_OPSET):
        types = ["float", "double", "float16"] + (["bfloat16"] if opset >= 16 else [])
        for dt in types:
            alphas = [None, 0.1] + ([1e-5] if dt == "bfloat16" else [])  # 1e-5: products below FLT_MIN (float32 denormals)
            for alpha in alphas:
                tag = "default" if alpha is None else f"alpha{alpha:g}"
                folder = os.path.join(out, f"leakyrelu_opset{opset}_{dt}_{tag}")
                attrs = {} if alpha is None else {"alpha": alpha}
                node = helper.make_node("LeakyRelu", ["x"], ["y"], name="leaky", **attrs)
                shape = [2, 3, 5]
                write_model(folder, [node], [helper.make_tensor_value_info("x", ONNX_TYPE[dt], shape)],
                            [helper.make_tensor_value_info("y", ONNX_TYPE[dt], shape)], opset)
                a = 0.01 if alpha is None else alpha
                for k in range(2):  # set 0 in raw_data, set 1 in the typed fields
                    x = make_input(dt, shape, seed=opset * 100 + k)
                    write_set(folder, k, [("x", x, dt)], [("y", leaky_relu_reference(x, dt, a), dt)],
                              typed_field=(k == 1))
                count += 1
    return count

def graph_models(out):
    """Graphs with more than one node: a chain, fan-out, an intermediate that is also a
    graph output, nodes listed out of order, symbolic dims, an initializer that is also
    an input (fed input overrides it)."""
    f = TensorProto.FLOAT
    # chain + fan-out + intermediate output, nodes deliberately out of order
    nodes = [
        helper.make_node("LeakyRelu", ["b"], ["c"], name="third", alpha=2.0),
        helper.make_node("LeakyRelu", ["x"], ["a"], name="first", alpha=0.5),
        helper.make_node("LeakyRelu", ["a"], ["b"], name="second"),
        helper.make_node("LeakyRelu", ["a"], ["d"], name="fanout", alpha=-0.25),
    ]
    folder = os.path.join(out, "graph_chain_fanout")
    sym = ["N", 4]
    write_model(folder, nodes, [helper.make_tensor_value_info("x", f, sym)],
                [helper.make_tensor_value_info("c", f, sym), helper.make_tensor_value_info("a", f, sym),
                 helper.make_tensor_value_info("d", f, sym)], 13)
    for k, n in enumerate((3, 1)):
        x = make_input("float", [n, 4], seed=7 + k)
        a = leaky_relu_reference(x, "float", 0.5)
        b = leaky_relu_reference(a, "float", 0.01)
        c = leaky_relu_reference(b, "float", 2.0)
        d = leaky_relu_reference(a, "float", -0.25)
        write_set(folder, k, [("x", x, "float")], [("c", c, "float"), ("a", a, "float"), ("d", d, "float")])

    # an initializer that is also a graph input: runs without feeds, or with x fed
    folder = os.path.join(out, "graph_initializer_input")
    init = make_input("float", [6], seed=11)
    write_model(folder, [helper.make_node("LeakyRelu", ["w"], ["y"], name="leaky", alpha=0.3)],
                [helper.make_tensor_value_info("w", f, [6])], [helper.make_tensor_value_info("y", f, [6])], 9,
                initializers=[tensor_proto(init, "float", "w")])
    fed = make_input("float", [6], seed=12)
    write_set(folder, 0, [("w", fed, "float")], [("y", leaky_relu_reference(fed, "float", 0.3), "float")])

    # two inputs, one symbol shared between them
    folder = os.path.join(out, "graph_two_inputs")
    write_model(folder, [helper.make_node("LeakyRelu", ["p"], ["py"], name="lp"),
                         helper.make_node("LeakyRelu", ["q"], ["qy"], name="lq", alpha=0.2)],
                [helper.make_tensor_value_info("p", f, ["B", 2]), helper.make_tensor_value_info("q", f, ["B"])],
                [helper.make_tensor_value_info("py", f, ["B", 2]), helper.make_tensor_value_info("qy", f, ["B"])], 16)
    p, q = make_input("float", [3, 2], seed=21), make_input("float", [3], seed=22)
    write_set(folder, 0, [("p", p, "float"), ("q", q, "float")],
              [("py", leaky_relu_reference(p, "float", 0.01), "float"),
               ("qy", leaky_relu_reference(q, "float", 0.2), "float")])

    # 0-d scalar and a tensor with a zero dim
    for name, shape in (("graph_scalar", []), ("graph_empty", [0, 3])):
        folder = os.path.join(out, name)
        write_model(folder, [helper.make_node("LeakyRelu", ["x"], ["y"], name="leaky")],
                    [helper.make_tensor_value_info("x", f, shape)], [helper.make_tensor_value_info("y", f, shape)], 6)
        x = np.full(shape, -2.0, dtype=np.float32)
        write_set(folder, 0, [("x", x, "float")], [("y", leaky_relu_reference(x, "float", 0.01), "float")])
    return 5

def main():
    out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "testdata"))
    # Only the folders this tool makes are replaced; anything else in testdata/ stays.
    if os.path.isdir(out):
        for entry in os.listdir(out):
            if entry.startswith(("leakyrelu_opset", "graph_")):
                shutil.rmtree(os.path.join(out, entry))
    n = leaky_relu_models(out) + graph_models(out)
    print(f"wrote {n} models to {out}")

if __name__ == "__main__":
    main()
