// A structure-aware mutator for fuzz_report: the bytes are parsed as JSON and, when they
// parse, one edit is made to the document (a value replaced by an extreme or another
// type, a key dropped or renamed to another report key, an array element duplicated or
// removed, a test's outcome or shard changed) and the document written again. Bytes that
// do not parse, and one call in four, get libFuzzer's own byte mutation
// (LLVMFuzzerMutate), so the JSON parser is fuzzed too. Linked into fuzz_report alone.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

using nlohmann::json;

const char* const kKeys[] = {"generator", "run",    "paths",       "shard",   "rtol",    "atol",  "exact",
                             "max_ulp",   "merge",  "shard_count", "missing", "summary", "total", "seconds",
                             "tests",     "name",   "outcome",     "message", "model",   "sets",  "causes",
                             "signal",    "strict", "no_fuse",     "timeout"};
const char* const kOutcomes[] = {"passed", "failed", "unsupported", "error", "timeout", "crashed", "no data", "?"};

json extreme(std::mt19937& rng) {
  switch (rng() % 10) {
    case 0: return 1e26;
    case 1: return -1;
    case 2: return 0;
    case 3: return 18446744073709551615ull;
    case 4: return -9.5e300;
    case 5: return nullptr;
    case 6: return "";
    case 7: return json::array();
    case 8: return json::object();
    default: return std::string(1 + rng() % 3, '/') + std::to_string(rng() % 5);
  }
}

// Every value of the document, depth first, so that one can be picked at random.
void collect(json& j, std::vector<json*>& out) {
  out.push_back(&j);
  if (j.is_object() || j.is_array())
    for (auto& v : j) collect(v, out);
}

void edit(json& doc, std::mt19937& rng) {
  std::vector<json*> values;
  collect(doc, values);
  json& v = *values[rng() % values.size()];
  switch (rng() % 6) {
    case 0: v = extreme(rng); break;
    case 1:
      if (v.is_object() && !v.empty()) {
        auto it = v.begin();
        std::advance(it, rng() % v.size());
        const json moved = *it;
        const std::string key = it.key();
        v.erase(key);
        if (rng() % 2) v[kKeys[rng() % std::size(kKeys)]] = moved;
      }
      break;
    case 2:
      if (v.is_array() && !v.empty()) {
        const size_t k = rng() % v.size();
        if (rng() % 2) v.push_back(v[k]);
        else v.erase(k);
      }
      break;
    case 3:
      if (v.is_object()) v["outcome"] = kOutcomes[rng() % std::size(kOutcomes)];
      break;
    case 4:
      if (v.is_object()) v["shard"] = std::to_string(rng() % 4) + "/" + std::to_string(rng() % 4);
      break;
    default:
      if (v.is_object()) v[kKeys[rng() % std::size(kKeys)]] = extreme(rng);
      break;
  }
}

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  std::mt19937 rng(seed);
  if (rng() % 4 == 0) return LLVMFuzzerMutate(data, size, max_size);
  json doc = json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return LLVMFuzzerMutate(data, size, max_size);
  edit(doc, rng);
  const std::string out = doc.dump();
  if (out.size() > max_size) return LLVMFuzzerMutate(data, size, max_size);
  std::memcpy(data, out.data(), out.size());
  return out.size();
}
