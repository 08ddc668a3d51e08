#include <nlohmann/json.hpp>

#include "suite/json_documents.h"

namespace onnxrun {

std::string json_text(const nlohmann::ordered_json& j, int indent) {
  // Names and strings come from model files, which need not be valid UTF-8: `replace`
  // writes U+FFFD for a bad byte where the default would throw.
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace onnxrun
