#!/usr/bin/python3
"""Writes testdata/local_function_leakyrelu/: a model whose graph calls a model-local
function (domain "local", name "MyLeakyRelu") that wraps LeakyRelu-16, with alpha
passed through ref_attr_name, plus one test set whose expected output is the fused
LeakyRelu's, computed here with numpy as DESIGN.md defines it.

Run with Debian's python3-onnx and python3-numpy: /usr/bin/python3 tools/make_function_testdata.py
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testdata", "local_function_leakyrelu")
ALPHA = 0.2


def main():
    body = helper.make_node("LeakyRelu", ["X"], ["Y"], name="leaky")
    attr = helper.AttributeProto()
    attr.name = "alpha"
    attr.ref_attr_name = "alpha"
    attr.type = helper.AttributeProto.FLOAT
    body.attribute.append(attr)
    fn = helper.make_function("local", "MyLeakyRelu", ["X"], ["Y"], [body],
                              [helper.make_opsetid("", 16)], attributes=["alpha"])
    call = helper.make_node("MyLeakyRelu", ["x"], ["y"], domain="local", name="call", alpha=ALPHA)
    graph = helper.make_graph([call], "local_function_leakyrelu",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 4])])
    model = helper.make_model(graph, functions=[fn],
                              opset_imports=[helper.make_opsetid("", 16), helper.make_opsetid("local", 1)])
    model.ir_version = 8
    model.producer_name = "onnx-run tools/make_function_testdata.py"
    onnx.checker.check_model(model)

    x = np.array([[-3.0, -1.0, -0.0, 0.0], [0.5, 2.0, -1e-3, -1e30], [np.inf, -np.inf, 7.25, -7.25]], dtype=np.float32)
    y = np.where(x < 0, x * np.float32(ALPHA), x).astype(np.float32)
    os.makedirs(os.path.join(ROOT, "test_data_set_0"), exist_ok=True)
    onnx.save(model, os.path.join(ROOT, "model.onnx"))
    for kind, name, arr in (("input", "x", x), ("output", "y", y)):
        with open(os.path.join(ROOT, "test_data_set_0", f"{kind}_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(arr, name).SerializeToString())


if __name__ == "__main__":
    main()
