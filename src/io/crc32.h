// CRC-32 (zip's, zlib's crc32) at memory speed. zlib 1.2.13's table-driven crc32 runs at
// about 1 GB/s here, which made an .npz member (read: checked; written: computed) cost
// three to four times copying its bytes. On a CPU with PCLMULQDQ (every x86-64 since
// 2010) the data is folded 64 bytes at a time with carry-less multiplies (Intel,
// "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ", 2009), the same
// result bit for bit; elsewhere, and under ONNXRUN_ISA=scalar (the hardware
// configuration's pclmul, core/hardware.h), zlib's crc32 does it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace onnxrun {

// The CRC-32 of `n` bytes at `data` continued from `crc` (0 to start), as zlib's
// crc32(crc, data, n) gives it.
uint32_t crc32_update(uint32_t crc, const void* data, size_t n);

}  // namespace onnxrun
