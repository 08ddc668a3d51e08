#!/usr/bin/python3
"""Writes the small models the quick-input, numpy and dump tests use (testdata/quick/).

Run with Debian's python3-onnx: /usr/bin/python3 tools/make_quick_models.py
The files are committed; rerun only to change them.
"""
import os

from onnx import TensorProto, helper, save

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testdata", "quick")


def model(name, nodes, inputs, outputs, opset=16):
    g = helper.make_graph(nodes, name, inputs, outputs)
    m = helper.make_model(g, producer_name="onnx-run tools/make_quick_models.py",
                          opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    save(m, os.path.join(OUT, name + ".onnx"))


def main():
    os.makedirs(OUT, exist_ok=True)
    # Symbolic dims: shapes come from --shape or from the data.
    model("leaky_nxm", [helper.make_node("LeakyRelu", ["x"], ["y"], alpha=0.5)],
          [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", "M"])],
          [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", "M"])])
    for t, name in [(TensorProto.FLOAT16, "float16"), (TensorProto.BFLOAT16, "bfloat16"),
                    (TensorProto.DOUBLE, "double")]:
        model("leaky_" + name, [helper.make_node("LeakyRelu", ["x"], ["y"], alpha=0.1)],
              [helper.make_tensor_value_info("x", t, ["N"])],
              [helper.make_tensor_value_info("y", t, ["N"])])
    # Two inputs and a chain with an intermediate whose name is not a safe file name.
    model("two_chains",
          [helper.make_node("LeakyRelu", ["a"], ["mid/0:a"], alpha=0.5, name="first"),
           helper.make_node("LeakyRelu", ["mid/0:a"], ["y"], alpha=0.5, name="second"),
           helper.make_node("LeakyRelu", ["b"], ["z"], alpha=0.25, name="third")],
          [helper.make_tensor_value_info("a", TensorProto.FLOAT, [2, 3]),
           helper.make_tensor_value_info("b", TensorProto.FLOAT, [4])],
          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3]),
           helper.make_tensor_value_info("z", TensorProto.FLOAT, [4])])

    # What `info` must describe although onnx-run cannot run it: an operator it does not
    # implement (Relu), beside a model-local function (local.Twice) that it inlines.
    fn = helper.make_function("local", "Twice", ["t"], ["u"],
                              [helper.make_node("LeakyRelu", ["t"], ["v"], alpha=2.0),
                               helper.make_node("LeakyRelu", ["v"], ["u"], alpha=2.0)],
                              [helper.make_opsetid("", 16)], ["unused_attr"])
    g = helper.make_graph(
        [helper.make_node("LeakyRelu", ["x"], ["a"], name="leaky"),
         helper.make_node("Relu", ["a"], ["b"], name="relu"),
         helper.make_node("Twice", ["b"], ["y"], domain="local", name="call")],
        "not_runnable",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N"])],
        [helper.make_tensor("w", TensorProto.FLOAT, [2, 3], [0.5] * 6)])
    m = helper.make_model(g, producer_name="onnx-run tools/make_quick_models.py", producer_version="1.0",
                          opset_imports=[helper.make_opsetid("", 14), helper.make_opsetid("local", 1)],
                          functions=[fn])
    m.ir_version = 8
    save(m, os.path.join(OUT, "not_runnable.onnx"))


if __name__ == "__main__":
    main()
