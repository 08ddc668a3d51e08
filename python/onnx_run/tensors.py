"""Values in and out of the backend as TensorProto, the files onnx-run reads and writes.

numpy has no bfloat16, and onnx 1.12's numpy_helper reads a bfloat16 tensor as float32
holding its values (exactly), which is what ONNX's backend test runner compares outputs
against. So a bfloat16 output comes back as that float32 array (the TensorProto itself,
bits and all, from BackendRep.run_protos), and a bfloat16 input may be given as such a
float32 array (rounded to nearest even), as uint16 bits, or as a TensorProto."""
import numpy as np
from onnx import TensorProto, mapping, numpy_helper

from . import bfloat16


def _bfloat16_proto(arr, name):
    bits = arr if arr.dtype == np.uint16 else bfloat16.to_bits(arr.astype(np.float32))
    t = TensorProto(name=name, data_type=TensorProto.BFLOAT16, dims=arr.shape)
    t.raw_data = np.ascontiguousarray(bits, dtype="<u2").tobytes()
    return t


def input_proto(value, name, elem_type):
    """`value` for the graph input `name` whose element type is `elem_type` (a
    TensorProto.DataType, 0 when undeclared) as a TensorProto named `name`. A Python
    scalar or list takes the declared type; a numpy array keeps its own (onnx-run refuses
    one that does not fit the graph, naming the input)."""
    if isinstance(value, TensorProto):
        t = TensorProto()
        t.CopyFrom(value)
        t.name = name
        return t
    declared = mapping.TENSOR_TYPE_TO_NP_TYPE.get(elem_type) if elem_type else None
    if elem_type == TensorProto.BFLOAT16:
        return _bfloat16_proto(np.asarray(value), name)
    if not isinstance(value, np.ndarray) and not isinstance(value, np.generic) and declared is not None:
        value = np.asarray(value, dtype=declared)
    return numpy_helper.from_array(np.asarray(value), name)


def output_array(proto):
    """An output TensorProto as numpy (bfloat16: float32 of the same values)."""
    return numpy_helper.to_array(proto)


def read_proto(path):
    t = TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return t


def write_proto(proto, path):
    with open(path, "wb") as f:
        f.write(proto.SerializeToString())
