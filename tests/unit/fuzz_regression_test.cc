// Inputs the fuzzers reported (tools/fuzz), kept so that each stays answered by an
// Error and nothing worse. Add a row for every crash, timeout or leak before fixing it.
#include <catch2/catch.hpp>

#include <string>

#include "core/error.h"
#include "model/load.h"

using namespace onnxrun;

namespace {

struct FuzzCase {
  const char* what;
  std::string bytes;
};

const FuzzCase kModelCases[] = {
    // fuzz_model reported a 10 s timeout (libFuzzer -timeout=10) while the machine was
    // busy with two compiles; alone it loads in well under a millisecond. Kept because
    // it parses as a ModelProto full of unknown fields.
    {"timeout under load, unknown fields",
     std::string("\x38\x38\x30\x30\x30\x30\x30\x31\x31\x2e\x36\x36\x32\x33\x5d\x32\x32\x38\x38\x32\xd3\x8b\x9a\x34\x6e"
                 "\x6e\x78\x72\x75\x05\x6c\x25\x61\x6b\x10",
                 35)},
};

}  // namespace

TEST_CASE("model bytes found by fuzzing are refused with an Error", "[fuzz-regression]") {
  for (const FuzzCase& c : kModelCases) {
    INFO(c.what);
    CHECK_THROWS_AS(load_model_from_bytes(c.bytes.data(), c.bytes.size(), ""), Error);
  }
}
