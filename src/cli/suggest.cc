#include "cli/suggest.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include <CLI/CLI.hpp>

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

std::string usage_line(const CLI::App& app) {
  const auto* formatter = dynamic_cast<const CLI::Formatter*>(app.get_formatter().get());
  std::string line = formatter ? formatter->make_usage(&app, app.get_name()) : "usage: " + app.get_name();
  while (!line.empty() && (line.back() == '\n' || line.back() == ' ')) line.pop_back();
  if (line.rfind("Usage:", 0) == 0) line[0] = 'u';
  return line;
}

namespace {

// Every option spelling of `app` ("--full", "-i", ...).
std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> out;
  for (const CLI::Option* o : app.get_options()) {
    for (const std::string& l : o->get_lnames()) out.push_back("--" + l);
    for (const std::string& s : o->get_snames()) out.push_back("-" + s);
  }
  return out;
}

const CLI::Option* find_option(const CLI::App& app, const std::string& word) {
  for (const CLI::Option* o : app.get_options())
    if (o->check_name(word)) return o;  // "--name" or "-n"
  return nullptr;
}

// "-1", "-0.5", "-5,5", "-.5e3": values, not options.
bool looks_negative_number(const std::string& arg) {
  return arg.size() >= 2 && arg[0] == '-' && (std::isdigit(static_cast<unsigned char>(arg[1])) || arg[1] == '.');
}

}  // namespace

std::optional<std::string> first_unknown_option(const CLI::App& app, const std::vector<std::string>& args) {
  for (size_t k = 0; k < args.size(); ++k) {
    const std::string& arg = args[k];
    if (arg == "--") break;
    if (arg.size() < 2 || arg[0] != '-' || looks_negative_number(arg)) continue;
    const bool is_long = arg[1] == '-';
    // --name=value, -xVALUE: the option is the part before the value.
    const std::string word = is_long ? arg.substr(0, arg.find('=')) : arg.substr(0, 2);
    const CLI::Option* o = find_option(app, word);
    if (!o) return word;
    const bool value_attached = is_long ? arg.find('=') != std::string::npos : arg.size() > 2;
    if (o->get_type_size() > 0 && !value_attached) ++k;  // the next word is its value
  }
  return std::nullopt;
}

std::optional<std::string> nearest_option(const CLI::App& app, const std::string& unknown) {
  const auto names = option_names(app);
  const auto has = [&](const std::string& n) { return std::find(names.begin(), names.end(), n) != names.end(); };
  if (unknown.size() == 2) {
    // One letter is one slip from every other letter: edit distance says nothing here.
    static const std::pair<const char*, const char*> kConventional[] = {
        {"-V", "--version"}, {"-?", "--help"}, {"-H", "--help"}};
    for (const auto& [from, to] : kConventional)
      if (unknown == from && has(to)) return std::string(to);
    std::string other = unknown;
    other[1] = std::isupper(static_cast<unsigned char>(other[1])) ? static_cast<char>(std::tolower(other[1]))
                                                                  : static_cast<char>(std::toupper(other[1]));
    if (has(other)) return other;
    return std::nullopt;
  }
  std::vector<std::string> long_names;
  for (const std::string& n : names)
    if (n.size() > 2) long_names.push_back(n);
  // "-json" and "json" meant "--json".
  const std::string dashed =
      unknown.rfind("--", 0) == 0 ? unknown : "--" + unknown.substr(unknown.find_first_not_of('-'));
  if (dashed != unknown && has(dashed)) return dashed;
  return nearest_name(dashed, long_names);
}

}  // namespace onnxrun::cli
