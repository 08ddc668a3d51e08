#include "io/npz.h"

#include <cstring>
#include <set>

#include <zlib.h>

#include "core/error.h"
#include "io/atomic_file.h"
#include "io/file_bytes.h"
#include "io/npy.h"

namespace onnxrun {
namespace {

constexpr uint32_t kLocalSig = 0x04034b50;
constexpr uint32_t kCentralSig = 0x02014b50;
constexpr uint32_t kEndSig = 0x06054b50;
constexpr uint32_t kZip64EndSig = 0x06064b50;
constexpr uint32_t kZip64LocatorSig = 0x07064b50;
constexpr uint16_t kDosDate1980 = (0 << 9) | (1 << 5) | 1;  // 1980-01-01

class Reader {
 public:
  Reader(std::string_view b, const std::string& what) : b_(b), what_(what) {}
  [[noreturn]] void bad(std::string_view why) const {
    fail(ErrorKind::kInvalid, "{}: not a valid .npz (zip) file: {}", what_, why);
  }
  uint64_t le(uint64_t at, int n) const {
    if (at > b_.size() || static_cast<uint64_t>(n) > b_.size() - at) bad("truncated");
    uint64_t v = 0;
    for (int k = n - 1; k >= 0; --k) v = v << 8 | static_cast<uint8_t>(b_[at + static_cast<uint64_t>(k)]);
    return v;
  }
  std::string_view slice(uint64_t at, uint64_t n) const {
    if (at > b_.size() || n > b_.size() - at) bad("an entry lies beyond the end of the file");
    return b_.substr(at, n);
  }
  size_t size() const { return b_.size(); }

 private:
  std::string_view b_;
  const std::string& what_;
};

std::string inflate_raw(std::string_view in, uint64_t out_size, const Reader& r) {
  if (out_size > (uint64_t{1} << 40)) r.bad("an entry claims an absurd size");
  std::string out(out_size, '\0');
  z_stream z{};
  if (inflateInit2(&z, -MAX_WBITS) != Z_OK) fail(ErrorKind::kInternal, "zlib inflateInit2 failed");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = inflate(&z, Z_FINISH);
  const uint64_t produced = z.total_out;
  inflateEnd(&z);
  if (rc != Z_STREAM_END || produced != out_size) r.bad("a deflated entry does not inflate to its stated size");
  return out;
}

uint32_t crc_of(std::string_view data) {
  uLong crc = crc32(0L, Z_NULL, 0);
  size_t at = 0;
  while (at < data.size()) {
    const size_t n = std::min<size_t>(data.size() - at, 1u << 30);
    crc = crc32(crc, reinterpret_cast<const Bytef*>(data.data() + at), static_cast<uInt>(n));
    at += n;
  }
  return static_cast<uint32_t>(crc);
}

void put(std::string& out, uint64_t v, int n) {
  for (int k = 0; k < n; ++k) out.push_back(static_cast<char>((v >> (8 * k)) & 0xff));
}

}  // namespace

std::vector<NamedArray> parse_npz(std::string_view bytes, const std::string& what) {
  Reader r(bytes, what);
  if (bytes.size() < 22) r.bad("too short");
  // The end-of-central-directory record: the last 22 bytes plus up to 64 KiB of comment.
  uint64_t end = bytes.size() - 22;
  const uint64_t stop = bytes.size() > 22 + 65535 ? bytes.size() - 22 - 65535 : 0;
  while (r.le(end, 4) != kEndSig) {
    if (end == stop) r.bad("no end-of-central-directory record");
    --end;
  }
  uint64_t entries = r.le(end + 10, 2);
  uint64_t cd_size = r.le(end + 12, 4);
  uint64_t cd_offset = r.le(end + 16, 4);
  if (entries == 0xffff || cd_size == 0xffffffff || cd_offset == 0xffffffff) {
    if (end < 20 || r.le(end - 20, 4) != kZip64LocatorSig) r.bad("zip64 sizes without a zip64 locator");
    const uint64_t z64 = r.le(end - 20 + 8, 8);
    if (r.le(z64, 4) != kZip64EndSig) r.bad("bad zip64 end record");
    entries = r.le(z64 + 32, 8);
    cd_size = r.le(z64 + 40, 8);
    cd_offset = r.le(z64 + 48, 8);
  }
  r.slice(cd_offset, cd_size);
  if (entries > cd_size / 46) r.bad("more entries than the central directory can hold");

  std::vector<NamedArray> out;
  std::set<std::string> names;
  uint64_t at = cd_offset;
  for (uint64_t e = 0; e < entries; ++e) {
    if (r.le(at, 4) != kCentralSig) r.bad("bad central directory entry");
    const uint64_t flags = r.le(at + 8, 2);
    const uint64_t method = r.le(at + 10, 2);
    const uint32_t crc = static_cast<uint32_t>(r.le(at + 16, 4));
    uint64_t csize = r.le(at + 20, 4);
    uint64_t usize = r.le(at + 24, 4);
    const uint64_t name_len = r.le(at + 28, 2);
    const uint64_t extra_len = r.le(at + 30, 2);
    const uint64_t comment_len = r.le(at + 32, 2);
    uint64_t local = r.le(at + 42, 4);
    const std::string name(r.slice(at + 46, name_len));
    // zip64 extended information: the 8-byte values, in this order, of the fields that are all ones.
    for (uint64_t x = at + 46 + name_len; x + 4 <= at + 46 + name_len + extra_len;) {
      const uint64_t id = r.le(x, 2), len = r.le(x + 2, 2);
      if (id == 1) {
        uint64_t p = x + 4;
        if (usize == 0xffffffff) usize = r.le(p, 8), p += 8;
        if (csize == 0xffffffff) csize = r.le(p, 8), p += 8;
        if (local == 0xffffffff) local = r.le(p, 8), p += 8;
        if (p > x + 4 + len) r.bad("short zip64 extra field");
      }
      x += 4 + len;
    }
    at += 46 + name_len + extra_len + comment_len;

    const std::string label = what + ": " + name;
    if (flags & 1) fail(ErrorKind::kUnsupported, "{}: encrypted entries are not supported", label);
    if (name.size() < 5 || name.compare(name.size() - 4, 4, ".npy") != 0)
      fail(ErrorKind::kInvalid, "{}: an .npz entry must be a .npy file", label);
    const std::string key = name.substr(0, name.size() - 4);
    if (!names.insert(key).second) fail(ErrorKind::kInvalid, "{}: the archive holds '{}' twice", what, key);
    if (r.le(local, 4) != kLocalSig) r.bad("bad local header");
    const uint64_t data_at = local + 30 + r.le(local + 26, 2) + r.le(local + 28, 2);
    const std::string_view raw = r.slice(data_at, csize);
    std::string inflated;
    std::string_view data;
    if (method == 0) {
      if (csize != usize) r.bad("a stored entry's sizes differ");
      data = raw;
    } else if (method == 8) {
      inflated = inflate_raw(raw, usize, r);
      data = inflated;
    } else {
      fail(ErrorKind::kUnsupported, "{}: compression method {} is not supported (stored and deflated are)", label,
           method);
    }
    if (crc_of(data) != crc) fail(ErrorKind::kInvalid, "{}: CRC-32 mismatch (damaged archive)", label);
    out.push_back({key, parse_npy(data, label)});
  }
  return out;
}

std::vector<NamedArray> read_npz_file(const std::string& path) {
  const FileBytes bytes = FileBytes::read(path);
  return parse_npz(std::string_view(bytes.data(), bytes.size()), path);
}

namespace {

// One stored entry: the .npy header in memory, the data streamed from the tensor.
struct Entry {
  std::string name;    // "x.npy"
  std::string header;  // npy_header(t)
  const Tensor* tensor;
  uint32_t crc = 0;
  uint64_t size = 0;    // header + data
  uint64_t offset = 0;  // of the local header
};

std::string entry_header(const Entry& e, bool central) {
  std::string h;
  put(h, central ? kCentralSig : kLocalSig, 4);
  if (central) put(h, 20, 2);  // made by: zip 2.0, MS-DOS attributes
  put(h, 20, 2);               // needed to extract: 2.0
  put(h, 0, 2);                // flags
  put(h, 0, 2);                // stored
  put(h, 0, 2);                // time 00:00:00
  put(h, kDosDate1980, 2);
  put(h, e.crc, 4);
  put(h, e.size, 4);
  put(h, e.size, 4);
  put(h, e.name.size(), 2);
  put(h, 0, 2);  // extra
  if (central) {
    put(h, 0, 2);  // comment
    put(h, 0, 2);  // disk
    put(h, 0, 2);  // internal attributes
    put(h, 0, 4);  // external attributes
    put(h, e.offset, 4);
  }
  return h + e.name;
}

// Entries with CRCs and offsets, checked to fit a zip without zip64.
std::vector<Entry> plan(const std::vector<NamedArray>& arrays) {
  std::vector<Entry> entries;
  uint64_t at = 0;
  for (const NamedArray& a : arrays) {
    Entry e{a.name + ".npy", npy_header(a.tensor), &a.tensor};
    e.size = e.header.size() + a.tensor.nbytes();
    e.offset = at;
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32_combine(crc32(crc, reinterpret_cast<const Bytef*>(e.header.data()), static_cast<uInt>(e.header.size())),
                        crc_of(std::string_view(static_cast<const char*>(a.tensor.raw()), a.tensor.nbytes())),
                        static_cast<z_off_t>(a.tensor.nbytes()));
    e.crc = static_cast<uint32_t>(crc);
    at += 30 + e.name.size() + e.size;
    if (e.size >= 0xffffffffu || at >= 0xffffffffu || e.name.size() > 0xffff)
      fail(ErrorKind::kUnsupported, "'{}': .npz archives of 4 GiB and more are not supported; use --format npy",
           a.name);
    entries.push_back(std::move(e));
  }
  if (entries.size() > 0xffff) fail(ErrorKind::kUnsupported, ".npz with more than 65535 arrays; use --format npy");
  return entries;
}

std::string end_record(const std::vector<Entry>& entries, uint64_t cd_offset, uint64_t cd_size) {
  std::string out;
  put(out, kEndSig, 4);
  put(out, 0, 2);
  put(out, 0, 2);
  put(out, entries.size(), 2);
  put(out, entries.size(), 2);
  put(out, cd_size, 4);
  put(out, cd_offset, 4);
  put(out, 0, 2);
  return out;
}

}  // namespace

std::string npz_bytes(const std::vector<NamedArray>& arrays) {
  const auto entries = plan(arrays);
  std::string out, central;
  for (const Entry& e : entries) {
    out += entry_header(e, false) + e.header;
    out.append(static_cast<const char*>(e.tensor->raw()), e.tensor->nbytes());
    central += entry_header(e, true);
  }
  const uint64_t cd_offset = out.size();
  return out + central + end_record(entries, cd_offset, central.size());
}

void write_npz_file(const std::string& path, const std::vector<NamedArray>& arrays) {
  // Streamed: the tensors' data goes from their buffers to the file, never copied.
  const auto entries = plan(arrays);
  write_file_atomically(path, [&](std::FILE* f) {
    std::string central;
    uint64_t at = 0;
    for (const Entry& e : entries) {
      const std::string head = entry_header(e, false) + e.header;
      write_bytes(f, head.data(), head.size(), path);
      write_bytes(f, e.tensor->raw(), e.tensor->nbytes(), path);
      at += head.size() + e.tensor->nbytes();
      central += entry_header(e, true);
    }
    central += end_record(entries, at, central.size());
    write_bytes(f, central.data(), central.size(), path);
  });
}

}  // namespace onnxrun
