#include "io/tensor_stream.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string_view>

#include <zlib.h>

#include "core/error.h"
#include "core/fail.h"
#include "io/crc32.h"
#include "io/input_file.h"
#include "io/mapped_file.h"
#include "io/npy.h"
#include "io/npz.h"
#include "io/read_at.h"
#include "io/tensor_file.h"
#include "io/tensor_proto.h"
#include "io/tensor_wire.h"
#include "io/zip_directory.h"

namespace onnxrun {
namespace {

bool is_regular_file(const std::string& path) {
  struct stat st {};
  // Anything else is the whole reader's to refuse (io/read_open.h), with its message.
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool has_extension_nocase(const std::string& path, std::string_view ext) {
  if (path.size() < ext.size()) return false;
  for (size_t k = 0; k < ext.size(); ++k)
    if (std::tolower(static_cast<unsigned char>(path[path.size() - ext.size() + k])) != ext[k]) return false;
  return true;
}

void check_range(size_t offset, size_t n, size_t nbytes, const std::string& what) {
  if (n > nbytes || offset > nbytes - n)
    fail(ErrorKind::kInternal, "{}: bytes [{}, {}) asked of {} bytes of data", what, offset, offset + n, nbytes);
}

std::optional<TensorStream> open_pb_stream(const std::string& path) {
  // Only raw_data TensorProto files are streamed; any other format (.npy, .npz, text) is
  // left to the ordinary reader, which knows it, rather than judged as a malformed .pb.
  if (has_extension_nocase(path, ".npy") || has_extension_nocase(path, ".npz")) return std::nullopt;
  // The mapping is for the scan of the message's fields, which skips raw_data without
  // touching its pages; the data itself is read with pread.
  std::optional<RawTensorLayout> raw;
  {
    const std::shared_ptr<const MappedFile> file = MappedFile::open(path, /*prefault=*/false);
    const std::string_view start(file->data(), std::min<size_t>(file->size(), 6));
    if (start.rfind("\x93NUMPY", 0) == 0 || start.rfind("PK", 0) == 0) return std::nullopt;
    try {
      raw = find_raw_tensor(file->data(), file->size());
    } catch (const Error&) {
      return std::nullopt;  // not a TensorProto this scan reads: the full reader reports what it is
    }
  }
  if (!raw) return std::nullopt;
  TensorStream s;
  try {
    std::tie(s.dtype, s.shape) = raw_layout_type(*raw);
  } catch (const Error& e) {
    throw e.with_context(path);
  }
  s.name = raw->name;
  s.what = path;
  const std::shared_ptr<const ReadAtFile> file = ReadAtFile::open(path);
  const size_t data_at = raw->raw_offset, nbytes = raw->raw_size;
  const bool bools = s.dtype == DType::kBool;
  s.read = [file, data_at, nbytes, bools](size_t offset, void* dst, size_t n) {
    check_range(offset, n, nbytes, file->path());
    if (file->read_at(data_at + offset, dst, n) != n) fail(ErrorKind::kIo, "cannot read {}: file shrank", file->path());
    if (bools) check_bools(dst, n, offset, file->path());
  };
  s.any_order = true;
  return s;
}

// `e`, naming `path`: most messages do already; those of shared checks (a shape's size,
// the memory limit) do not.
[[noreturn]] void rethrow_naming(const Error& e, const std::string& path) {
  if (std::string_view(e.what()).rfind(path, 0) == 0) throw e;
  throw e.with_context(path);
}

// What a read of .npy data does after the bytes are in `dst`: big-endian elements to this
// machine's order (whole elements only: the callers read whole blocks of them), and a
// bool array's elements checked (0 or 1, as numpy writes them).
void finish_npy_read(const NpyHeader& h, size_t offset, void* dst, size_t n, const std::string& what) {
  if (h.byteswap) {
    const size_t size = dtype_size(h.dtype);
    if (offset % size || n % size)
      fail(ErrorKind::kInternal, "{}: big-endian data read in part of an element (bytes [{}, {}))", what, offset,
           offset + n);
    npy_to_native(dst, n, h.dtype);
  }
  if (h.dtype == DType::kBool) check_bools(dst, n, offset, what);
}

// The header of the .npy file `file`.
NpyHeader read_npy_header(const ReadAtFile& file) {
  const std::string& path = file.path();
  std::string head(12, '\0');
  head.resize(file.read_at(0, head.data(), head.size()));
  const size_t size = npy_header_size(head, path);
  if (size > (size_t{1} << 24)) fail(ErrorKind::kInvalid, "{}: .npy header of {} bytes is not plausible", path, size);
  const size_t have = head.size();
  if (size > have) {
    head.resize(size);
    head.resize(have + file.read_at(have, head.data() + have, size - have));
  }
  try {
    return parse_npy_header(head, path);
  } catch (const Error& e) {
    rethrow_naming(e, path);
  }
}

TensorStream open_npy_stream(const std::string& path) {
  const std::shared_ptr<const ReadAtFile> file = ReadAtFile::open(path);
  const NpyHeader h = read_npy_header(*file);
  if (file->size() < h.data_offset || file->size() - h.data_offset != h.nbytes)
    fail_npy_data_size(path, file->size() < h.data_offset ? 0 : file->size() - h.data_offset, h.nbytes);
  TensorStream s;
  s.dtype = h.dtype;
  s.shape = h.shape;
  s.what = path;
  s.read = [file, h](size_t offset, void* dst, size_t n) {
    check_range(offset, n, h.nbytes, file->path());
    if (file->read_at(h.data_offset + offset, dst, n) != n)
      fail(ErrorKind::kInvalid, "{}: the data does not have the {} bytes the header promises", file->path(), h.nbytes);
    finish_npy_read(h, offset, dst, n, file->path());
  };
  s.any_order = true;
  return s;
}

// One .npz member's uncompressed bytes (its .npy header, then the data), in order; a
// stored member's data also in any order, from several threads at once (read_stored).
// The read that ends the member (the one that completes it, for read_stored) checks what
// read_npz_file checks of the whole: that a deflated member inflates to exactly its
// stated size, and the CRC-32 (of pieces read in any order, joined by crc32_combine).
class MemberBytes {
 public:
  MemberBytes(std::shared_ptr<const ReadAtFile> file, ZipMember m, std::string archive)
      : file_(std::move(file)), m_(std::move(m)), archive_(std::move(archive)) {
    crc_ = 0;
    if (m_.method == 8) {
      z_ = std::make_unique<z_stream>();
      if (inflateInit2(z_.get(), -MAX_WBITS) != Z_OK) fail(ErrorKind::kInternal, "zlib inflateInit2 failed");
      in_.resize(std::min<uint64_t>(m_.csize, kInputBytes));
    }
    if (m_.usize == 0) finish();
  }
  ~MemberBytes() {
    if (z_) inflateEnd(z_.get());
  }
  MemberBytes(const MemberBytes&) = delete;
  MemberBytes& operator=(const MemberBytes&) = delete;

  uint64_t pos() const { return pos_; }

  // The next n bytes into dst. REQUIRES: n <= usize - pos().
  void next(void* dst, size_t n) {
    if (n == 0) return;
    if (z_) inflate_into(static_cast<Bytef*>(dst), n);
    else if (file_->read_at(m_.data_at + pos_, dst, n) != n) bad("an entry lies beyond the end of the file");
    crc_ = crc32_update(crc_, dst, n);
    pos_ += n;
    if (pos_ == m_.usize) finish();
  }

  bool stored() const { return m_.method == 0; }

  // n bytes from byte `at` of a stored member into dst: any range after those next() read
  // (the header), each once. A piece that starts where the bytes taken so far end extends
  // the CRC-32 (reads in order cost what next() does); one further on is kept with its own
  // CRC-32 until the gap before it is filled, then joined by crc32_combine.
  // REQUIRES: stored(), at >= pos(), at + n <= usize.
  void read_stored(uint64_t at, void* dst, size_t n) {
    if (n == 0) return;
    if (file_->read_at(m_.data_at + at, dst, n) != n) bad("an entry lies beyond the end of the file");
    std::unique_lock<std::mutex> lock(mu_);
    if (at == pos_) {
      crc_ = crc32_update(crc_, dst, n);
      pos_ += n;
    } else {
      lock.unlock();
      const uint32_t crc = crc32_update(0, dst, n);
      lock.lock();
      pieces_[at] = {n, crc};
    }
    for (auto it = pieces_.find(pos_); it != pieces_.end(); it = pieces_.find(pos_)) {
      crc_ = static_cast<uint32_t>(crc32_combine(crc_, it->second.crc, static_cast<z_off_t>(it->second.bytes)));
      pos_ += it->second.bytes;
      pieces_.erase(it);
    }
    if (pos_ == m_.usize) finish();
  }

 private:
  static constexpr uint64_t kInputBytes = 256 << 10;

  [[noreturn]] void bad(std::string_view why) const {
    fail(ErrorKind::kInvalid, "{}: not a valid .npz (zip) file: {}", archive_, why);
  }
  [[noreturn]] void bad_length() const { bad("a deflated entry does not inflate to its stated size"); }

  // Compressed input for inflate when it has used up what it had; false at the member's end.
  bool refill() {
    if (z_->avail_in > 0) return true;
    const uint64_t k = std::min<uint64_t>(in_.size(), m_.csize - in_at_);
    if (k == 0) return false;
    if (file_->read_at(m_.data_at + in_at_, in_.data(), k) != k) bad("an entry lies beyond the end of the file");
    in_at_ += k;
    z_->next_in = in_.data();
    z_->avail_in = static_cast<uInt>(k);
    return true;
  }

  // One inflate step into [out, out + n); returns the bytes it produced.
  size_t step(Bytef* out, size_t n) {
    if (ended_) bad_length();  // the stream ended before the stated size
    const bool more = refill();
    z_->next_out = out;
    z_->avail_out = static_cast<uInt>(std::min<size_t>(n, 1u << 30));
    const uInt room = z_->avail_out;
    const int rc = inflate(z_.get(), Z_NO_FLUSH);
    if (rc == Z_STREAM_END) ended_ = true;
    else if (rc == Z_BUF_ERROR ? !more : rc != Z_OK) bad_length();  // damaged, or out of input
    return room - z_->avail_out;
  }

  void inflate_into(Bytef* out, size_t n) {
    while (n > 0) {
      const size_t got = step(out, n);
      out += got;
      n -= got;
    }
  }

  void finish() {
    if (z_) {
      // The stream must end here: one more byte of output is a member longer than stated.
      Bytef extra;
      while (!ended_)
        if (step(&extra, 1) != 0) bad_length();
    }
    if (crc_ != m_.crc) fail(ErrorKind::kInvalid, "{}: CRC-32 mismatch (damaged archive)", m_.label);
  }

  std::shared_ptr<const ReadAtFile> file_;
  ZipMember m_;
  std::string archive_;
  uint64_t pos_ = 0;
  uint32_t crc_ = 0;
  std::unique_ptr<z_stream> z_;  // deflated only; zlib's state points back at it, so it stays put
  std::vector<Bytef> in_;
  uint64_t in_at_ = 0;  // compressed bytes fed so far
  bool ended_ = false;
  // read_stored's pieces past pos_, by first byte, with their CRC-32s. mu_ guards them,
  // and pos_ and crc_ once the header is read.
  struct Piece {
    size_t bytes;
    uint32_t crc;
  };
  std::mutex mu_;
  std::map<uint64_t, Piece> pieces_;
};

// A member as a stream, its .npy header read (inflated) from its start. nullopt when the
// header is one read_npz_file refuses (it then reports the member's CRC or the header, in
// its order) or the data needs byte swapping.
std::optional<TensorStream> open_member(const std::shared_ptr<const ReadAtFile>& file, const ZipMember& m,
                                        const std::string& archive) {
  if (m.method == 8 && m.usize > (uint64_t{1} << 40))
    fail(ErrorKind::kInvalid, "{}: not a valid .npz (zip) file: an entry claims an absurd size", archive);
  auto bytes = std::make_shared<MemberBytes>(file, m, archive);
  NpyHeader h;
  try {
    std::string head(std::min<uint64_t>(m.usize, 12), '\0');
    bytes->next(head.data(), head.size());
    const size_t size = npy_header_size(head, m.label);
    if (size > m.usize || size > (size_t{1} << 24)) return std::nullopt;
    const size_t have = head.size();
    head.resize(std::max(size, have));
    bytes->next(head.data() + have, head.size() - have);
    h = parse_npy_header(head, m.label);
  } catch (const Error&) {
    return std::nullopt;
  }
  if (m.usize - h.data_offset != h.nbytes) return std::nullopt;
  TensorStream s;
  s.name = m.key;
  s.dtype = h.dtype;
  s.shape = h.shape;
  s.what = m.label;
  const std::string label = m.label;
  s.any_order = bytes->stored();
  s.read = [bytes, h, label](size_t offset, void* dst, size_t n) {
    check_range(offset, n, h.nbytes, label);
    if (bytes->stored()) {
      bytes->read_stored(h.data_offset + offset, dst, n);
    } else {
      if (h.data_offset + offset != bytes->pos())
        fail(ErrorKind::kInternal, "{}: data read at byte {}, but the member is read in order (next: {})", label,
             offset, bytes->pos() - h.data_offset);
      bytes->next(dst, n);
    }
    finish_npy_read(h, offset, dst, n, label);
  };
  return s;
}

}  // namespace

TensorStream memory_stream(std::string name, Tensor t, std::string what) {
  TensorStream s;
  s.name = std::move(name);
  s.dtype = t.dtype();
  s.shape = t.shape();
  s.what = std::move(what);
  s.read = [t, what = s.what](size_t offset, void* dst, size_t n) {
    check_range(offset, n, t.nbytes(), what);
    if (n) std::memcpy(dst, static_cast<const char*>(t.raw()) + offset, n);
  };
  s.any_order = true;
  s.held = std::move(t);
  return s;
}

TensorStream open_tensor_stream(const std::string& path, std::optional<DType> declared) {
  // The format by extension, as read_input_file decides it.
  if (std::filesystem::path(path).extension() == ".npy") {
    TensorStream s = open_npy_stream(path);
    s.dtype = numpy_type_as_declared(s.dtype, declared);
    return s;
  }
  std::optional<TensorStream> s;
  if (is_regular_file(path)) s = open_pb_stream(path);
  if (s) return std::move(*s);
  NamedTensor whole = read_input_file(path, declared);
  return memory_stream(std::move(whole.name), std::move(whole.tensor), path);
}

std::vector<TensorStream> open_npz_streams(const std::string& path, const DeclaredType& declared) {
  return open_npz(path, declared).members;
}

NpzStreams open_npz(const std::string& path, const DeclaredType& declared) {
  NpzStreams out;
  if (is_regular_file(path)) {
    const std::shared_ptr<const ReadAtFile> file = ReadAtFile::open(path);
    auto members = std::make_shared<std::vector<ZipMember>>();
    for_each_npz_member(ZipBytes(file, path), [&](const ZipMember& m) { members->push_back(m); });
    auto open = [file, members, path, declared](size_t j) {
      std::optional<TensorStream> s = open_member(file, (*members)[j], path);
      if (s && declared) s->dtype = numpy_type_as_declared(s->dtype, declared(s->name));
      return s;
    };
    for (size_t j = 0; j < members->size(); ++j) {
      std::optional<TensorStream> s = open(j);
      if (!s) break;
      out.members.push_back(std::move(*s));
    }
    if (out.members.size() == members->size()) {
      out.reopen = [open, path](size_t j) {
        std::optional<TensorStream> s = open(j);
        if (!s) fail(ErrorKind::kIo, "{}: changed while being read", path);
        return std::move(*s);
      };
      return out;
    }
  }
  out.members.clear();
  for (NamedArray& a : read_npz_file(path, declared))
    out.members.push_back(memory_stream(a.name, std::move(a.tensor), path + ": " + a.name + ".npy"));
  out.reopen = [held = out.members](size_t j) { return held[j]; };  // read() of a held tensor keeps no state
  return out;
}

Tensor read_npy_file(const std::string& path) {
  const TensorStream s = open_npy_stream(path);
  try {
    return read_whole(s);
  } catch (const Error& e) {
    rethrow_naming(e, path);
  }
}

Tensor read_whole(const TensorStream& s) {
  if (s.held) return *s.held;
  Tensor t(s.dtype, s.shape);
  if (t.nbytes()) s.read(0, t.mutable_raw(), t.nbytes());
  return t;
}

}  // namespace onnxrun
