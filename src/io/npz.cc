#include "io/npz.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include <zlib.h>

#include "core/error.h"
#include "core/fail.h"
#include "core/memory_limit.h"
#include "io/crc32.h"
#include "io/file_bytes.h"
#include "io/npy.h"
#include "io/zip_directory.h"

namespace onnxrun {
namespace {

constexpr uint32_t kLocalSig = 0x04034b50;
constexpr uint32_t kCentralSig = 0x02014b50;
constexpr uint32_t kEndSig = 0x06054b50;
constexpr uint16_t kDosDate1980 = (0 << 9) | (1 << 5) | 1;  // 1980-01-01

std::string inflate_raw(std::string_view in, uint64_t out_size, const ZipBytes& r) {
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

uint32_t crc_of(std::string_view data) { return crc32_update(0, data.data(), data.size()); }

void put(std::string& out, uint64_t v, int n) {
  for (int k = 0; k < n; ++k) out.push_back(static_cast<char>((v >> (8 * k)) & 0xff));
}

}  // namespace

std::vector<NamedArray> parse_npz(std::string_view bytes, const std::string& what) {
  const ZipBytes r(bytes, what);
  std::vector<NamedArray> out;
  for_each_npz_member(r, [&](const ZipMember& m) {
    const std::string_view raw = r.slice(m.data_at, m.csize);
    std::string inflated;
    std::string_view data = raw;
    MemoryReservation inflating;
    if (m.method == 8) {
      // The size the archive declares is counted before a byte is inflated: a small file
      // of deflated zeros is refused at the limit, not after filling memory.
      inflating = MemoryReservation(static_cast<size_t>(std::min<uint64_t>(m.usize, SIZE_MAX)), m.label);
      inflated = inflate_raw(raw, m.usize, r);
      data = inflated;
    }
    if (crc_of(data) != m.crc) fail(ErrorKind::kInvalid, "{}: CRC-32 mismatch (damaged archive)", m.label);
    out.push_back({m.key, parse_npy(data, m.label)});
  });
  return out;
}

std::vector<NamedArray> read_npz_file(const std::string& path, const DeclaredType& declared) {
  const FileBytes bytes = FileBytes::read(path, FileBytes::Limit::kMemoryOnly);
  std::vector<NamedArray> arrays = parse_npz(std::string_view(bytes.data(), bytes.size()), path);
  if (declared)
    for (NamedArray& a : arrays) a.tensor = bfloat16_from_bits(a.tensor, declared(a.name));
  return arrays;
}

namespace {

// General-purpose flag bit 11 where the name is not ASCII: it says the name is UTF-8,
// which zip readers (numpy's zipfile among them) otherwise take for CP437, mangling
// 'yé' into 'y├⌐'. Set only then, as Python's zipfile does, so that ASCII names give the
// bytes numpy writes.
uint16_t utf8_flag(const std::string& name) {
  const bool ascii = std::all_of(name.begin(), name.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  return ascii ? 0 : 0x0800;
}

std::string entry_header(const NpzLayout::Member& e, bool central) {
  std::string h;
  put(h, central ? kCentralSig : kLocalSig, 4);
  if (central) put(h, 20, 2);    // made by: zip 2.0, MS-DOS attributes
  put(h, 20, 2);                 // needed to extract: 2.0
  put(h, utf8_flag(e.name), 2);  // flags
  put(h, 0, 2);                  // stored
  put(h, 0, 2);                  // time 00:00:00
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

}  // namespace

NpzLayout::NpzLayout(const std::vector<ValueSpec>& values) {
  uint64_t at = 0;
  for (const ValueSpec& v : values) {
    Member e;
    e.name = v.name + ".npy";
    e.npy_header = npy_header(v.dtype, v.shape);
    e.data_size = checked_nbytes(v.dtype, v.shape);
    e.size = e.npy_header.size() + e.data_size;
    e.offset = at;
    e.crc = crc_of(e.npy_header);  // of the member's data too once set_data_crc is called
    at += 30 + e.name.size() + e.size;
    if (e.size >= 0xffffffffu || at >= 0xffffffffu || e.name.size() > 0xffff)
      fail(ErrorKind::kUnsupported, "'{}': .npz archives of 4 GiB and more are not supported; use --format npy",
           v.name);
    members_.push_back(std::move(e));
  }
  if (members_.size() > 0xffff) fail(ErrorKind::kUnsupported, ".npz with more than 65535 arrays; use --format npy");
  central_offset_ = at;
}

namespace {

std::vector<ValueSpec> specs_of(const std::vector<NamedArray>& arrays) {
  std::vector<ValueSpec> out;
  for (const NamedArray& a : arrays) out.push_back({a.name, a.tensor.dtype(), a.tensor.shape()});
  return out;
}

}  // namespace

NpzLayout::NpzLayout(const std::vector<NamedArray>& arrays) : NpzLayout(specs_of(arrays)) {}

uint64_t NpzLayout::data_offset(size_t k) const {
  const Member& e = members_[k];
  return e.offset + 30 + e.name.size() + e.npy_header.size();
}

std::string NpzLayout::local_header(size_t k) const {
  return entry_header(members_[k], false) + members_[k].npy_header;
}

void NpzLayout::set_data_crc(size_t k, uint32_t data_crc) {
  Member& e = members_[k];
  e.crc = static_cast<uint32_t>(crc32_combine(crc_of(e.npy_header), data_crc, static_cast<z_off_t>(e.data_size)));
}

std::string NpzLayout::central_directory() const {
  std::string central;
  for (const Member& e : members_) central += entry_header(e, true);
  std::string end;
  put(end, kEndSig, 4);
  put(end, 0, 2);
  put(end, 0, 2);
  put(end, members_.size(), 2);
  put(end, members_.size(), 2);
  put(end, central.size(), 4);
  put(end, central_offset_, 4);
  put(end, 0, 2);
  return central + end;
}

uint32_t npz_data_crc(uint32_t crc, const void* data, size_t n) { return crc32_update(crc, data, n); }

}  // namespace onnxrun
