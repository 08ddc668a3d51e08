#include "support/load.h"

#include <catch2/catch.hpp>

namespace onnxrun::test {

Model load(const std::string& bytes) { return load_model_from_bytes(bytes.data(), bytes.size(), "."); }

Model load(const onnx::ModelProto& m) { return load(m.SerializeAsString()); }

Error load_error(const onnx::ModelProto& m) {
  try {
    load(m);
  } catch (const Error& e) {
    return e;
  }
  FAIL("the model loaded");
  return Error(ErrorKind::kInternal, "unreachable");
}

}  // namespace onnxrun::test
