// Large writes at a file position whose offset within its page differs from the data's
// offset within its page by a few bytes, as a .pb tensor's data does (its header is some
// 15 bytes, so data from a page-aligned block lands 15 bytes into each page), go through
// a small staging buffer placed at the file position's own page offset; any other write
// goes straight to the file. Measured (docs/perf.md, "Writes at a page offset", where the
// machine is named): the kernel's copy into the page cache ran such writes at about half
// speed, and a float16 .npy -> .pb run took 119-130 ms of wall with the staging against
// 198-229 ms without.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace onnxrun {

// True when the kernel's copy of data into the file at `position` is of the slow kind
// above: the distance from the data's address to the position, modulo a page, is short
// (under 64 bytes either way) but not zero.
bool is_short_distance_copy(const void* data, uint64_t position);

// All n bytes to `fd` at `position` (pwrite) or, with sequential, at its current offset,
// which is `position` (write: a file opened for appending in order), staged when
// is_short_distance_copy. Throws Error(kIo) "cannot write PATH: ..." as write_bytes_at.
void write_page_matched(int fd, const void* data, size_t n, uint64_t position, bool sequential,
                        const std::string& path);

}  // namespace onnxrun
