// crc32_update (io/crc32.h): the carry-less-multiply path gives zip's CRC-32 for every
// length and alignment, continued from any value, as the plain bitwise definition does.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "io/crc32.h"

using namespace onnxrun;

namespace {

// CRC-32 one bit at a time (reflected, polynomial 0xEDB88320), continued from `crc`.
uint32_t crc_bitwise(uint32_t crc, const unsigned char* p, size_t n) {
  crc = ~crc;
  for (size_t k = 0; k < n; ++k) {
    crc ^= p[k];
    for (int b = 0; b < 8; ++b) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

}  // namespace

TEST_CASE("crc32_update is zip's CRC-32 for every length, alignment and start", "[io][crc32]") {
  std::vector<unsigned char> b(70000);
  std::mt19937 rng(3);
  for (auto& c : b) c = static_cast<unsigned char>(rng());
  CHECK(crc32_update(0, "123456789", 9) == 0xCBF43926u);  // the standard check value
  CHECK(crc32_update(0, nullptr, 0) == 0);
  for (size_t n : {0, 1, 15, 16, 17, 63, 64, 65, 79, 80, 127, 128, 129, 1000, 4093, 65536, 69990})
    for (size_t offset : {0, 1, 7}) {
      for (uint32_t start : {0u, 0xCBF43926u, 0xFFFFFFFFu}) {
        INFO("n " << n << ", offset " << offset << ", start " << start);
        CHECK(crc32_update(start, b.data() + offset, n) == crc_bitwise(start, b.data() + offset, n));
      }
    }
  // In pieces of any size: the same as in one.
  uint32_t whole = crc32_update(0, b.data(), b.size()), pieces = 0;
  for (size_t at = 0, step = 1; at < b.size(); at += step, step = step * 3 + 1)
    pieces = crc32_update(pieces, b.data() + at, std::min(step, b.size() - at));
  CHECK(pieces == whole);
}
