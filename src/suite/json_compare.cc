// The `onnx-run compare --json` document (schema in suite/json_documents.h).
#include "suite/compare_sets.h"
#include "suite/json_documents.h"
#include "suite/json_values.h"

namespace onnxrun {

std::string compare_json(const SetsComparison& s) {
  nlohmann::ordered_json j;
  j["a"] = s.a;
  j["b"] = s.b;
  j["model"] = s.model.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s.model);
  j["equal"] = s.equal();
  nlohmann::ordered_json values = nlohmann::ordered_json::array();
  size_t same = 0;
  for (const ValuePair& p : s.values) {
    nlohmann::ordered_json v;
    v["name"] = p.name;
    v["a"] = p.file_a.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(p.file_a);
    v["b"] = p.file_b.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(p.file_b);
    v["comparison"] = p.comparison ? comparison_json(*p.comparison) : nlohmann::ordered_json(nullptr);
    same += p.same();
    values.push_back(std::move(v));
  }
  j["values"] = std::move(values);
  j["same"] = same;
  j["total"] = s.values.size();
  j["first_divergent"] =
      s.first_divergent ? nlohmann::ordered_json(s.values[*s.first_divergent].name) : nlohmann::ordered_json(nullptr);
  return json_text(j, 2);
}

}  // namespace onnxrun
