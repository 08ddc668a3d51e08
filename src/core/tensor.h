// Tensor: an element type, a shape and a flat, contiguous, row-major buffer.
//
// The buffer is shared (copying a Tensor copies a reference, not the data) and is either
// owned (64-byte aligned heap memory) or borrowed (a view into memory someone else keeps
// alive, such as a mapped file; the Buffer holds a reference to that owner). Borrowed
// buffers may be read-only. A Tensor is not thread safe for concurrent writes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/dtype.h"

namespace onnxrun {

using Shape = std::vector<int64_t>;

// "[3,4,5]" ("[]" for a 0-d scalar).
std::string shape_to_string(const Shape& shape);

// The most dimensions a shape may have. ONNX sets none; this is far above any real model
// (a few dozen at most). It keeps a tiny file (a 60 KB .pb declaring rank 30,000) from
// making every later step (binding, broadcasting, printing) pay per dimension.
inline constexpr size_t kMaxRank = 1024;

// Throws Error(kInvalid) when `rank` > kMaxRank. Every shape that enters onnx-run (tensor
// files, model value infos and tensors, command-line shapes) passes through here, most of
// them by way of checked_numel.
void check_rank(size_t rank);

// Number of elements; 1 for a 0-d shape. Throws Error(kInvalid) on a rank above kMaxRank
// or a negative dim, and Error(kSecurity) when the count or its byte size for `t` would
// overflow 64 bits.
int64_t checked_numel(const Shape& shape);
size_t checked_nbytes(DType t, const Shape& shape);

// A value as its sinks and writers know it before its data: name, type and whole shape.
struct ValueSpec {
  std::string name;
  DType dtype = DType::kFloat;
  Shape shape;
};

class Buffer {
 public:
  static constexpr size_t kAlignment = 64;

  // Uninitialised, 64-byte aligned, writable memory of `bytes` bytes. Throws
  // Error(kSecurity) naming `what` when the bytes do not fit the memory limit
  // (memory_limit.h), before any is allocated. Large buffers (kLargeBytes and up) are
  // mapped with transparent huge pages asked for, so that first touching them costs few
  // page faults, and on release a few are kept for reuse by the next allocation that
  // fits (a run repeated by `bench` then touches no fresh memory). Mid-size buffers
  // (1 KiB up to kLargeBytes) come in power-of-two sizes from a small per-thread cache,
  // so a run's output costs no trip through malloc. A streamed run's 1 MiB blocks are
  // large: their first touch then costs a fault per 2 MiB page, not 256 faults
  // (docs/perf.md, "Huge-page blocks").
  static constexpr size_t kLargeBytes = size_t{1} << 20;
  static std::shared_ptr<Buffer> allocate(size_t bytes, std::string_view what = "a tensor buffer");
  // A view of `bytes` bytes at `data`, kept valid by `owner`.
  static std::shared_ptr<Buffer> borrow(const void* data, size_t bytes, std::shared_ptr<const void> owner,
                                        bool writable);

  // For std::make_shared only (one allocation for the buffer and its count); the key
  // keeps everyone else to allocate() and borrow().
  class Key {
    friend class Buffer;
    Key() = default;
  };
  Buffer(Key, std::byte* data, size_t size, bool owned, bool writable, std::shared_ptr<const void> owner) noexcept
      : data_(data), size_(size), owned_(owned), writable_(writable), owner_(std::move(owner)) {}
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer();

  const std::byte* data() const { return data_; }
  std::byte* mutable_data();  // REQUIRES: writable()
  size_t size() const { return size_; }
  bool writable() const { return writable_; }

 private:
  // allocate() without the memory-limit accounting, which allocate() does around it.
  static std::shared_ptr<Buffer> allocate_uncounted(size_t bytes);
  // An owned buffer over `data`, got from the cache class `size_class`, a mapping of
  // `mapped` bytes, or (both unset) aligned_alloc; `data` is freed if this throws.
  static std::shared_ptr<Buffer> adopt(std::byte* data, size_t bytes, int size_class, size_t mapped);
  static void free_owned(std::byte* data, int size_class, size_t mapped);

  std::byte* data_;
  size_t size_;
  bool owned_;
  bool writable_;
  std::shared_ptr<const void> owner_;
  size_t mapped_ = 0;    // owned memory from large_alloc(): its mapped length
  int size_class_ = -1;  // owned memory from the per-thread cache of mid-size blocks
};

class Tensor {
 public:
  Tensor() = default;  // an empty handle: !valid()

  // A new tensor with uninitialised owned storage.
  Tensor(DType dtype, Shape shape);
  // A tensor over an existing buffer. REQUIRES: buffer->size() >= the tensor's byte size.
  Tensor(DType dtype, Shape shape, std::shared_ptr<Buffer> buffer);

  bool valid() const { return buffer_ != nullptr; }
  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  size_t rank() const { return shape_.size(); }
  int64_t numel() const { return numel_; }
  size_t nbytes() const { return numel_ * dtype_size(dtype_); }

  const void* raw() const { return buffer_->data(); }
  void* mutable_raw() { return buffer_->mutable_data(); }
  template <typename T>
  const T* data() const {
    return static_cast<const T*>(raw());
  }
  template <typename T>
  T* mutable_data() {
    return static_cast<T*>(mutable_raw());
  }

  // True when writing into this tensor's buffer can be seen by no other holder:
  // the buffer is writable and this handle is its only owner.
  bool can_overwrite() const { return buffer_ && buffer_->writable() && buffer_.use_count() == 1; }

  const std::shared_ptr<Buffer>& buffer() const { return buffer_; }

  // "float16[3,4]"
  std::string describe() const;

 private:
  friend Tensor overwrite_or_allocate(Tensor& x);
  void allocate(size_t bytes);  // an owned buffer of `bytes`, counted against the memory limit

  DType dtype_ = DType::kUndefined;
  Shape shape_;
  int64_t numel_ = 0;
  std::shared_ptr<Buffer> buffer_;
};

// Where an elementwise result of `x` goes: x itself, moved out of `x`, when writing into
// its buffer can be seen by no other holder (can_overwrite); else a new tensor of its type
// that takes x's shape over, x keeping only its buffer (alive for the data pointer read
// before). Either way nothing is copied: a copied shape is an allocation and a free more
// for every run of a small tensor. Read what is needed of `x` (its data pointer) first;
// after this, x is good only for reading that pointer and for dropping.
Tensor overwrite_or_allocate(Tensor& x);

}  // namespace onnxrun
