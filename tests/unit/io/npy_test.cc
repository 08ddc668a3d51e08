// .npy and .npz: bytes exactly as numpy writes them, every type round-tripped through
// Debian's python3-numpy (tests/python/npy_roundtrip.py), and malformed files refused.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/element.h"
#include "core/error.h"
#include "core/half.h"
#include "io/input_file.h"
#include "io/npy.h"
#include "io/npz.h"
#include "io/streamed_tensor_file.h"
#include "io/tensor_stream.h"
#include "support/check_exit.h"
#include "support/paths.h"
#include "support/process.h"
#include "support/shortcuts.h"
#include "support/tensor_bytes.h"

using namespace onnxrun;
using onnxrun::test::TempDir;

namespace {

const char* kPython = "/usr/bin/python3";
std::string script() { return std::string(ONNXRUN_SOURCE_DIR) + "/tests/python/npy_roundtrip.py"; }

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

struct TypeCase {
  DType dtype;
  const char* numpy_name;
};
const TypeCase kCases[] = {
    {DType::kFloat16, "float16"},     {DType::kFloat, "float32"},         {DType::kDouble, "float64"},
    {DType::kInt8, "int8"},           {DType::kInt16, "int16"},           {DType::kInt32, "int32"},
    {DType::kInt64, "int64"},         {DType::kUInt8, "uint8"},           {DType::kUInt16, "uint16"},
    {DType::kUInt32, "uint32"},       {DType::kUInt64, "uint64"},         {DType::kBool, "bool"},
    {DType::kComplex64, "complex64"}, {DType::kComplex128, "complex128"},
};

// The values npy_roundtrip.py's pattern() gives element k.
template <typename T>
void put(Tensor& t, int64_t k, T v) {
  std::memcpy(static_cast<char*>(t.mutable_raw()) + k * sizeof(T), &v, sizeof(T));
}
Tensor pattern(DType type, const Shape& shape) {
  Tensor t(type, shape);
  for (int64_t k = 0; k < t.numel(); ++k) {
    const int64_t u = (k * 37) % 23;
    const int64_t v = u - 11;
    const double f = static_cast<double>(v) * 0.25;
    switch (type) {
      case DType::kFloat16: put<uint16_t>(t, k, double_to_float16(f)); break;
      case DType::kBFloat16: put<uint16_t>(t, k, double_to_bfloat16(f)); break;
      case DType::kFloat: put<float>(t, k, static_cast<float>(f)); break;
      case DType::kDouble: put<double>(t, k, f); break;
      case DType::kInt8: put<int8_t>(t, k, static_cast<int8_t>(v)); break;
      case DType::kInt16: put<int16_t>(t, k, static_cast<int16_t>(v)); break;
      case DType::kInt32: put<int32_t>(t, k, static_cast<int32_t>(v)); break;
      case DType::kInt64: put<int64_t>(t, k, v); break;
      case DType::kUInt8: put<uint8_t>(t, k, static_cast<uint8_t>(u)); break;
      case DType::kUInt16: put<uint16_t>(t, k, static_cast<uint16_t>(u)); break;
      case DType::kUInt32: put<uint32_t>(t, k, static_cast<uint32_t>(u)); break;
      case DType::kUInt64: put<uint64_t>(t, k, static_cast<uint64_t>(u)); break;
      case DType::kBool: put<uint8_t>(t, k, k % 3 == 0); break;
      case DType::kComplex64:
        put<float>(t, 2 * k, static_cast<float>(f)),
            put<float>(t, 2 * k + 1, static_cast<float>(static_cast<double>(v + 1) * 0.5));
        break;
      case DType::kComplex128:
        put<double>(t, 2 * k, f), put<double>(t, 2 * k + 1, static_cast<double>(v + 1) * 0.5);
        break;
      default: FAIL("no pattern for this type");
    }
  }
  return t;
}

bool same(const Tensor& a, const Tensor& b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() && std::memcmp(a.raw(), b.raw(), a.nbytes()) == 0;
}

}  // namespace

TEST_CASE("npy header is numpy's, byte for byte", "[npy]") {
  Tensor t(DType::kFloat, {2, 3, 4});
  const std::string h = npy_header(t);
  CHECK(h.size() == 128);
  CHECK(h.substr(0, 8) == std::string("\x93NUMPY\x01\x00", 8));
  CHECK(h.substr(10, 62) == "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 4), }");
  CHECK(h.back() == '\n');
  CHECK(npy_header(Tensor(DType::kBool, {})).find("'descr': '|b1', 'fortran_order': False, 'shape': (), }") !=
        std::string::npos);
  CHECK(npy_header(Tensor(DType::kUInt8, {5})).find("'shape': (5,), }") != std::string::npos);
}

TEST_CASE("npy round-trips every type in memory, and bfloat16 as <u2 bits", "[npy]") {
  for (const TypeCase& c : kCases) {
    INFO(c.numpy_name);
    const Tensor t = pattern(c.dtype, {2, 3, 4});
    CHECK(same(parse_npy(npy_bytes(t), "mem"), t));
  }
  const Tensor bf = pattern(DType::kBFloat16, {3});
  const Tensor back = parse_npy(npy_bytes(bf), "mem");
  CHECK(back.dtype() == DType::kUInt16);
  CHECK(npy_header(bf).find("'<u2'") != std::string::npos);
  const Tensor retyped = bfloat16_from_bits(back, DType::kBFloat16);
  CHECK(same(retyped, bf));
  CHECK(bfloat16_from_bits(back, DType::kUInt16).dtype() == DType::kUInt16);
  CHECK(bfloat16_from_bits(back, std::nullopt).dtype() == DType::kUInt16);
}

TEST_CASE("numpy's bfloat16 bits are typed once, by the readers, as the value is declared", "[npy]") {
  onnxrun::test::TempDir dir;
  const Tensor bf = pattern(DType::kBFloat16, {3});
  const Tensor u16 = pattern(DType::kUInt16, {2});
  const std::string npy = dir.file("x.npy"), npz = dir.file("in.npz");
  write_npy_file(npy, bf);
  write_npz_file(npz, {{"a", bf}, {"b", u16}});
  CHECK(same(read_input_file(npy, DType::kBFloat16).tensor, bf));
  CHECK(read_input_file(npy).tensor.dtype() == DType::kUInt16);
  CHECK(read_input_file(npy, DType::kUInt16).tensor.dtype() == DType::kUInt16);
  const DeclaredType declared = [](const std::string& name) -> std::optional<DType> {
    if (name == "a" || name == "b") return name == "a" ? DType::kBFloat16 : DType::kUInt16;
    return std::nullopt;
  };
  const std::vector<NamedArray> arrays = read_npz_file(npz, declared);
  REQUIRE(arrays.size() == 2);
  CHECK(same(arrays[0].tensor, bf));
  CHECK(same(arrays[1].tensor, u16));
  CHECK(read_npz_file(npz)[0].tensor.dtype() == DType::kUInt16);
  // The block-by-block readers type their streams alike.
  const TensorStream s = open_tensor_stream(npy, DType::kBFloat16);
  CHECK(s.dtype == DType::kBFloat16);
  const std::vector<TensorStream> members = open_npz_streams(npz, declared);
  REQUIRE(members.size() == 2);
  CHECK(members[0].dtype == DType::kBFloat16);
  CHECK(members[1].dtype == DType::kUInt16);
}

TEST_CASE("malformed .npy files are refused with a clear error", "[npy]") {
  const std::string good = npy_bytes(pattern(DType::kFloat, {2, 2}));
  auto kind_of = [](const std::string& bytes) {
    try {
      parse_npy(bytes, "bad.npy");
    } catch (const Error& e) {
      return e.kind();
    }
    return ErrorKind::kInternal;
  };
  CHECK(kind_of("") == ErrorKind::kInvalid);
  CHECK(kind_of("\x93NUMPZ\x01\x00") == ErrorKind::kInvalid);
  CHECK(kind_of(good.substr(0, good.size() - 1)) == ErrorKind::kInvalid);  // short data
  CHECK(kind_of(good + "x") == ErrorKind::kInvalid);                       // trailing data
  std::string v9 = good;
  v9[6] = 9;
  CHECK(kind_of(v9) == ErrorKind::kUnsupported);
  std::string huge = good;
  huge.replace(huge.find("(2, 2)"), 6, "(9999999999, 9999999999)");
  CHECK_THROWS_AS(parse_npy(huge, "x"), Error);
  std::string obj = good;
  obj.replace(obj.find("'<f4'"), 5, "'|O8'");
  CHECK(kind_of(obj) == ErrorKind::kUnsupported);
  std::string fortran = good;
  fortran.replace(fortran.find("False"), 5, "True ");
  CHECK(kind_of(fortran) == ErrorKind::kUnsupported);
  try {
    parse_npy(fortran, "f.npy");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("Fortran order") != std::string::npos);
  }
  std::string unterminated = good;
  unterminated.replace(unterminated.find("'<f4'"), 5, "'<f4 ");
  CHECK(kind_of(unterminated) == ErrorKind::kInvalid);
}

TEST_CASE(".npy messages say what is wrong, with the file's text made printable", "[npy]") {
  const std::string good = npy_bytes(pattern(DType::kFloat, {2, 2}));
  auto message_of = [](const std::string& bytes) {
    try {
      parse_npy(bytes, "bad.npy");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(read)");
  };
  CHECK(message_of(good + "xxxx") == "bad.npy: holds 20 bytes of data, the header promises 16");
  CHECK(message_of(good.substr(0, good.size() - 2)) == "bad.npy: holds 14 bytes of data, the header promises 16");
  // numpy reads a type without a byte-order character as native (little-endian here).
  std::string native = good;
  native.replace(native.find("'<f4'"), 5, "'f4' ");
  CHECK(message_of(native) == "(read)");
  CHECK(parse_npy(native, "n.npy").data<float>()[3] == pattern(DType::kFloat, {2, 2}).data<float>()[3]);
  // A NUL or an escape sequence in the header is shown, not sent: the message is whole.
  std::string nul = good;
  nul.replace(nul.find("'<f4'"), 5, std::string("'<\0f'", 5));
  CHECK_THAT(message_of(nul), Catch::Contains("numpy type '<\\x00f' is not supported"));
  std::string esc = good;
  esc.replace(esc.find("'<f4'"), 5, "'\x1b[m'");
  CHECK_THAT(message_of(esc), Catch::Contains("'\\x1b[m'") && !Catch::Contains("\x1b"));
}

TEST_CASE("npz: write, read back, damage is detected", "[npy]") {
  std::vector<NamedArray> arrays{{"x", pattern(DType::kFloat, {2, 3})}, {"y/z", pattern(DType::kInt64, {4})}};
  const std::string zip = npz_bytes(arrays);
  const auto back = parse_npz(zip, "mem.npz");
  REQUIRE(back.size() == 2);
  CHECK(back[0].name == "x");
  CHECK(back[1].name == "y/z");
  CHECK(same(back[0].tensor, arrays[0].tensor));
  CHECK(same(back[1].tensor, arrays[1].tensor));
  CHECK(npz_bytes(arrays) == zip);  // deterministic
  std::string damaged = zip;
  damaged[100] ^= 1;  // inside the first entry's data
  CHECK_THROWS_AS(parse_npz(damaged, "d.npz"), Error);
  CHECK_THROWS_AS(parse_npz(zip.substr(0, zip.size() - 3), "t.npz"), Error);
  CHECK_THROWS_AS(parse_npz("PK\x05\x06", "s.npz"), Error);
}

// General-purpose flag bit 11 (the name is UTF-8) where a member's name is not ASCII, as
// Python's zipfile sets it: in its local header and its central directory entry alike.
TEST_CASE("npz: a member named outside ASCII is flagged UTF-8, an ASCII one is not", "[npy]") {
  const std::vector<NamedArray> arrays{{"x", pattern(DType::kFloat, {2})}, {"yé", pattern(DType::kFloat, {2})}};
  const std::string zip = npz_bytes(arrays);
  auto flags_after = [&](const std::string& signature, size_t offset) {
    std::vector<int> flags;
    for (size_t at = zip.find(signature); at != std::string::npos; at = zip.find(signature, at + 1))
      flags.push_back(static_cast<unsigned char>(zip[at + offset]) | static_cast<unsigned char>(zip[at + offset + 1])
                                                                         << 8);
    return flags;
  };
  CHECK(flags_after(std::string("PK\x03\x04", 4), 6) == std::vector<int>{0, 0x0800});
  CHECK(flags_after(std::string("PK\x01\x02", 4), 8) == std::vector<int>{0, 0x0800});
  const auto back = parse_npz(zip, "mem.npz");
  REQUIRE(back.size() == 2);
  CHECK(back[1].name == "yé");
}

TEST_CASE("every type round-trips through numpy, byte for byte", "[npy][python]") {
  if (!std::filesystem::exists(kPython)) FAIL("needs Debian's python3-numpy at /usr/bin/python3");
  TempDir dir;
  const std::string from_numpy = dir.file("numpy"), ours = dir.file("ours"), resaved = dir.file("resaved");
  auto made = onnxrun::test::run_process({kPython, script(), "make", from_numpy});
  REQUIRE_EXIT(made, 0);

  // numpy -> onnx-run: every type, little and big endian, header versions 1.0 and 2.0.
  std::filesystem::create_directories(ours);
  std::vector<NamedArray> all;
  for (const TypeCase& c : kCases) {
    INFO(c.numpy_name);
    const Tensor expected = pattern(c.dtype, {2, 3, 4});
    const std::string base = from_numpy + "/" + c.numpy_name;
    CHECK(same(read_npy_file(base + ".npy"), expected));
    CHECK(same(read_npy_file(base + "_be.npy"), expected));
    CHECK(same(read_npy_file(base + "_v2.npy"), expected));
    CHECK(same(read_input_file(base + ".npy").tensor, expected));
    write_npy_file(ours + "/" + c.numpy_name + ".npy", expected);
    all.push_back({c.numpy_name, expected});
  }
  for (const char* npz : {"all.npz", "all_compressed.npz"}) {
    INFO(npz);
    const auto arrays = read_npz_file(from_numpy + "/" + npz);
    REQUIRE(arrays.size() == all.size());
    for (size_t k = 0; k < all.size(); ++k) {
      CHECK(arrays[k].name == all[k].name);
      CHECK(same(arrays[k].tensor, all[k].tensor));
    }
  }
  const Tensor scalar = read_npy_file(from_numpy + "/scalar.npy");
  CHECK(scalar.shape().empty());
  CHECK(element_as_double(scalar, 0) == -2.5);
  CHECK(read_npy_file(from_numpy + "/empty.npy").shape() == Shape{0, 3});
  CHECK_THROWS_WITH(read_npy_file(from_numpy + "/fortran.npy"), Catch::Contains("Fortran order"));
  CHECK_THROWS_WITH(read_npy_file(from_numpy + "/structured.npy"), Catch::Contains("structured"));

  // onnx-run -> numpy: numpy loads our files and saves them again; the bytes are the same.
  write_npy_file(ours + "/scalar.npy", scalar);
  write_npy_file(ours + "/empty.npy", Tensor(DType::kInt32, {0, 3}));
  write_npy_file(ours + "/bfloat16.npy", pattern(DType::kBFloat16, {2, 3, 4}));
  write_npz_file(ours + "/all.npz", all);
  auto re = onnxrun::test::run_process({kPython, script(), "resave", ours, resaved});
  REQUIRE_EXIT(re, 0);
  CHECK(re.out.find("all.npz float16:<f2:[2, 3, 4] float32:<f4:[2, 3, 4]") == 0);
  for (const auto& entry : std::filesystem::directory_iterator(ours)) {
    if (entry.path().extension() != ".npy") continue;
    INFO(entry.path().filename().string());
    CHECK(slurp(entry.path().string()) == slurp(resaved + "/" + entry.path().filename().string()));
  }
  const auto again = read_npz_file(resaved + "/all.npz");  // numpy's zip64 flavour of .npz
  REQUIRE(again.size() == all.size());
  for (size_t k = 0; k < all.size(); ++k) CHECK(same(again[k].tensor, all[k].tensor));
  CHECK(same(bfloat16_from_bits(read_npy_file(resaved + "/bfloat16.npy"), DType::kBFloat16),
             pattern(DType::kBFloat16, {2, 3, 4})));
}
