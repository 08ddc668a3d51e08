#include "io/zip_directory.h"

#include <algorithm>
#include <set>

#include "core/error.h"
#include "core/fail.h"
#include "io/read_at.h"

namespace onnxrun {
namespace {

constexpr uint32_t kLocalSig = 0x04034b50;
constexpr uint32_t kCentralSig = 0x02014b50;
constexpr uint32_t kEndSig = 0x06054b50;
constexpr uint32_t kZip64EndSig = 0x06064b50;
constexpr uint32_t kZip64LocatorSig = 0x07064b50;
// The end record is in the last 22 bytes plus up to 64 KiB of comment, the zip64 locator
// just before it: one read of this much from the end serves the whole backward search.
constexpr uint64_t kTailBytes = 22 + 65535 + 20;
constexpr uint64_t kMinFetch = 64 << 10;

}  // namespace

ZipBytes::ZipBytes(std::string_view whole, const std::string& what) : whole_(whole), size_(whole.size()), what_(what) {}

ZipBytes::ZipBytes(std::shared_ptr<const ReadAtFile> file, const std::string& what)
    : file_(std::move(file)), size_(file_->size()), what_(what) {
  cache_at_ = size_ > kTailBytes ? size_ - kTailBytes : 0;
  cache_.resize(size_ - cache_at_);
  cache_.resize(file_->read_at(cache_at_, cache_.data(), cache_.size()));
}

void ZipBytes::bad(std::string_view why) const {
  fail(ErrorKind::kInvalid, "{}: not a valid .npz (zip) file: {}", what_, why);
}

std::string_view ZipBytes::fetch(uint64_t at, uint64_t n) const {
  if (!file_) return whole_.substr(at, n);
  if (at < cache_at_ || at + n > cache_at_ + cache_.size()) {
    cache_at_ = at;
    cache_.resize(std::min<uint64_t>(std::max(n, kMinFetch), size_ - at));
    const size_t got = file_->read_at(at, cache_.data(), cache_.size());
    cache_.resize(got);
    if (got < n) bad("the file shrank while being read");
  }
  return std::string_view(cache_).substr(at - cache_at_, n);
}

uint64_t ZipBytes::le(uint64_t at, int n) const {
  if (at > size_ || static_cast<uint64_t>(n) > size_ - at) bad("truncated");
  const std::string_view b = fetch(at, static_cast<uint64_t>(n));
  uint64_t v = 0;
  for (int k = n - 1; k >= 0; --k) v = v << 8 | static_cast<uint8_t>(b[static_cast<size_t>(k)]);
  return v;
}

void ZipBytes::check_range(uint64_t at, uint64_t n) const {
  if (at > size_ || n > size_ - at) bad("an entry lies beyond the end of the file");
}

std::string_view ZipBytes::slice(uint64_t at, uint64_t n) const {
  check_range(at, n);
  return fetch(at, n);
}

void for_each_npz_member(const ZipBytes& r, const std::function<void(const ZipMember&)>& on_member) {
  const uint64_t size = r.size();
  if (size < 22) r.bad("too short");
  uint64_t end = size - 22;
  const uint64_t stop = size > 22 + 65535 ? size - 22 - 65535 : 0;
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
  r.check_range(cd_offset, cd_size);
  if (entries > cd_size / 46) r.bad("more entries than the central directory can hold");

  std::set<std::string> names;
  uint64_t at = cd_offset;
  for (uint64_t e = 0; e < entries; ++e) {
    if (r.le(at, 4) != kCentralSig) r.bad("bad central directory entry");
    ZipMember m;
    const uint64_t flags = r.le(at + 8, 2);
    m.method = r.le(at + 10, 2);
    m.crc = static_cast<uint32_t>(r.le(at + 16, 4));
    m.csize = r.le(at + 20, 4);
    m.usize = r.le(at + 24, 4);
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
        if (m.usize == 0xffffffff) m.usize = r.le(p, 8), p += 8;
        if (m.csize == 0xffffffff) m.csize = r.le(p, 8), p += 8;
        if (local == 0xffffffff) local = r.le(p, 8), p += 8;
        if (p > x + 4 + len) r.bad("short zip64 extra field");
      }
      x += 4 + len;
    }
    at += 46 + name_len + extra_len + comment_len;

    m.label = r.what() + ": " + name;
    if (flags & 1) fail(ErrorKind::kUnsupported, "{}: encrypted entries are not supported", m.label);
    if (name.size() < 5 || name.compare(name.size() - 4, 4, ".npy") != 0)
      fail(ErrorKind::kInvalid, "{}: an .npz entry must be a .npy file", m.label);
    m.key = name.substr(0, name.size() - 4);
    if (!names.insert(m.key).second) fail(ErrorKind::kInvalid, "{}: the archive holds '{}' twice", r.what(), m.key);
    if (r.le(local, 4) != kLocalSig) r.bad("bad local header");
    m.data_at = local + 30 + r.le(local + 26, 2) + r.le(local + 28, 2);
    r.check_range(m.data_at, m.csize);
    if (m.method == 0) {
      if (m.csize != m.usize) r.bad("a stored entry's sizes differ");
    } else if (m.method != 8) {
      fail(ErrorKind::kUnsupported, "{}: compression method {} is not supported (stored and deflated are)", m.label,
           m.method);
    }
    on_member(m);
  }
}

}  // namespace onnxrun
