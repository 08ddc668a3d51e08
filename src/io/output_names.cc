#include "io/output_names.h"

#include <charconv>
#include <cstdint>
#include <cstdio>

namespace onnxrun {
namespace {

std::string_view stem_of(TensorRole role) { return role == TensorRole::kInputs ? "input_" : "output_"; }

}  // namespace

std::string numbered_file_name(TensorRole role, size_t k, std::string_view ext) {
  return std::string(stem_of(role)) + std::to_string(k) + std::string(ext);
}

std::string bundle_file_name(TensorRole role) { return role == TensorRole::kInputs ? "inputs.npz" : "outputs.npz"; }

const char* single_file_extension(TensorFormat format) { return format == TensorFormat::kPb ? ".pb" : ".npy"; }

std::vector<std::string> tensor_file_names(TensorFormat format, size_t count, TensorRole role) {
  if (format == TensorFormat::kNpz) return {bundle_file_name(role)};
  std::vector<std::string> names;
  for (size_t k = 0; k < count; ++k) names.push_back(numbered_file_name(role, k, single_file_extension(format)));
  return names;
}

std::optional<size_t> numbered_file_index(TensorRole role, std::string_view stem) {
  const std::string_view prefix = stem_of(role);
  if (!stem.starts_with(prefix)) return std::nullopt;
  const char* end = stem.data() + stem.size();
  size_t k = 0;
  const auto [ptr, ec] = std::from_chars(stem.data() + prefix.size(), end, k);
  if (ec != std::errc() || ptr != end || ptr == stem.data() + prefix.size()) return std::nullopt;
  return k;
}

std::string file_name_for_value(const std::string& value_name) {
  std::string out;
  for (char c : value_name) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    out += ok ? c : '_';
  }
  if (out.empty() || out[0] == '.') out = "_" + out;
  if (out.size() <= kMaxValueFileStem) return out;
  // FNV-1a: fixed, so that verify finds a dumped value by its file name on any machine.
  uint64_t h = 1469598103934665603ull;
  for (char c : value_name) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return out.substr(0, kMaxValueFileStem - 17) + "_" + hex;
}

}  // namespace onnxrun
