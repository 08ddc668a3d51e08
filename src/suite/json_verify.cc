// The `onnx-run verify --json` document (schema in suite/json_documents.h).
#include "suite/json_documents.h"
#include "suite/json_values.h"
#include "suite/ulp.h"
#include "suite/verify.h"

namespace onnxrun {
namespace {

using nlohmann::ordered_json;

ordered_json text_or_null(const std::string& s) { return s.empty() ? ordered_json(nullptr) : ordered_json(s); }

const char* node_status(const NodeCheck& c) {
  if (!c.checked) return "not_checked";
  if (c.exact()) return "exact";
  return c.agrees() ? "agrees" : "differs";
}

ordered_json node_json(const NodeCheck& c) {
  ordered_json n;
  n["index"] = c.index;
  n["name"] = c.name;
  n["op_type"] = c.op_type;
  n["domain"] = c.domain.empty() ? "ai.onnx" : c.domain;
  n["version"] = text_or_null(c.version);
  n["status"] = node_status(c);
  n["reason"] = c.checked ? ordered_json(nullptr) : ordered_json(c.reason);
  n["max_ulp"] = c.checked ? (c.max_ulp() == kUlpInfinite ? ordered_json("inf") : ordered_json(c.max_ulp()))
                           : ordered_json(nullptr);
  ordered_json inputs = ordered_json::array();
  for (const VerifyValue& v : c.inputs) inputs.push_back({{"name", v.name}, {"file", text_or_null(v.file)}});
  n["inputs"] = std::move(inputs);
  ordered_json outputs = ordered_json::array();
  for (const VerifiedOutput& o : c.outputs) {
    ordered_json out;
    out["name"] = o.value.name;
    out["file"] = text_or_null(o.value.file);
    out["comparison"] = c.checked ? comparison_json(o.comparison) : ordered_json(nullptr);
    out["worst_inputs"] = o.worst_inputs;
    outputs.push_back(std::move(out));
  }
  n["outputs"] = std::move(outputs);
  n["seconds"] = c.seconds;
  return n;
}

}  // namespace

std::string verify_json(const VerifyReport& r) {
  ordered_json j;
  j["model"] = r.model;
  j["sources"] = r.sources;
  j["values"] = r.values;
  j["require_all"] = r.require_all;
  j["passed"] = r.passed();
  ordered_json nodes = ordered_json::array();
  size_t exact = 0;
  for (const NodeCheck& c : r.nodes) {
    exact += c.exact();
    nodes.push_back(node_json(c));
  }
  j["nodes"] = std::move(nodes);
  j["checked"] = r.checked();
  j["exact"] = exact;
  j["differ"] = r.differing();
  j["not_checked"] = r.nodes.size() - r.checked();
  j["first_differing"] = r.first_differing ? ordered_json(r.nodes[*r.first_differing].name) : ordered_json(nullptr);
  return json_text(j, 2);
}

}  // namespace onnxrun
