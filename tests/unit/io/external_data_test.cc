// External data through the library: an initializer is mapped, not copied, when its
// offset suits its type, copied when not, and read the same either way; a .pb tensor
// file takes external data from its own folder.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>

#include "core/error.h"
#include "io/tensor_file.h"
#include "model/load.h"
#include "support/model_builder.h"
#include "support/paths.h"

using namespace onnxrun;
using namespace onnxrun::test;

namespace {

std::vector<float> values_of(const Tensor& t) {
  std::vector<float> v(static_cast<size_t>(t.numel()));
  std::memcpy(v.data(), t.raw(), t.nbytes());
  return v;
}

}  // namespace

TEST_CASE("external initializers are mapped read-only when aligned and copied when not", "[external-data]") {
  TempDir dir;
  const std::vector<float> values = {-1.5f, 0.f, 2.25f};
  // The floats at offset 4 (aligned) and at offset 17 (not).
  std::string bytes(32, '\x7f');
  bytes.replace(4, 12, float_bytes(values));
  bytes.replace(17, 12, float_bytes(values));
  write_file(dir.file("weights.bin"), bytes);

  for (auto [offset, mapped] : {std::pair{"4", true}, std::pair{"17", false}}) {
    INFO("offset " << offset);
    onnx::ModelProto m = leaky_relu_xy_model();
    onnx::TensorProto* init = m.mutable_graph()->add_initializer();
    *init = float_tensor("X", {3}, {});
    make_external(init, {{"location", "weights.bin"}, {"offset", offset}, {"length", "12"}, {"checksum", "abc"}});
    write_message(dir.file("model.onnx"), m);
    Model model = load_model(dir.file("model.onnx"));
    const Tensor& x = model.graph.initializers.at("X");
    CHECK(values_of(x) == values);
    CHECK(x.buffer()->writable() == !mapped);
  }
}

TEST_CASE("a model given as bytes cannot use external data", "[external-data]") {
  onnx::ModelProto m = leaky_relu_xy_model();
  onnx::TensorProto* init = m.mutable_graph()->add_initializer();
  *init = float_tensor("X", {3}, {});
  make_external(init, {{"location", "weights.bin"}});
  const std::string bytes = m.SerializeAsString();
  try {
    load_model_from_bytes(bytes.data(), bytes.size(), "");
    FAIL("loaded");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::kSecurity);
    CHECK_THAT(e.what(), Catch::Contains("given as bytes"));
  }
}

TEST_CASE("a .pb tensor file reads external data beside it", "[external-data]") {
  TempDir dir;
  std::filesystem::create_directories(dir.file("set"));
  write_file(dir.file("set/x.bin"), float_bytes({1.f, -2.f}));
  onnx::TensorProto t = float_tensor("x", {2}, {});
  make_external(&t, {{"location", "x.bin"}});
  write_message(dir.file("set/x.pb"), t);
  NamedTensor nt = read_tensor_file(dir.file("set/x.pb"));
  CHECK(nt.name == "x");
  CHECK(values_of(nt.tensor) == std::vector<float>{1.f, -2.f});
  CHECK_FALSE(nt.tensor.buffer()->writable());
}

// Found by a report-only pass: bool bytes past 1 were refused in raw_data but taken from
// an external file, then written into .npy files onnx-run itself refuses.
TEST_CASE("a bool tensor's external bytes are 0 or 1, as raw_data's are", "[external-data]") {
  TempDir dir;
  write_file(dir.file("b.bin"), std::string("\x01\x02\x00\x01", 4));
  onnx::TensorProto t;
  t.set_name("b");
  t.set_data_type(onnx::TensorProto::BOOL);
  t.add_dims(4);
  make_external(&t, {{"location", "b.bin"}});
  write_message(dir.file("b.pb"), t);
  try {
    read_tensor_file(dir.file("b.pb"));
    FAIL("read");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::kInvalid);
    CHECK_THAT(e.what(), Catch::Contains("external data 'b.bin': bool element 1 is 2, not 0 or 1"));
  }
  write_file(dir.file("b.bin"), std::string("\x01\x00\x00\x01", 4));
  CHECK(read_tensor_file(dir.file("b.pb")).tensor.data<uint8_t>()[0] == 1);
}
