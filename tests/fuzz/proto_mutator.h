// A structure-aware mutator for fuzz targets whose input is an ONNX model: the bytes are
// parsed as onnx::ModelProto and, when they parse, one edit is made to the message (a
// dim, a data type, a value name, an op type, an attribute, an opset import, a node
// added or removed, a model-local function called, raw_data cut or extended, the IR
// version) and the message serialized again (onnx.proto is built for the lite runtime,
// so the edits walk the message by hand, not by reflection). Bytes that do
// not parse, edits that come out bigger than the size cap, and one call in five get
// libFuzzer's own byte mutation (LLVMFuzzerMutate), so the parser is still fuzzed too.
//
// proto_mutator.cc defines LLVMFuzzerCustomMutator with it; link that file into a
// target to use it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace onnxrun::fuzz {

// Serialized models stay within this, whatever libFuzzer's -max_len.
inline constexpr size_t kMaxMutatedModelBytes = size_t{64} << 10;

// Edits the model in data[0, size) in place as above; returns the new size (<= max_size).
size_t mutate_model(uint8_t* data, size_t size, size_t max_size, unsigned seed);

}  // namespace onnxrun::fuzz
