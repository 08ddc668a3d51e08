// The one hardware configuration (core/hardware.h): levels by name, ONNXRUN_ISA's cap,
// and every kernel family following it (the statistics here; LeakyRelu and the body ops in
// tests/unit/ops, through the binary in tests/cli/verbose_test.cc).
#include <catch2/catch.hpp>

#include <string>

#include "core/error.h"
#include "core/hardware.h"
#include "core/tensor_stats_chunk.h"

using namespace onnxrun;

TEST_CASE("ISA levels are found by name, in order", "[hardware]") {
  for (IsaLevel l : {IsaLevel::kScalar, IsaLevel::kAvx2, IsaLevel::kAvx512, IsaLevel::kAvx512Bf16})
    CHECK(find_isa_level(isa_level_name(l)) == l);
  CHECK_FALSE(find_isa_level("sse9"));
  HardwareConfig h;
  h.level = IsaLevel::kAvx512;
  CHECK(h.has(IsaLevel::kScalar));
  CHECK(h.has(IsaLevel::kAvx2));
  CHECK(h.has(IsaLevel::kAvx512));
  CHECK_FALSE(h.has(IsaLevel::kAvx512Bf16));
}

TEST_CASE("ONNXRUN_ISA caps the configuration, and refuses what the CPU lacks", "[hardware]") {
  HardwareConfig cpu;
  cpu.level = IsaLevel::kAvx512;
  cpu.pclmul = true;
  CHECK(capped_hardware(cpu, nullptr).level == IsaLevel::kAvx512);
  CHECK(capped_hardware(cpu, "").level == IsaLevel::kAvx512);
  CHECK(capped_hardware(cpu, "avx2").level == IsaLevel::kAvx2);
  CHECK(capped_hardware(cpu, "avx2").pclmul);
  const HardwareConfig scalar = capped_hardware(cpu, "scalar");
  CHECK(scalar.level == IsaLevel::kScalar);
  CHECK_FALSE(scalar.pclmul);  // CRC-32 by zlib's tables too
  CHECK_THROWS_WITH(capped_hardware(cpu, "sse9"),
                    Catch::Contains("ONNXRUN_ISA=sse9: unknown kernel path (known: scalar|avx2|avx512|avx512bf16)"));
  CHECK_THROWS_WITH(capped_hardware(cpu, "avx512bf16"), Catch::Contains("this CPU cannot run that kernel path"));
  CHECK_THROWS_AS(capped_hardware(cpu, "sse9"), Error);
}

TEST_CASE("the statistics take the path of the configuration, the portable one at scalar", "[hardware][stats]") {
  const HardwareConfig& cpu = cpu_hardware();
  CHECK(std::string(stats_kernels_for(capped_hardware(cpu, "scalar")).name) == "portable");
  if (cpu.has(IsaLevel::kAvx2)) CHECK(std::string(stats_kernels_for(capped_hardware(cpu, "avx2")).name) == "avx2");
  if (cpu.has(IsaLevel::kAvx512))
    CHECK(std::string(stats_kernels_for(capped_hardware(cpu, "avx512")).name) == "avx512");
  CHECK(&stats_active_kernels() == &stats_kernels_for(hardware_config()));
}
