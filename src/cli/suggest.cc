#include "cli/suggest.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace onnxrun::cli {

size_t edit_distance(const std::string& a, const std::string& b) {
  // Optimal string alignment distance: Levenshtein plus adjacent transpositions.
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::optional<std::string> nearest_name(const std::string& word, const std::vector<std::string>& candidates) {
  const size_t limit = word.size() <= 4 ? 1 : word.size() <= 8 ? 2 : 3;
  std::optional<std::string> best;
  size_t best_d = limit + 1;
  for (const std::string& c : candidates) {
    const size_t d = edit_distance(word, c);
    if (d < best_d && d < std::max(word.size(), c.size())) best = c, best_d = d;
  }
  return best;
}

std::optional<std::string> misspelt_command(const std::string& arg, const std::vector<std::string>& commands) {
  std::error_code ec;
  if (arg.empty() || arg[0] == '-' || arg.find('/') != std::string::npos || arg.find('.') != std::string::npos ||
      std::filesystem::exists(arg, ec))
    return std::nullopt;
  return nearest_name(arg, commands);
}

std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> out;
  for (const CLI::Option* o : app.get_options()) {
    for (const std::string& l : o->get_lnames()) out.push_back("--" + l);
    for (const std::string& s : o->get_snames()) out.push_back("-" + s);
  }
  return out;
}

std::string usage_line(const CLI::App& app) {
  std::string out = "usage: " + app.get_name();
  for (const CLI::Option* o : app.get_options()) {
    if (!o->get_positional()) continue;
    std::string name = o->get_name();
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::toupper(c); });
    out += " " + name;
  }
  return out + " [options]";
}

std::string option_suggestion(const CLI::App& app, const std::vector<std::string>& args) {
  const auto names = option_names(app);
  for (const std::string& arg : args) {
    if (arg.size() < 2 || arg[0] != '-') continue;
    const std::string word = arg.substr(0, arg.find('='));
    if (std::find(names.begin(), names.end(), word) != names.end()) continue;
    if (auto near = nearest_name(word, names)) return "; did you mean " + *near + "?";
  }
  return "";
}

}  // namespace onnxrun::cli
