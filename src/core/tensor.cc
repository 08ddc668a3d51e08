#include "core/tensor.h"

#include <cstdlib>
#include <new>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.h"
#include "core/memory_limit.h"

namespace onnxrun {

std::string shape_to_string(const Shape& shape) { return fmt::format("[{}]", fmt::join(shape, ",")); }

int64_t checked_numel(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) fail(ErrorKind::kInvalid, "negative dimension {} in shape {}", d, shape_to_string(shape));
    if (d != 0 && n > INT64_MAX / d)
      fail(ErrorKind::kSecurity, "shape {} has more elements than 2^63", shape_to_string(shape));
    n *= d;
  }
  // A zero dim anywhere makes the count 0 even if earlier dims were huge.
  for (int64_t d : shape)
    if (d == 0) return 0;
  return n;
}

size_t checked_nbytes(DType t, const Shape& shape) {
  const int64_t n = checked_numel(shape);
  const size_t size = dtype_size(t);
  if (size == 0) fail(ErrorKind::kUnsupported, "element type {} cannot be held in a tensor", dtype_name(t));
  if (static_cast<uint64_t>(n) > SIZE_MAX / size)
    fail(ErrorKind::kSecurity, "{}{} needs more than 2^64 bytes", dtype_name(t), shape_to_string(shape));
  return static_cast<size_t>(n) * size;
}

std::shared_ptr<Buffer> Buffer::allocate(size_t bytes, std::string_view what) {
  // aligned_alloc wants a multiple of the alignment; never ask for 0 bytes.
  const size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  if (rounded < bytes) throw std::bad_alloc();
  // Counted against the memory limit before the system is asked (memory_limit.h).
  reserve_memory(bytes, what);
  void* p = std::aligned_alloc(kAlignment, rounded == 0 ? kAlignment : rounded);
  if (!p) {
    release_memory(bytes);
    throw std::bad_alloc();
  }
  return std::shared_ptr<Buffer>(new Buffer(static_cast<std::byte*>(p), bytes, true, true, nullptr));
}

std::shared_ptr<Buffer> Buffer::borrow(const void* data, size_t bytes,
                                       std::shared_ptr<const void> owner, bool writable) {
  // The const_cast is safe: mutable_data() refuses to hand it out unless writable.
  auto* p = static_cast<std::byte*>(const_cast<void*>(data));
  return std::shared_ptr<Buffer>(new Buffer(p, bytes, false, writable, std::move(owner)));
}

Buffer::~Buffer() {
  if (owned_) {
    std::free(data_);
    release_memory(size_);
  }
}

std::byte* Buffer::mutable_data() {
  if (!writable_) fail(ErrorKind::kInternal, "write to a read-only tensor buffer");
  return data_;
}

Tensor::Tensor(DType dtype, Shape shape)
    : dtype_(dtype), shape_(std::move(shape)), numel_(checked_numel(shape_)) {
  buffer_ = Buffer::allocate(checked_nbytes(dtype_, shape_), describe());
}

Tensor::Tensor(DType dtype, Shape shape, std::shared_ptr<Buffer> buffer)
    : dtype_(dtype), shape_(std::move(shape)), numel_(checked_numel(shape_)), buffer_(std::move(buffer)) {
  if (!buffer_ || buffer_->size() < checked_nbytes(dtype_, shape_))
    fail(ErrorKind::kInternal, "buffer too small for {}", describe());
}

std::string Tensor::describe() const { return fmt::format("{}{}", dtype_name(dtype_), shape_to_string(shape_)); }

}  // namespace onnxrun
