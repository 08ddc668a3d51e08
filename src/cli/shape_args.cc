#include "cli/shape_args.h"

#include <algorithm>
#include <charconv>

#include <fmt/core.h>

#include "core/error.h"
#include "core/fail.h"

namespace onnxrun::cli {

std::map<std::string, Shape> parse_shape_args(const std::vector<std::string>& args) {
  std::map<std::string, Shape> out;
  for (const std::string& arg : args) {
    const size_t eq = arg.find('=');
    if (eq == std::string::npos || eq == 0)
      fail(ErrorKind::kUsage, "--shape {}: expected NAME=d0,d1,... (for example --shape x=1,3,224,224)", arg);
    const std::string name = arg.substr(0, eq);
    Shape shape;
    const std::string dims = arg.substr(eq + 1);
    try {
      if (!dims.empty()) check_rank(static_cast<size_t>(std::count(dims.begin(), dims.end(), ',')) + 1);
    } catch (const Error& e) {
      throw e.with_context(fmt::format("--shape {}", name));
    }
    size_t pos = 0;
    while (pos < dims.size()) {
      size_t comma = dims.find(',', pos);
      if (comma == std::string::npos) comma = dims.size();
      int64_t d = -1;
      auto [end, ec] = std::from_chars(dims.data() + pos, dims.data() + comma, d);
      if (ec != std::errc() || end != dims.data() + comma || d < 0)
        fail(ErrorKind::kUsage, "--shape {}: '{}' is not a dimension (a whole number >= 0)", arg,
             dims.substr(pos, comma - pos));
      shape.push_back(d);
      pos = comma + 1;
    }
    if (!out.emplace(name, shape).second) fail(ErrorKind::kUsage, "--shape gives '{}' twice", name);
  }
  return out;
}

}  // namespace onnxrun::cli
