#include "io/npy.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"
#include "core/fail.h"
#include "io/tensor_proto.h"

namespace onnxrun {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;
constexpr size_t kAlign = 64;                // numpy's ARRAY_ALIGN
constexpr size_t kGrowthAxisMaxDigits = 21;  // numpy's GROWTH_AXIS_MAX_DIGITS

// numpy's type string (without byte order) for each DType it can hold.
struct NpyType {
  DType dtype;
  char kind;  // numpy's dtype.kind
  int size;
};
constexpr NpyType kTypes[] = {
    {DType::kFloat16, 'f', 2},   {DType::kFloat, 'f', 4},       {DType::kDouble, 'f', 8}, {DType::kInt8, 'i', 1},
    {DType::kInt16, 'i', 2},     {DType::kInt32, 'i', 4},       {DType::kInt64, 'i', 8},  {DType::kUInt8, 'u', 1},
    {DType::kUInt16, 'u', 2},    {DType::kUInt32, 'u', 4},      {DType::kUInt64, 'u', 8}, {DType::kBool, 'b', 1},
    {DType::kComplex64, 'c', 8}, {DType::kComplex128, 'c', 16},
};

std::string descr_for(DType t) {
  if (t == DType::kBFloat16) return "<u2";  // numpy has no bfloat16: raw bits (see npy.h)
  for (const NpyType& n : kTypes)
    if (n.dtype == t) return fmt::format("{}{}{}", n.size == 1 ? '|' : '<', n.kind, n.size);
  fail(ErrorKind::kUnsupported, "{} tensors cannot be stored in a .npy file", dtype_name(t));
}

// The subset of Python literal syntax numpy headers use: a dict of str keys whose
// values are str, True/False/None, ints and tuples/lists of those.
struct PyValue {
  enum Kind { kStr, kBool, kNone, kInt, kSeq, kDict } kind = kNone;
  std::string s;
  bool b = false;
  int64_t i = 0;
  std::vector<PyValue> items;
  // Not std::pair<std::string, PyValue>: pair's constructors ask whether the still
  // incomplete PyValue is default constructible, which clang 14 with libstdc++ 12 rejects.
  struct Entry;
  std::vector<Entry> dict;
};
struct PyValue::Entry {
  std::string key;
  PyValue value;
};

class LiteralParser {
 public:
  LiteralParser(std::string_view text, const std::string& what) : t_(text), what_(what) {}

  PyValue parse_all() {
    PyValue v = value(0);
    skip();
    if (p_ != t_.size()) bad("unexpected text after the header dict");
    return v;
  }

 private:
  [[noreturn]] void bad(std::string_view why) {
    fail(ErrorKind::kInvalid, "{}: malformed .npy header ({}): {}", what_, why, std::string(t_));
  }
  void skip() {
    while (p_ < t_.size() && (t_[p_] == ' ' || t_[p_] == '\t' || t_[p_] == '\n' || t_[p_] == '\r')) ++p_;
  }
  bool eat(char c) {
    skip();
    if (p_ < t_.size() && t_[p_] == c) {
      ++p_;
      return true;
    }
    return false;
  }
  bool word(std::string_view w) {
    skip();
    if (t_.substr(p_, w.size()) == w) {
      p_ += w.size();
      return true;
    }
    return false;
  }

  PyValue value(int depth) {
    if (depth > 8) bad("nested too deeply");
    skip();
    if (p_ >= t_.size()) bad("ends early");
    PyValue v;
    const char c = t_[p_];
    if (c == '\'' || c == '"') {
      ++p_;
      const size_t end = t_.find(c, p_);
      if (end == std::string_view::npos) bad("unterminated string");
      v.kind = PyValue::kStr;
      v.s = std::string(t_.substr(p_, end - p_));
      p_ = end + 1;
    } else if (word("True")) {
      v.kind = PyValue::kBool;
      v.b = true;
    } else if (word("False")) {
      v.kind = PyValue::kBool;
    } else if (word("None")) {
      v.kind = PyValue::kNone;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      const bool neg = c == '-';
      if (neg) ++p_;
      if (p_ >= t_.size() || t_[p_] < '0' || t_[p_] > '9') bad("expected a number");
      uint64_t n = 0;
      while (p_ < t_.size() && t_[p_] >= '0' && t_[p_] <= '9') {
        if (n > (static_cast<uint64_t>(INT64_MAX) - 9) / 10) bad("number too large");
        n = n * 10 + static_cast<uint64_t>(t_[p_++] - '0');
      }
      if (p_ < t_.size() && (t_[p_] == 'L' || t_[p_] == 'l')) ++p_;  // Python 2 long
      v.kind = PyValue::kInt;
      v.i = neg ? -static_cast<int64_t>(n) : static_cast<int64_t>(n);
    } else if (c == '(' || c == '[') {
      const char close = c == '(' ? ')' : ']';
      ++p_;
      v.kind = PyValue::kSeq;
      while (!eat(close)) {
        v.items.push_back(value(depth + 1));
        if (!eat(',')) {
          if (!eat(close)) bad("expected ',' or a closing bracket");
          break;
        }
      }
    } else if (c == '{') {
      ++p_;
      v.kind = PyValue::kDict;
      while (!eat('}')) {
        PyValue key = value(depth + 1);
        if (key.kind != PyValue::kStr) bad("a key is not a string");
        if (!eat(':')) bad("expected ':'");
        v.dict.push_back({key.s, value(depth + 1)});
        if (!eat(',')) {
          if (!eat('}')) bad("expected ',' or '}'");
          break;
        }
      }
    } else {
      bad("unexpected character");
    }
    return v;
  }

  std::string_view t_;
  const std::string& what_;
  size_t p_ = 0;
};

struct Descr {
  DType dtype;
  bool big_endian;
  int size;
};

Descr parse_descr(const std::string& given, const std::string& what) {
  // numpy reads a type without a byte-order character ('f4') as native: little-endian here.
  const std::string d = given.empty() || std::strchr("<>|=", given[0]) ? given : "=" + given;
  if (d.size() >= 3) {
    const char order = d[0];
    const char kind = d[1];
    int size = 0;
    for (size_t k = 2; k < d.size(); ++k) {
      if (d[k] < '0' || d[k] > '9' || size > 1000) {
        size = -1;
        break;
      }
      size = size * 10 + (d[k] - '0');
    }
    if ((order == '<' || order == '>' || order == '|' || order == '=') && size > 0)
      for (const NpyType& n : kTypes)
        if (n.kind == kind && n.size == size) return {n.dtype, order == '>', size};
  }
  fail(ErrorKind::kUnsupported,
       "{}: numpy type '{}' is not supported (supported: bool, int8-64, uint8-64, float16/32/64, complex64/128; "
       "bfloat16 as '<u2' bits)",
       what, printable(given));
}

void byteswap(std::byte* p, int64_t n, int elem_size) {
  for (int64_t k = 0; k < n; ++k) std::reverse(p + k * elem_size, p + (k + 1) * elem_size);
}

}  // namespace

namespace {

struct Header {
  Descr descr;
  Shape shape;
  size_t data_at = 0;  // offset of the data from the start of the file
  size_t nbytes = 0;
};

// How many bytes of the file the header needs (magic, version, length field, dict),
// from its first 12 bytes (or fewer when the file is shorter).
size_t header_size(std::string_view start, const std::string& what) {
  if (start.size() < kMagicLen + 4 || std::memcmp(start.data(), kMagic, kMagicLen) != 0)
    fail(ErrorKind::kInvalid, "{}: not a .npy file (no \\x93NUMPY magic)", what);
  const auto major = static_cast<uint8_t>(start[6]);
  const auto minor = static_cast<uint8_t>(start[7]);
  auto u8 = [&](size_t k) { return static_cast<size_t>(static_cast<uint8_t>(start[k])); };
  if (major == 1 && minor == 0) return 10 + (u8(8) | u8(9) << 8);
  if ((major == 2 || major == 3) && minor == 0) {
    if (start.size() < 12) fail(ErrorKind::kInvalid, "{}: truncated .npy header", what);
    return 12 + (u8(8) | u8(9) << 8 | u8(10) << 16 | u8(11) << 24);
  }
  fail(ErrorKind::kUnsupported, "{}: .npy format version {}.{} is not supported (1.0, 2.0 and 3.0 are)", what, major,
       minor);
}

// Parses the header; `bytes` holds at least header_size() bytes.
Header parse_header(std::string_view bytes, const std::string& what) {
  const size_t size = header_size(bytes, what);
  const size_t prefix = static_cast<uint8_t>(bytes[6]) == 1 ? 10 : 12;
  if (size > bytes.size()) fail(ErrorKind::kInvalid, "{}: truncated .npy header", what);
  const PyValue dict = LiteralParser(bytes.substr(prefix, size - prefix), what).parse_all();
  if (dict.kind != PyValue::kDict) fail(ErrorKind::kInvalid, "{}: the .npy header is not a dict", what);

  const PyValue* descr = nullptr;
  const PyValue* fortran = nullptr;
  const PyValue* shape_v = nullptr;
  for (const auto& [key, v] : dict.dict) {
    if (key == "descr") descr = &v;
    else if (key == "fortran_order") fortran = &v;
    else if (key == "shape") shape_v = &v;
    else fail(ErrorKind::kInvalid, "{}: unexpected key '{}' in the .npy header", what, printable(key));
  }
  if (!descr || !fortran || !shape_v)
    fail(ErrorKind::kInvalid, "{}: the .npy header lacks one of 'descr', 'fortran_order', 'shape'", what);
  if (descr->kind != PyValue::kStr)
    fail(ErrorKind::kUnsupported, "{}: structured numpy arrays are not supported; save a plain array", what);
  if (fortran->kind != PyValue::kBool) fail(ErrorKind::kInvalid, "{}: 'fortran_order' is not True or False", what);
  if (shape_v->kind != PyValue::kSeq) fail(ErrorKind::kInvalid, "{}: 'shape' is not a tuple", what);
  Header h;
  for (const PyValue& d : shape_v->items) {
    if (d.kind != PyValue::kInt || d.i < 0) fail(ErrorKind::kInvalid, "{}: 'shape' holds a non-dimension", what);
    h.shape.push_back(d.i);
  }
  if (fortran->b && h.shape.size() >= 2)
    fail(ErrorKind::kUnsupported,
         "{}: the array is in Fortran order; save it in C order (numpy.save(f, numpy.ascontiguousarray(a)))", what);
  h.descr = parse_descr(descr->s, what);
  h.nbytes = checked_nbytes(h.descr.dtype, h.shape);
  h.data_at = size;
  return h;
}

// Native byte order, and bools checked, once the data is in place.
void finish(Tensor& t, const Header& h, const std::string& what) {
  if (h.descr.big_endian && h.descr.size > 1) npy_to_native(t.mutable_raw(), h.nbytes, t.dtype());
  if (t.dtype() == DType::kBool) check_bools(t.raw(), t.nbytes(), 0, what);
}

}  // namespace

void npy_to_native(void* data, size_t nbytes, DType dtype) {
  // A complex number is two floats, each in the file's byte order.
  const int unit = dtype == DType::kComplex64    ? 4
                   : dtype == DType::kComplex128 ? 8
                                                 : static_cast<int>(dtype_size(dtype));
  byteswap(static_cast<std::byte*>(data), static_cast<int64_t>(nbytes) / unit, unit);
}

void fail_npy_data_size(const std::string& what, uint64_t have, uint64_t promised) {
  fail(ErrorKind::kInvalid, "{}: holds {} bytes of data, the header promises {}", what, have, promised);
}

size_t npy_header_size(std::string_view start, const std::string& what) { return header_size(start, what); }

NpyHeader parse_npy_header(std::string_view bytes, const std::string& what) {
  const Header h = parse_header(bytes, what);
  NpyHeader out;
  out.dtype = h.descr.dtype;
  out.shape = h.shape;
  out.byteswap = h.descr.big_endian && h.descr.size > 1;
  out.data_offset = h.data_at;
  out.nbytes = h.nbytes;
  return out;
}

Tensor parse_npy(std::string_view bytes, const std::string& what) {
  const Header h = parse_header(bytes, what);
  if (bytes.size() - h.data_at != h.nbytes) fail_npy_data_size(what, bytes.size() - h.data_at, h.nbytes);
  Tensor t(h.descr.dtype, h.shape);
  if (h.nbytes) std::memcpy(t.mutable_raw(), bytes.data() + h.data_at, h.nbytes);
  finish(t, h, what);
  return t;
}

std::string npy_header(DType dtype, const Shape& dims) {
  // numpy: "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }" then spaces so
  // that the first dim can grow to 21 digits in place, then padding to 64 bytes and '\n'.
  std::string shape = "(";
  for (size_t k = 0; k < dims.size(); ++k) shape += (k ? ", " : "") + std::to_string(dims[k]);
  if (dims.size() == 1) shape += ",";
  shape += ")";
  std::string dict = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}", descr_for(dtype), shape);
  if (!dims.empty()) dict.append(kGrowthAxisMaxDigits - std::to_string(dims[0]).size(), ' ');
  const size_t hlen = dict.size() + 1;  // with the final '\n'
  size_t size_bytes = 2;                // version 1.0 unless the header needs 2.0, as numpy chooses
  size_t pad = kAlign - (kMagicLen + 2 + size_bytes + hlen) % kAlign;
  if (size_bytes == 2 && hlen + pad > 65535) {
    size_bytes = 4;
    pad = kAlign - (kMagicLen + 2 + size_bytes + hlen) % kAlign;
  }
  std::string out(kMagic, kMagicLen);
  out.push_back(static_cast<char>(size_bytes == 2 ? 1 : 2));
  out.push_back(0);
  const size_t total = hlen + pad;
  for (size_t k = 0; k < size_bytes; ++k) out.push_back(static_cast<char>((total >> (8 * k)) & 0xff));
  out += dict;
  out.append(pad, ' ');
  out.push_back('\n');
  return out;
}

DType numpy_type_as_declared(DType read, std::optional<DType> declared) {
  return read == DType::kUInt16 && declared == DType::kBFloat16 ? DType::kBFloat16 : read;
}

Tensor bfloat16_from_bits(const Tensor& t, std::optional<DType> declared) {
  const DType typed = numpy_type_as_declared(t.dtype(), declared);
  if (typed == t.dtype()) return t;
  return Tensor(typed, t.shape(), t.buffer());
}

}  // namespace onnxrun
