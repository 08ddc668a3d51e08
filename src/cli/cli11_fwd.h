// The names of CLI11's types, without CLI11: headers of cli/ declare functions over
// CLI::App, CLI::Option and CLI::Validator, and only the files that define or read
// options include <CLI/CLI.hpp> (heavy to compile).
#pragma once

namespace CLI {
class App;
class Option;
class Validator;
}  // namespace CLI
