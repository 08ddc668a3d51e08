// The nearest option or command for a slip of the keyboard (cli/suggest.h).
#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "cli/suggest.h"

using namespace onnxrun;
using namespace onnxrun::cli;

TEST_CASE("suggestions find the nearest name within a slip of the keyboard", "[suggest]") {
  CHECK(edit_distance("tset", "test") == 1);
  CHECK(edit_distance("inof", "info") == 1);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(nearest_name("tset", {"run", "info", "test", "bench"}) == std::optional<std::string>("test"));
  CHECK(nearest_name("bnech", {"run", "info", "test", "bench"}) == std::optional<std::string>("bench"));
  CHECK_FALSE(nearest_name("model", {"run", "info", "test", "bench"}));
  CHECK(nearest_name("--ful", {"--full", "--json"}) == std::optional<std::string>("--full"));
  CHECK_FALSE(misspelt_command("tset.onnx", {"test"}));  // looks like a file: not a command
  CHECK_FALSE(misspelt_command("-i", {"info"}));
  CHECK(misspelt_command("inf", {"run", "info"}) == std::optional<std::string>("info"));
}
