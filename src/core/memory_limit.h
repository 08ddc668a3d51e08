// A process-wide ceiling on the memory that tensors may hold, so that a hostile or
// mistaken model or input is refused with its sizes named instead of exhausting the
// machine. Every owned tensor buffer is counted (Buffer::allocate reserves its bytes
// before asking the system for them, its destructor gives them back); whole files read
// into memory are checked against what is free before they are read. Mapped files are
// not counted: the kernel pages them in and out as needed.
//
// Thread safe. The default limit is default_memory_limit(); the command line changes it
// with --max-memory.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace onnxrun {

// Three quarters of physical memory, or of the cgroup's memory.max when that is lower.
size_t default_memory_limit();

size_t memory_limit();
void set_memory_limit(size_t bytes);

// Bytes held by owned tensor buffers right now.
size_t memory_in_use();

// Counts `bytes` as in use. Throws Error(kSecurity) naming `what`, the bytes it needs,
// what is in use and the limit, and counts nothing, when they would not fit.
void reserve_memory(size_t bytes, std::string_view what);
void release_memory(size_t bytes);

// Memory counted for as long as the object lives (for memory that is not a tensor
// buffer, such as a whole file read in). Movable, not copyable.
class MemoryReservation {
 public:
  MemoryReservation() = default;
  // Throws like reserve_memory.
  MemoryReservation(size_t bytes, std::string_view what) : bytes_(bytes) { reserve_memory(bytes, what); }
  MemoryReservation(MemoryReservation&& o) noexcept : bytes_(o.bytes_) { o.bytes_ = 0; }
  MemoryReservation& operator=(MemoryReservation&& o) noexcept {
    if (this != &o) {
      release_memory(bytes_);
      bytes_ = o.bytes_;
      o.bytes_ = 0;
    }
    return *this;
  }
  MemoryReservation(const MemoryReservation&) = delete;
  MemoryReservation& operator=(const MemoryReservation&) = delete;
  ~MemoryReservation() { release_memory(bytes_); }

 private:
  size_t bytes_ = 0;
};

// Throws like reserve_memory when `bytes` more would not fit now; counts nothing.
void check_memory_fits(size_t bytes, std::string_view what);

// "512M", "4G", "1.5GiB", "1000000" (bytes) -> bytes; suffixes K, M, G, T are powers
// of 1024, with an optional "iB"/"B". Throws Error(kUsage) on anything else, zero included.
size_t parse_memory_size(std::string_view text);

// "1.50 GiB (1610612736 bytes)"
std::string format_bytes(size_t bytes);

}  // namespace onnxrun
