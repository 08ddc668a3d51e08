// The command line and plan-time fusion: --print-graph and info (text and JSON) say what
// is fused, --no-fuse turns it off, and every door (-o, --json, test-set mode, onnx-run
// test, bench, --dump-intermediates) gives the same bits fused and unfused.
#include <catch2/catch.hpp>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/half.h"
#include "io/streamed_tensor_file.h"
#include "io/tensor_file.h"
#include "support/check_exit.h"
#include "support/fusion_models.h"
#include "support/model_builder.h"
#include "support/paths.h"
#include "support/process.h"
#include "support/shortcuts.h"

using namespace onnxrun;
using namespace onnxrun::test;

namespace {

// body.onnx (LeakyRelu-16 written out, float16, alpha 0.2), chain.onnx (three LeakyRelus),
// x.pb (every float16 pattern), and body/test_data_set_0 with the expected output that a
// single fused LeakyRelu node computes.
struct Models {
  TempDir dir;
  std::string body = dir.file("body/model.onnx");
  std::string chain = dir.file("chain.onnx");
  std::string x = dir.file("x.pb");
  Models() {
    std::filesystem::create_directories(dir.file("body/test_data_set_0"));
    write_file(body, serialize(leaky_body_model(10, 65536, 0.2f)));
    write_file(chain, serialize(leaky_chain_model(10, 65536, {0.2f, -0.5f, 3.0f})));
    write_file(dir.file("single.onnx"), serialize(leaky_chain_model(10, 65536, {0.2f})));
    write_tensor_file(x, all_16_bit_patterns(DType::kFloat16), "x");
    write_tensor_file(dir.file("body/test_data_set_0/input_0.pb"), all_16_bit_patterns(DType::kFloat16), "x");
    const ProcessResult r = run_cli({dir.file("single.onnx"), "-q", "-i", x, "-o", dir.file("expected")});
    REQUIRE_EXIT(r, 0);
    std::filesystem::copy_file(dir.file("expected/output_0.pb"), dir.file("body/test_data_set_0/output_0.pb"));
  }
};

}  // namespace

TEST_CASE("cli: --print-graph shows the written-out body run as one LeakyRelu, and --no-fuse the body",
          "[cli][fusion]") {
  Models m;
  const ProcessResult fused = run_cli({m.body, "--print-graph"});
  REQUIRE_EXIT(fused, 0);
  REQUIRE_THAT(fused.out, Catch::Contains("'where' LeakyRelu v16 (16+): (x) -> (y) {alpha=0.2}"));
  REQUIRE_THAT(fused.out, Catch::Contains("recognised 'where' LeakyRelu v16 (16+): function body of 5 nodes"));
  REQUIRE_THAT(fused.out, !Catch::Contains("Where v16"));
  const ProcessResult plain = run_cli({m.body, "--print-graph", "--no-fuse"});
  REQUIRE_EXIT(plain, 0);
  REQUIRE_THAT(plain.out, Catch::Contains("'where' Where v16 (16+)"));
  REQUIRE_THAT(plain.out, Catch::Contains("fusion\n  (none)\n"));
  const ProcessResult chain = run_cli({m.chain, "--print-graph"});
  REQUIRE_EXIT(chain, 0);
  REQUIRE_THAT(chain.out, Catch::Contains("fused      'leaky0' -> 'leaky1' -> 'leaky2': one pass per block"));
}

TEST_CASE("cli: info says what the plan fuses, in text and JSON", "[cli][fusion]") {
  Models m;
  const ProcessResult text = run_cli({"info", m.body});
  REQUIRE_EXIT(text, 0);
  REQUIRE_THAT(text.out, Catch::Contains("fusion (as it runs; --no-fuse runs each node alone):\n  recognised 'where'"));
  const ProcessResult json = run_cli({"info", m.chain, "--json"});
  REQUIRE_EXIT(json, 0);
  const auto j = nlohmann::json::parse(json.out);
  REQUIRE(j["fusion"]["chains"] == nlohmann::json::array({{"leaky0", "leaky1", "leaky2"}}));
  REQUIRE(j["fusion"]["recognised"].empty());
  const auto b = nlohmann::json::parse(run_cli({"info", m.body, "--json"}).out);
  REQUIRE(b["fusion"]["recognised"][0]["op"] == "LeakyRelu v16 (16+)");
  REQUIRE(b["fusion"]["recognised"][0]["what"] == "function body");
  REQUIRE(b["fusion"]["recognised"][0]["replaced"].size() == 5);
}

TEST_CASE("cli: a value read by several chains is read once, shown by info and checked by its test sets",
          "[cli][fusion]") {
  const std::string fanout = testdata_dir() + "/graph_chain_fanout/model.onnx";
  const ProcessResult text = run_cli({"info", fanout});
  REQUIRE_EXIT(text, 0);
  CHECK_THAT(text.out, Catch::EndsWith("  fused      'second' -> 'third': one pass per block\n"
                                       "  fused      'a' read once by 'second', 'fanout': one pass per block\n"));
  const auto j = nlohmann::json::parse(run_cli({"info", fanout, "--json"}).out);
  CHECK(j["fusion"]["fanouts"].dump() == R"([{"branches":["second","fanout"],"input":"a"}])");  // json sorts keys
  for (bool no_fuse : {false, true}) {
    std::vector<std::string> args = {fanout, "--rtol", "0", "--atol", "0"};
    if (no_fuse) args.push_back("--no-fuse");
    const ProcessResult r = run_cli(args);
    CHECK_EXIT(r, 0);
    CHECK_THAT(r.out, Catch::Contains("2 of 2 test sets passed"));
  }
  CHECK_THAT(run_cli({fanout, "--print-graph"}).out, Catch::Contains("'a' read once by 'second', 'fanout'"));
  CHECK_THAT(run_cli({fanout, "--print-graph", "--no-fuse"}).out, !Catch::Contains("read once"));
}

TEST_CASE("cli: -o and --json give the same bits fused and with --no-fuse", "[cli][fusion]") {
  Models m;
  for (const std::string& model : {m.body, m.chain}) {
    INFO(model);
    const ProcessResult a = run_cli({model, "-q", "-i", m.x, "-o", m.dir.file("fused")});
    const ProcessResult b = run_cli({model, "-q", "--no-fuse", "-i", m.x, "-o", m.dir.file("plain")});
    REQUIRE_EXIT(a, 0);
    REQUIRE_EXIT(b, 0);
    REQUIRE(read_file(m.dir.file("fused/output_0.pb")) == read_file(m.dir.file("plain/output_0.pb")));
    const ProcessResult ja = run_cli({model, "--json", "--full", "-i", m.x});
    const ProcessResult jb = run_cli({model, "--json", "--full", "--no-fuse", "-i", m.x});
    REQUIRE_EXIT(ja, 0);
    REQUIRE_EXIT(jb, 0);
    auto oa = nlohmann::json::parse(ja.out)["outputs"], ob = nlohmann::json::parse(jb.out)["outputs"];
    REQUIRE(oa == ob);
  }
  // The body, fused, writes the single node's bits.
  REQUIRE(read_file(m.dir.file("expected/output_0.pb")) == read_file(m.dir.file("body/test_data_set_0/output_0.pb")));
}

TEST_CASE("cli: test-set mode and onnx-run test pass fused and with --no-fuse", "[cli][fusion]") {
  Models m;
  for (const std::vector<std::string>& extra : {std::vector<std::string>{}, std::vector<std::string>{"--no-fuse"}}) {
    std::vector<std::string> run = {m.body, "--atol", "0", "--rtol", "0"};
    run.insert(run.end(), extra.begin(), extra.end());
    const ProcessResult r = run_cli(run);
    REQUIRE_EXIT(r, 0);
    REQUIRE_THAT(r.out, Catch::Contains("test_data_set_0: passed"));
    std::vector<std::string> test = {"test", m.dir.file("body"), "--atol", "0", "--rtol", "0"};
    test.insert(test.end(), extra.begin(), extra.end());
    const ProcessResult t = run_cli(test);
    REQUIRE_EXIT(t, 0);
    REQUIRE_THAT(t.out, Catch::Contains("1 passed"));
  }
}

TEST_CASE("cli: bench times the fused and the unfused plan", "[cli][fusion]") {
  Models m;
  for (const char* flag : {"--no-fuse", "--expand-functions", "-q"}) {
    const ProcessResult r = run_cli({"bench", m.body, "--repeat", "2", "--warmup", "0", flag});
    REQUIRE_EXIT(r, 0);
  }
}

TEST_CASE("cli: --dump-intermediates runs unfused, so every value of the body is written", "[cli][fusion]") {
  Models m;
  const ProcessResult r = run_cli({m.body, "-q", "-i", m.x, "--dump-intermediates", m.dir.file("dump")});
  REQUIRE_EXIT(r, 0);
  for (const char* value : {"XLessThanZero", "AlphaMulX", "AlphaCast", "ZeroCast", "y"})
    REQUIRE(std::filesystem::exists(m.dir.file("dump/" + std::string(value) + ".pb")));
}
