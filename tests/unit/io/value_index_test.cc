// Dumped values found by name before their data is read (io/value_index.h), and
// Polygraphy's saved results read without Polygraphy (io/polygraphy_results.h).
#include <catch2/catch.hpp>

#include "core/error.h"
#include "io/npy.h"
#include "io/npz.h"
#include "io/polygraphy_results.h"
#include "io/streamed_tensor_file.h"
#include "io/tensor_file.h"
#include "io/value_index.h"
#include "support/model_builder.h"
#include "support/paths.h"
#include "support/shortcuts.h"
#include "support/tensor_bytes.h"
#include "support/tensors.h"

using namespace onnxrun;
using namespace onnxrun::test;

namespace {

std::string base64(const std::string& in) {
  static const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (size_t k = 0; k < in.size(); k += 3) {
    uint32_t n = static_cast<uint8_t>(in[k]) << 16;
    if (k + 1 < in.size()) n |= static_cast<uint8_t>(in[k + 1]) << 8;
    if (k + 2 < in.size()) n |= static_cast<uint8_t>(in[k + 2]);
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += k + 1 < in.size() ? kAlphabet[(n >> 6) & 63] : '=';
    out += k + 2 < in.size() ? kAlphabet[n & 63] : '=';
  }
  return out;
}

// An ARRAY as polygraphy/json/serde.py writes it, inside a lazy array.
std::string polygraphy_array(const Tensor& t) {
  return R"({"values": {"array": ")" + base64(npy_bytes(t)) +
         R"(", "polygraphy_class": "ndarray"}, "polygraphy_class": "LazyNumpyArray"})";
}

}  // namespace

TEST_CASE("base64 as RFC 4648 writes it, and nothing else", "[value-index]") {
  std::string out;
  for (const std::string& s : std::vector<std::string>{"", "a", "ab", "abc", "abcd", std::string("\0\xff\x10", 3)}) {
    REQUIRE(decode_base64(base64(s), out));
    CHECK(out == s);
  }
  CHECK_FALSE(decode_base64("abc", out));     // not a multiple of 4
  CHECK_FALSE(decode_base64("a=bc", out));    // padding inside
  CHECK_FALSE(decode_base64("ab\ncd", out));  // whitespace
  CHECK_FALSE(decode_base64("ab*d", out));
}

TEST_CASE("Polygraphy's RunResults: the first runner's first iteration", "[value-index]") {
  const Tensor y = float_tensor({-1.5f, 0.f, 2.f});
  const std::string json =
      R"({"lst": [["onnxrt-runner-N0", [{"outputs": {"y": )" + polygraphy_array(y) +
      R"(}, "runtime": 0.1, "runner_name": "onnxrt-runner-N0", "polygraphy_class": "IterationResult"}]],
      ["trt-runner-N0", [{"outputs": {}, "runtime": 0.1, "runner_name": "trt"}]]], "polygraphy_class": "RunResults"})";
  const PolygraphyResults r = parse_polygraphy_results(json, "out.json");
  CHECK(r.runner == "onnxrt-runner-N0");
  CHECK(r.other_runners == std::vector<std::string>{"trt-runner-N0"});
  REQUIRE(r.values.size() == 1);
  CHECK(r.values[0].name == "y");
  const Tensor back = decode_polygraphy_array(*r.values[0].encoded, "out.json:y");
  CHECK(values_of<float>(back) == std::vector<float>{-1.5f, 0.f, 2.f});

  // --save-inputs: a list of feed dicts.
  const PolygraphyResults in = parse_polygraphy_results("[{\"x\": " + polygraphy_array(y) + "}]", "in.json");
  REQUIRE(in.values.size() == 1);
  CHECK(in.values[0].name == "x");

  CHECK_THROWS_AS(parse_polygraphy_results("{\"a\": 1}", "x.json"), Error);
  CHECK_THROWS_AS(parse_polygraphy_results("not json", "x.json"), Error);
  CHECK_THROWS_AS(parse_polygraphy_results(R"({"lst": [["r", [{"outputs": {"y": 3}}]]]})", "x.json"), Error);
  // "y" twice in one object: the parser kept the last, and the other was never looked at.
  const std::string twice =
      R"({"lst": [["r", [{"outputs": {"y": )" + polygraphy_array(y) + ", \"y\": " + polygraphy_array(y) + "}}]]]}";
  CHECK_THROWS_WITH(parse_polygraphy_results(twice, "out.json"), "out.json: an object holds 'y' twice");
  // The same name in two objects is no repeat.
  CHECK(parse_polygraphy_results("[{\"y\": " + polygraphy_array(y) + "}, {\"y\": " + polygraphy_array(y) + "}]",
                                 "in.json")
            .values.size() == 1);
}

TEST_CASE("values found by name, by --dump-intermediates' and by onnxruntime's file names", "[value-index]") {
  TempDir d;
  write_tensor_file(d.file("named.pb"), float_tensor({1}), "conv/out:0");  // its TensorProto names it
  write_npy_file(d.file("act.1.npy"), float_tensor({2}));                  // its file names it
  write_tensor_file(d.file("block_relu_0.tensorproto"), float_tensor({3}), "block/relu:0");
  write_tensor_file(d.file("unnamed.pb"), float_tensor({4}), "");
  TempDir z;
  write_npz_file(z.file("v.npz"), {{"act.1", float_tensor({9})}, {"z", float_tensor({5})}});

  ValueIndex index;
  index.add(d.path());
  index.add(z.file("v.npz"));
  CHECK(index.size() == 5);  // the .npz's act.1 is the folder's: the first source wins
  REQUIRE(index.find("conv/out:0"));
  CHECK(values_of<float>(index.find("conv/out:0")->load()) == std::vector<float>{1});
  REQUIRE(index.find("act.1"));
  CHECK(index.find("act.1")->numpy);
  CHECK(values_of<float>(index.find("act.1")->load()) == std::vector<float>{2});
  REQUIRE(index.find("block/relu:0"));
  CHECK(index.find("block/relu:0")->file == d.file("block_relu_0.tensorproto"));
  REQUIRE(index.find("unnamed"));
  REQUIRE(index.find("z"));
  CHECK(index.find("z")->file == z.file("v.npz") + ":z");
  CHECK(values_of<float>(index.find("z")->load()) == std::vector<float>{5});
  // A name sanitised as --dump-intermediates does finds the file of that name.
  CHECK(index.find("act/1") == nullptr);
  CHECK(index.find("missing") == nullptr);

  CHECK(onnxruntime_dump_name("a/b.c:0") == "a_b_c_0");
  CHECK_THROWS_AS(index.add(d.file("nope")), Error);
}

TEST_CASE("a damaged tensor file is refused when indexed, one of a type read nowhere when read", "[value-index]") {
  // Indexing reads each file's header as `compare` does (io/result_files.h): what its
  // data cannot be is known before any node asks for it. A type onnx-run reads nowhere
  // (a string) is a value no node can use, not a damaged file: it fails the node that
  // reads it, not the whole verify.
  TempDir d;
  onnx::TensorProto short_data;
  short_data.set_name("y");
  short_data.set_data_type(onnx::TensorProto::FLOAT);
  short_data.add_dims(3);
  short_data.set_raw_data(std::string(8, '\0'));  // 3 floats need 12 bytes
  write_file(d.file("y.pb"), short_data.SerializeAsString());
  ValueIndex index;
  try {
    index.add(d.file("y.pb"));
    FAIL("a .pb whose raw_data is short was indexed");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::kInvalid);
    CHECK_THAT(e.what(), Catch::Contains(d.file("y.pb")) && Catch::Contains("raw_data holds 8 bytes"));
  }
  onnx::TensorProto strings;
  strings.set_name("s");
  strings.set_data_type(onnx::TensorProto::STRING);
  strings.add_dims(1);
  strings.add_string_data("a");
  write_file(d.file("s.pb"), strings.SerializeAsString());
  index.add(d.file("s.pb"));
  const ResultTensor* s = index.find("s");
  REQUIRE(s != nullptr);
  try {
    s->load();
    FAIL("a string tensor was read");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::kUnsupported);
    CHECK_THAT(e.what(), Catch::Contains(d.file("s.pb")));
  }
  CHECK(index.size() == 1);  // s, not the damaged y
}

TEST_CASE("a file that records its value's name stands for that value alone", "[value-index]") {
  // t_1.pb says 't_1': it is not the never-dumped 't/1', whose --dump-intermediates file
  // name it has; y.pb says 'z': it is z, not y. An .npy and a .pb without a name record
  // none, so their file names find them.
  TempDir d;
  write_tensor_file(d.file("t_1.pb"), float_tensor({1}), "t_1");
  write_tensor_file(d.file("y.pb"), float_tensor({2}), "z");
  write_npy_file(d.file("u_2.npy"), float_tensor({3}));
  write_tensor_file(d.file("w_3.pb"), float_tensor({4}), "");
  ValueIndex index;
  index.add(d.path());
  CHECK(index.find("t/1") == nullptr);  // it borrowed t_1's value
  REQUIRE(index.find("t_1"));
  CHECK(index.find("y") == nullptr);  // it took z's
  REQUIRE(index.find("z"));
  CHECK(index.find("z")->file == d.file("y.pb"));
  REQUIRE(index.find("u/2"));
  CHECK(index.find("u/2")->file == d.file("u_2.npy"));
  REQUIRE(index.find("w/3"));
  CHECK(index.find("w/3")->file == d.file("w_3.pb"));

  // In a values.tsv folder every file's name is listed: an .npy listed as 't_1' is t_1.
  TempDir listed;
  write_npy_file(listed.file("t_1.npy"), float_tensor({5}));
  write_file(listed.file("values.tsv"), "t_1.npy\tt_1\n");
  ValueIndex from_listed;
  from_listed.add(listed.path());
  CHECK(from_listed.find("t_1"));
  CHECK(from_listed.find("t/1") == nullptr);
}

TEST_CASE("a file name that two of the model's values share stands for neither", "[value-index]") {
  // t/1 and t:1 both have the file name t_1: t_1.npy can be the dump of one of them at
  // most, and which one cannot be told (both nodes were checked against it).
  TempDir d;
  write_npy_file(d.file("t_1.npy"), float_tensor({1}));
  ValueIndex index;
  index.add(d.path());
  ModelValueNames both, one;
  for (const char* name : {"x", "t/1", "t:1"}) both.insert(name);
  for (const char* name : {"x", "t/1"}) one.insert(name);
  CHECK(index.find("t/1", both) == nullptr);
  CHECK(index.find("t:1", both) == nullptr);
  REQUIRE(index.find("t/1", one));
  CHECK(index.find("t/1", one)->file == d.file("t_1.npy"));
}

TEST_CASE("values.tsv: a file it does not list is found by its file name, one it lists twice is refused",
          "[value-index]") {
  TempDir d;
  write_npy_file(d.file("a.npy"), float_tensor({1}));
  write_npy_file(d.file("in_put.npy"), float_tensor({2}));  // dropped in beside the dump
  write_file(d.file("values.tsv"), "a.npy\ta\n");
  ValueIndex index;
  index.add(d.path());
  REQUIRE(index.find("in put"));  // it was found in a folder without values.tsv only
  CHECK(index.find("in put")->file == d.file("in_put.npy"));
  write_file(d.file("values.tsv"), "a.npy\ta\na.npy\tb\n");
  ValueIndex twice;
  try {
    twice.add(d.path());
    FAIL("a values.tsv listing a.npy for two values was read");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::kInvalid);
    CHECK_THAT(e.what(), Catch::Contains("values.tsv: lists a.npy for two values"));
  }
}

TEST_CASE("a folder holding one value twice is refused, naming both files", "[value-index]") {
  // Which of the two the runtime meant cannot be told; it picked one silently (an .npz
  // holding a name twice is refused alike).
  TempDir pb_npy, two_pb;
  write_tensor_file(pb_npy.file("y.pb"), float_tensor({7}), "y");
  write_npy_file(pb_npy.file("y.npy"), float_tensor({-0.5f}));
  write_tensor_file(two_pb.file("a.pb"), float_tensor({-0.5f}), "y");
  write_tensor_file(two_pb.file("b.pb"), float_tensor({7}), "y");
  for (const TempDir* d : {&pb_npy, &two_pb}) {
    ValueIndex index;
    try {
      index.add(d->path());
      FAIL("a folder holding 'y' twice was indexed");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::kInvalid);
      const bool npy = d == &pb_npy;
      CHECK_THAT(e.what(), Catch::Contains(d->path() + ": holds 'y' twice: ") &&
                               Catch::Contains(d->file(npy ? "y.pb" : "a.pb")) &&
                               Catch::Contains(d->file(npy ? "y.npy" : "b.pb")));
    }
  }
}
