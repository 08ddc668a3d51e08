// TEMPORARY SHIM (not committed)
#pragma once
#include <string>
#include <vector>
namespace onnxrun {
class OutputTransaction { public: std::vector<std::string> commit() { return {}; } };
}
