// `onnx-run bench`, `--threads`, ONNXRUN_ISA and block-by-block runs, through the binary.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/tensor.h"
#include "io/npz.h"
#include "io/streamed_tensor_file.h"
#include "onnx/onnx.pb.h"
#include "support/check_exit.h"
#include "support/paths.h"
#include "support/process.h"
#include "support/shortcuts.h"

using namespace onnxrun::test;

namespace {

std::string write_model(const TempDir& tmp, int elem_type) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  auto* op = m.add_opset_import();
  op->set_version(16);
  auto* g = m.mutable_graph();
  g->set_name("g");
  for (auto* v : {g->add_input(), g->add_output()}) {
    v->mutable_type()->mutable_tensor_type()->set_elem_type(elem_type);
    v->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_param("N");
  }
  g->mutable_input(0)->set_name("x");
  g->mutable_output(0)->set_name("y");
  auto* n = g->add_node();
  n->set_op_type("LeakyRelu");
  n->add_input("x");
  n->add_output("y");
  const std::string path = tmp.file("model.onnx");
  std::ofstream(path, std::ios::binary) << m.SerializeAsString();
  return path;
}

std::string slurp(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

}  // namespace

TEST_CASE("bench --json prints one object with the statistics", "[cli][bench]") {
  TempDir tmp;
  const std::string model = write_model(tmp, 1);
  auto r = run_cli({"bench", model, "--shape", "x=1000", "--repeat", "7", "--warmup", "1", "--threads", "2", "--json"});
  REQUIRE_EXIT(r, 0);
  // Indented by 2, as every other --json document (it was one line).
  CHECK_THAT(r.out, Catch::StartsWith("{\n  \"what\": "));
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("runs") == 7);
  CHECK(j.at("threads") == 2);
  CHECK(j.at("bytes_per_run") == 8000);  // 1,000 floats read and 1,000 written
  CHECK(j.at("elements_per_run") == 1000);
  const int64_t min = j.at("min_ns"), median = j.at("median_ns"), p90 = j.at("p90_ns"), p99 = j.at("p99_ns"),
                max = j.at("max_ns");
  CHECK((0 < min && min <= median && median <= p90 && p90 <= p99 && p99 <= max));
  CHECK(j.at("peak_rss_bytes").get<int64_t>() > 0);
  CHECK(j.at("gb_per_s").get<double>() > 0);
}

TEST_CASE("bench reads inputs with -i and prints text", "[cli][bench]") {
  TempDir tmp;
  const std::string model = write_model(tmp, 10);
  onnx::TensorProto t;
  t.set_name("x");
  t.set_data_type(10);
  t.add_dims(4);
  t.set_raw_data(std::string(8, '\x80'));
  std::ofstream(tmp.file("x.pb"), std::ios::binary) << t.SerializeAsString();
  auto r = run_cli({"bench", model, "-i", "x=" + tmp.file("x.pb"), "--repeat", "3"});
  REQUIRE_EXIT(r, 0);
  CHECK_THAT(r.out, Catch::Contains("3 runs"));
  CHECK_THAT(r.out, Catch::Contains("p50"));
  CHECK_THAT(r.out, Catch::Contains("GB/s"));
  CHECK_THAT(r.out, Catch::Contains("peak RSS"));
}

TEST_CASE("bench reads inputs from an .npz with --npz, as a run does", "[cli][bench]") {
  TempDir tmp;
  const std::string model = write_model(tmp, 1);
  onnxrun::write_npz_file(tmp.file("in.npz"), {{"x", onnxrun::Tensor(onnxrun::DType::kFloat, onnxrun::Shape{1000})}});
  auto r = run_cli({"bench", model, "--npz", tmp.file("in.npz"), "--repeat", "3", "--json"});
  REQUIRE_EXIT(r, 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  CHECK(j["runs"] == 3);
  CHECK(j["elements_per_run"] == 1000);
  // -i with the .npz names the option that reads it, and bench has it.
  r = run_cli({"bench", model, "-i", "x=" + tmp.file("in.npz")});
  CHECK_EXIT(r, 2);
  CHECK_THAT(r.err, Catch::Contains("--npz"));
  CHECK_EXIT(run_cli({"bench", model, "--npz", tmp.file("in.npz"), "--shape", "x=4"}), 2);
}

TEST_CASE("bench prints p50 to p99.9, and labels those beyond its runs as the max", "[cli][bench]") {
  TempDir tmp;
  const std::string model = write_model(tmp, 1);
  auto text = run_cli({"bench", model, "--shape", "x=100", "--repeat", "40", "--warmup", "0"});
  REQUIRE_EXIT(text, 0);
  CHECK_THAT(text.out, Catch::Contains("40 runs after 0 warm-up"));
  CHECK(std::regex_search(text.out, std::regex("  p50 [0-9.]+ [nmu]?s  p90 [0-9.]+ [nmu]?s  p95 [0-9.]+ [nmu]?s  "
                                               "p99 \\(max of 40 runs\\) [0-9.]+ [nmu]?s  "
                                               "p99\\.9 \\(max of 40 runs\\) [0-9.]+ [nmu]?s\n")));

  auto j = nlohmann::json::parse(
      run_cli({"bench", model, "--shape", "x=100", "--repeat", "100", "--warmup", "0", "--json"}).out);
  CHECK(j.at("runs") == 100);
  CHECK(j.at("duration_s") == 0);
  const auto& p = j.at("percentiles");
  std::vector<std::string> names;
  for (const auto& [name, value] : p.items()) names.push_back(name);
  CHECK(names == std::vector<std::string>{"p50", "p90", "p95", "p99", "p99.9"});
  for (const char* name : {"p50", "p90", "p95", "p99"}) CHECK(p.at(name).at("is_max") == false);
  CHECK(p.at("p99.9").at("is_max") == true);
  CHECK(p.at("p99.9").at("ns") == j.at("max_ns"));
  CHECK(p.at("p50").at("ns") == j.at("median_ns"));
  CHECK(p.at("p50").at("ns") <= p.at("p95").at("ns"));
  CHECK(p.at("p95").at("ns") <= p.at("p99").at("ns"));
}

TEST_CASE("bench says when it timed runs in batches, in its text and its JSON", "[cli][bench]") {
  // A 64-byte memcpy takes nanoseconds, and is batched unless every warm-up run was slow
  // (a cold process under load): the text and JSON say which (timed_runs is held to its
  // batches in the unit tests).
  auto text = run_cli({"bench", "--memcpy", "64", "--threads", "1", "--repeat", "1000"});
  REQUIRE_EXIT(text, 0);
  std::smatch m;
  REQUIRE(std::regex_search(text.out, m, std::regex("1000 runs( in batches of ([0-9]+))? after 3 warm-up")));
  if (m[1].matched) {
    const int batch = std::stoi(m[2]);
    CHECK(batch > 1);
    const int batches = (1000 + batch - 1) / batch;
    CHECK_THAT(text.out, Catch::Contains(fmt::format("p99.9 (max of {} batch{})", batches, batches == 1 ? "" : "es")));
  } else {
    CHECK_THAT(text.out, !Catch::Contains("(max of"));  // 1000 runs suffice for p99.9
  }

  auto json = run_cli({"bench", "--memcpy", "64", "--threads", "1", "--repeat", "3", "--json"});
  REQUIRE_EXIT(json, 0);
  const auto j = nlohmann::json::parse(json.out);
  CHECK(j.at("runs") == 3);
  CHECK(j.at("batch").get<int>() <= 3);  // a batch holds at most the runs asked for

  // Without warm-up nothing tells how long a run takes: each is timed alone.
  TempDir tmp;
  auto alone = run_cli({"bench", write_model(tmp, 1), "--shape", "x=100", "--repeat", "64", "--warmup", "0", "--json"});
  REQUIRE_EXIT(alone, 0);
  CHECK(nlohmann::json::parse(alone.out).at("batch") == 1);
}

TEST_CASE("bench --duration runs for that long instead of --repeat", "[cli][bench]") {
  TempDir tmp;
  const std::string model = write_model(tmp, 1);
  auto text = run_cli({"bench", model, "--shape", "x=100", "--duration", "0.3"});
  REQUIRE_EXIT(text, 0);
  std::smatch m;
  REQUIRE(std::regex_search(text.out, m, std::regex("([0-9]+) runs in 0.3 s( in batches of [0-9]+)? after 3 warm-up")));
  CHECK(std::stoul(m[1]) > 20);  // more than --repeat's default: a run of 100 floats takes microseconds
  CHECK_THAT(text.out, Catch::Contains("p99.9"));

  auto json = run_cli({"bench", model, "--shape", "x=100", "--duration", "0.2", "--json"});
  REQUIRE_EXIT(json, 0);
  const auto j = nlohmann::json::parse(json.out);
  CHECK(j.at("duration_s") == 0.2);
  CHECK(j.at("runs").get<int64_t>() > 20);
  // Runs of 100 floats are timed in batches (where a run takes under a microsecond):
  // p99.9 needs 1000 of them.
  const int64_t batch = j.at("batch").get<int64_t>();
  const bool enough = (j.at("runs").get<int64_t>() + batch - 1) / batch >= 1000;
  CHECK(j.at("percentiles").at("p99.9").at("is_max") == !enough);

  auto memcpy = run_cli({"bench", "--memcpy", "1000", "--duration", "0.1", "--json"});
  REQUIRE_EXIT(memcpy, 0);
  CHECK(nlohmann::json::parse(memcpy.out).at("runs").get<int64_t>() > 20);
}

TEST_CASE("bench makes up an input whose dim nothing binds with that dim 1, and says so", "[cli][bench]") {
  TempDir tmp;
  const std::string model = write_model(tmp, 1);
  auto r = run_cli({"bench", model, "--repeat", "2", "--json"});
  REQUIRE_EXIT(r, 0);
  CHECK_THAT(r.err, Catch::Contains("warning: input 'x'") && Catch::Contains("dim 0 ('N') set to 1"));
  CHECK(nlohmann::json::parse(r.out).at("elements_per_run") == 1);
}

TEST_CASE("bench --memcpy times the bandwidth baseline", "[cli][bench]") {
  auto r = run_cli({"bench", "--memcpy", "100000", "--repeat", "3", "--json"});
  REQUIRE_EXIT(r, 0);
  CHECK(nlohmann::json::parse(r.out).at("bytes_per_run") == 200000);
}

TEST_CASE("bench --compare times the verdict on two float tensors, equal or 1 ULP apart", "[cli][bench]") {
  for (const bool differ : {false, true}) {
    std::vector<std::string> args = {"bench", "--compare", "40000", "--repeat", "3", "--json"};
    if (differ) args.push_back("--differ");
    auto r = run_cli(args);
    REQUIRE_EXIT(r, 0);
    CHECK(nlohmann::json::parse(r.out).at("bytes_per_run") == 80000);
    CHECK(nlohmann::json::parse(r.out).at("elements_per_run") == 10000);
  }
  auto text = run_cli({"bench", "--compare", "40000", "--repeat", "3"});
  REQUIRE_EXIT(text, 0);
  CHECK(text.out.find("(80000 bytes read per run, at the median)") != std::string::npos);
  auto memcpy = run_cli({"bench", "--memcpy", "40000", "--repeat", "3"});
  REQUIRE_EXIT(memcpy, 0);
  CHECK(memcpy.out.find("(80000 bytes read + written per run, at the median)") != std::string::npos);
}

TEST_CASE("bench --stats times the statistics printed after an output", "[cli][bench]") {
  auto r = run_cli({"bench", "--stats", "40000", "--repeat", "3", "--json"});
  REQUIRE_EXIT(r, 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("what") == "statistics of 40000 bytes of float");
  CHECK(j.at("bytes_per_run") == 40000);
  CHECK(j.at("elements_per_run") == 10000);
  CHECK(j.at("runs") == 3);
  CHECK(j.at("median_ns").get<int64_t>() > 0);
  auto text = run_cli({"bench", "--stats", "40000", "--repeat", "3"});
  REQUIRE_EXIT(text, 0);
  CHECK(text.out.rfind("statistics of 40000 bytes of float: 3 runs", 0) == 0);
  CHECK(text.out.find("(40000 bytes read per run, at the median)") != std::string::npos);
}

TEST_CASE("bench usage errors exit 2 with one line", "[cli][bench]") {
  TempDir tmp;
  const std::string model = write_model(tmp, 1);
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"bench"},
                                             {"bench", model, "--repeat", "0"},
                                             {"bench", model, "--shape", "x=1,a"},
                                             {"bench", model, "--shape", "x=9", "--duration", "1", "--repeat", "5"},
                                             {"bench", model, "--shape", "x=9", "--repeat", "5", "--duration", "1"},
                                             {"bench", model, "--shape", "x=9", "--duration", "0"},
                                             {"bench", model, "--shape", "x=9", "--duration", "-1"},
                                             {"bench", model, "--shape", "x=9", "--duration", "inf"},
                                             {"bench", model, "--shape", "x=9", "--duration", "2s"},
                                             {"bench", "--memcpy", "100", "--duration", "0"},
                                             {"bench", "--memcpy", "100", "--compare", "100"},
                                             {"bench", "--stats", "100", "--memcpy", "100"},
                                             {"bench", "--stats", "0"},
                                             {"bench", "--stats", "3"},
                                             {"bench", "--compare", "6"},
                                             {"bench", model, "--stats", "100"},
                                             {"bench", "--differ"},
                                             {"bench", model, "--compare", "100"}}) {
    auto r = run_cli(args);
    INFO(r.err);
    CHECK_EXIT(r, 2);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.out.empty());
  }
}

TEST_CASE("ONNXRUN_ISA forces a kernel path and refuses unknown ones", "[cli][bench]") {
  TempDir tmp;
  const std::string model = write_model(tmp, 1);
  auto bad = run_process({"/usr/bin/env", "ONNXRUN_ISA=sse9", onnx_run_binary(), "bench", model, "--shape", "x=10"});
  CHECK_EXIT(bad, 2);
  CHECK_THAT(bad.err, Catch::Contains("ONNXRUN_ISA=sse9"));
  auto ok = run_process({"/usr/bin/env", "ONNXRUN_ISA=scalar", onnx_run_binary(), "bench", model, "--shape", "x=10",
                         "--repeat", "1", "--json"});
  REQUIRE_EXIT(ok, 0);
  CHECK(nlohmann::json::parse(ok.out).at("kernel_path") == "scalar");
}

TEST_CASE("a large input run block by block writes the same file as a whole run", "[cli][bench]") {
  TempDir tmp;
  const std::string model = write_model(tmp, 10);   // float16
  const size_t n = (size_t{64} << 20) / 2 + 12345;  // past the block-run threshold
  std::string data(n * 2, '\0');
  for (size_t i = 0; i < n; ++i) {
    const uint16_t v = static_cast<uint16_t>(i * 7919u);
    std::memcpy(&data[2 * i], &v, 2);
  }
  onnx::TensorProto t;
  t.set_name("x");
  t.set_data_type(10);
  t.add_dims(static_cast<int64_t>(n));
  t.set_raw_data(data);
  std::ofstream(tmp.file("x.pb"), std::ios::binary) << t.SerializeAsString();
  data.clear();
  // -q with -o takes the block path; without -q the whole tensor is computed at once.
  auto blocks = run_cli({model, "-i", "x=" + tmp.file("x.pb"), "-o", tmp.file("blocks"), "-q", "--threads", "2"});
  REQUIRE_EXIT(blocks, 0);
  auto whole = run_cli({model, "-i", "x=" + tmp.file("x.pb"), "-o", tmp.file("whole"), "--threads", "1"});
  REQUIRE_EXIT(whole, 0);
  const std::string a = slurp(tmp.file("blocks/output_0.pb")), b = slurp(tmp.file("whole/output_0.pb"));
  CHECK(a.size() > n * 2);
  CHECK(a == b);
}

TEST_CASE("a .npy whose header promises more than it holds: run and bench say the same line", "[cli][bench]") {
  TempDir tmp;
  const std::string model = write_model(tmp, onnx::TensorProto::FLOAT);
  // float[1000000, 1000000] (4 TB) over 64 bytes: bench reads inputs whole, run streams
  // them; neither gets as far as the memory limit.
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1000000, 1000000), }";
  header += std::string(128 - 10 - header.size() - 1, ' ') + "\n";
  const std::string path = tmp.file("huge.npy");
  std::ofstream(path, std::ios::binary) << std::string("\x93NUMPY\x01\x00", 8) << static_cast<char>(header.size())
                                        << '\0' << header << std::string(64, '\0');
  const std::string line = "onnx-run: " + path + ": holds 64 bytes of data, the header promises 4000000000000\n";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{model, "-i", "x=" + path}, {"bench", model, "-i", "x=" + path, "--repeat", "1"}}) {
    const ProcessResult r = run_cli(args);
    INFO(args[0]);
    CHECK_EXIT(r, 3);
    CHECK(r.err == line);
  }
}
