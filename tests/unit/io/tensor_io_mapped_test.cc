// Reading tensor files by mapping them: the wire-format scan that finds raw_data, views
// into the mapping versus copies, the fallback to protobuf for typed fields, malformed
// bytes, and the streamed writer.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/error.h"
#include "io/tensor_file.h"
#include "io/tensor_wire.h"
#include "onnx/onnx.pb.h"
#include "support/paths.h"

using namespace onnxrun;
using namespace onnxrun::test;

namespace {

void write_string(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

std::string float_proto(const std::string& name, std::vector<float> values, bool raw) {
  onnx::TensorProto p;
  p.set_name(name);
  p.set_data_type(onnx::TensorProto::FLOAT);
  p.add_dims(static_cast<int64_t>(values.size()));
  if (raw) p.set_raw_data(std::string(reinterpret_cast<const char*>(values.data()), values.size() * 4));
  else
    for (float v : values) p.add_float_data(v);
  return p.SerializeAsString();
}

}  // namespace

TEST_CASE("find_raw_tensor locates raw_data, dims and name in any field order", "[io][mapped]") {
  onnx::TensorProto p;
  p.set_raw_data(std::string("\x01\x02\x03\x04\x05\x06\x07\x08", 8));
  p.add_dims(2);
  p.add_dims(1);
  p.set_data_type(onnx::TensorProto::FLOAT);
  p.set_name("later");
  p.set_doc_string("ignored");
  const std::string bytes = p.SerializeAsString();
  auto raw = find_raw_tensor(bytes.data(), bytes.size());
  REQUIRE(raw);
  CHECK(raw->name == "later");
  CHECK(raw->data_type == 1);
  CHECK(raw->dims == std::vector<int64_t>{2, 1});
  CHECK(raw->raw_size == 8);
  CHECK(std::memcmp(bytes.data() + raw->raw_offset, "\x01\x02\x03\x04\x05\x06\x07\x08", 8) == 0);
}

TEST_CASE("find_raw_tensor leaves typed fields and external data to protobuf", "[io][mapped]") {
  const std::string typed = float_proto("x", {1, 2}, false);
  CHECK_FALSE(find_raw_tensor(typed.data(), typed.size()));
  onnx::TensorProto ext;
  ext.set_data_type(1);
  ext.set_raw_data("abcd");
  ext.set_data_location(onnx::TensorProto::EXTERNAL);
  const std::string e = ext.SerializeAsString();
  CHECK_FALSE(find_raw_tensor(e.data(), e.size()));
}

TEST_CASE("find_raw_tensor refuses truncated and overlong messages", "[io][mapped]") {
  const std::string good = float_proto("x", {1, 2, 3}, true);
  for (size_t cut = 1; cut < good.size(); ++cut) {
    INFO("cut at " << cut);
    // Every prefix either ends between fields (a valid shorter message) or throws.
    try {
      (void)find_raw_tensor(good.data(), cut);
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::kInvalid);
      CHECK_THAT(e.what(), Catch::Contains("not a valid TensorProto"));
    }
  }
  const std::string past_end = std::string("\x4a\x10", 2) + "abc";  // raw_data of 16 bytes, 3 present
  CHECK_THROWS_AS(find_raw_tensor(past_end.data(), past_end.size()), Error);
  const std::string bad_wire = "\x0b";  // field 1, wire type 3 (group)
  CHECK_THROWS_AS(find_raw_tensor(bad_wire.data(), bad_wire.size()), Error);
}

TEST_CASE("read_tensor_file maps aligned raw_data in place and copies misaligned data", "[io][mapped]") {
  TempDir tmp;
  std::vector<float> values(1000);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i) - 500.5f;
  // Name lengths move raw_data's offset through every residue mod 4.
  for (const std::string name : {"x", "xy", "xyz", "wxyz"}) {
    INFO("name " << name);
    const std::string path = tmp.file(name + ".pb");
    const std::string bytes = float_proto(name, values, true);
    write_string(path, bytes);
    NamedTensor t = read_tensor_file(path);
    CHECK(t.name == name);
    REQUIRE(t.tensor.shape() == Shape{1000});
    REQUIRE(std::memcmp(t.tensor.raw(), values.data(), 4000) == 0);
    const size_t offset = bytes.size() - 4000;                  // raw_data is last
    CHECK(t.tensor.buffer()->writable() == (offset % 4 != 0));  // a view of the mapping is read-only
    if (offset % 4 == 0) CHECK_FALSE(t.tensor.can_overwrite());
  }
}

TEST_CASE("read_tensor_file still reads typed fields and names bad files", "[io][mapped]") {
  TempDir tmp;
  write_string(tmp.file("typed.pb"), float_proto("t", {1.5f, -2.0f}, false));
  NamedTensor t = read_tensor_file(tmp.file("typed.pb"));
  CHECK(t.tensor.data<float>()[1] == -2.0f);
  write_string(tmp.file("short.pb"), float_proto("s", {1, 2, 3}, true).substr(0, 12));
  try {
    read_tensor_file(tmp.file("short.pb"));
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::kInvalid);
    CHECK_THAT(e.what(), Catch::Contains("short.pb"));
  }
  onnx::TensorProto wrong;
  wrong.set_data_type(1);
  wrong.add_dims(3);
  wrong.set_raw_data("abcd");
  write_string(tmp.file("size.pb"), wrong.SerializeAsString());
  CHECK_THROWS_WITH(read_tensor_file(tmp.file("size.pb")), Catch::Contains("raw_data holds 4 bytes"));
  CHECK_THROWS_AS(read_tensor_file(tmp.path()), Error);  // a folder
}

// DESIGN.md "Reads:": nothing bounds what a FIFO or device sends, and opening a FIFO
// would wait for a writer: refused at once, naming the file (issue 32).
TEST_CASE("a tensor file that is a FIFO or a device is refused without waiting", "[io][mapped]") {
  TempDir tmp;
  const std::string fifo = tmp.file("fifo");
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);  // no writer: an open that blocked would hang here
  CHECK_THROWS_WITH(read_tensor_file(fifo), Catch::Contains(fifo) && Catch::Contains("not a regular file (a FIFO)"));
  CHECK_THROWS_WITH(read_tensor_file("/dev/zero"), Catch::Contains("not a regular file (a character device)"));
}
