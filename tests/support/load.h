// Loading a model built in a test (support/model_builder.h) the way onnx-run loads a
// file's bytes (model/load.h), with "." as the model's folder.
#pragma once

#include <string>

#include "core/error.h"
#include "model/load.h"
#include "onnx/onnx.pb.h"

namespace onnxrun::test {

Model load(const onnx::ModelProto& m);
Model load(const std::string& bytes);

// The Error that loading `m` throws (kind, message and causes); a test that gets here
// with a model that loads fails (Catch2 FAIL) and returns an internal error.
Error load_error(const onnx::ModelProto& m);

}  // namespace onnxrun::test
