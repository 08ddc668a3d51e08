// Copying into memory that will not be read again soon (a large output), with
// non-temporal stores: the destination is not read into the cache first, so the copy
// costs one write of memory rather than a read and a write.
#pragma once

#include <cstddef>

namespace onnxrun {

// Copies `bytes` bytes from `src` to `dst` (no overlap), streaming what lies on 16-byte
// aligned destinations, and fences the stores. Baseline x86-64 (SSE2); elsewhere memcpy.
void copy_streaming(void* dst, const void* src, size_t bytes);

}  // namespace onnxrun
