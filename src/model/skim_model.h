// Describing a model without reading its tensor data (`onnx-run info`): a copy of the
// ModelProto bytes in which the large initializers' raw_data is left out, and where that
// data lies in the original bytes. The copy parses in a fraction of the memory; the
// initializers become views of the mapped file whose pages are never touched (info shows
// their type, shape and size, not their values).
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "io/tensor_wire.h"

namespace onnxrun {

struct SkimmedModel {
  std::string bytes;  // the ModelProto without the lifted raw_data fields
  // Per initializer name (the first of that name): its TensorProto as find_raw_tensor
  // reads it, raw_offset counted from the start of the original bytes.
  std::map<std::string, RawTensorLayout> lifted;
};

// Lifts the raw_data of every graph initializer that keeps at least `min_bytes` there
// and nothing in typed fields, external data or segments (find_raw_tensor); copies every
// other field as it is. Throws Error(kInvalid) when the bytes are not well-formed wire
// format along that path (the model, its graph, its initializers).
SkimmedModel skim_model(const char* bytes, size_t size, size_t min_bytes);

}  // namespace onnxrun
