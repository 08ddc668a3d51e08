// model/skim_model.h: the copy of a ModelProto without its large initializers' raw_data,
// and where that data lies in the original bytes.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "core/error.h"
#include "model/skim_model.h"
#include "onnx/onnx.pb.h"
#include "support/model_builder.h"

using namespace onnxrun;
using namespace onnxrun::test;

namespace {

// x + w -> y, with a large initializer w (n floats, k at index k) and a scalar a.
std::string model_bytes(size_t n) {
  onnx::ModelProto m = leaky_relu_xy_model(16, onnx::TensorProto::FLOAT, {static_cast<int64_t>(n)});
  std::vector<float> values(n);
  for (size_t k = 0; k < n; ++k) values[k] = static_cast<float>(k);
  *m.mutable_graph()->add_initializer() = float_tensor("w", {static_cast<int64_t>(n)}, values);
  *m.mutable_graph()->add_initializer() = float_tensor("a", {}, {0.5f});
  return serialize(m);
}

}  // namespace

TEST_CASE("skim_model lifts a large initializer's raw_data out and says where it lies", "[skim]") {
  const size_t n = 100000;
  const std::string bytes = model_bytes(n);
  const SkimmedModel s = skim_model(bytes.data(), bytes.size(), 64 << 10);
  CHECK(s.bytes.size() < 1000);
  REQUIRE(s.lifted.size() == 1);
  const RawTensorLayout& w = s.lifted.at("w");
  CHECK(w.data_type == onnx::TensorProto::FLOAT);
  CHECK(w.dims == std::vector<int64_t>{static_cast<int64_t>(n)});
  REQUIRE(w.raw_size == n * 4);
  REQUIRE(w.raw_offset + w.raw_size <= bytes.size());
  float last = 0;
  std::memcpy(&last, bytes.data() + w.raw_offset + (n - 1) * 4, 4);
  CHECK(last == static_cast<float>(n - 1));
  // The copy is the same model, less w's data: everything else as it was.
  onnx::ModelProto original, skimmed;
  REQUIRE(original.ParseFromString(bytes));
  REQUIRE(skimmed.ParseFromString(s.bytes));
  REQUIRE(skimmed.graph().initializer_size() == 2);
  CHECK_FALSE(skimmed.graph().initializer(0).has_raw_data());
  CHECK(skimmed.graph().initializer(0).name() == "w");
  CHECK(skimmed.graph().initializer(1).raw_data() == original.graph().initializer(1).raw_data());
  original.mutable_graph()->mutable_initializer(0)->clear_raw_data();
  CHECK(skimmed.SerializeAsString() == original.SerializeAsString());
}

TEST_CASE("skim_model copies small initializers and non-wire bytes are refused", "[skim]") {
  const std::string bytes = model_bytes(100);
  const SkimmedModel s = skim_model(bytes.data(), bytes.size(), 64 << 10);
  CHECK(s.lifted.empty());
  CHECK(s.bytes == bytes);
  CHECK_THROWS_AS(skim_model(bytes.data(), bytes.size() - 3, 64 << 10), Error);
  const std::string junk = "\x3a\xff\xff\xff\xff\x0f";  // graph, with a length past the end
  CHECK_THROWS_AS(skim_model(junk.data(), junk.size(), 0), Error);
}
