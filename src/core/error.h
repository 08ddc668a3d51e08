// The one error type of the library. Each error has a kind, which tells the command
// line which exit code to use (only cli/ maps kinds to codes), and a message that grows
// context as it rises: "node 'y' (LeakyRelu): input X: bfloat16 is not allowed ...".
#pragma once

#include <stdexcept>
#include <string>

#include <fmt/format.h>

namespace onnxrun {

enum class ErrorKind {
  kUsage,        // the caller asked for something malformed (bad flag value, bad path form)
  kInvalid,      // the model or a tensor file is malformed or inconsistent
  kUnsupported,  // well-formed, but uses an op, version or type onnx-run does not implement
  kInput,        // inputs do not fit the graph: missing, unknown, duplicated, wrong type/shape
  kIo,           // a file could not be read or written
  kSecurity,     // refused for safety: path escape, link, absurd size
  kInternal,     // a bug in onnx-run
};

std::string_view error_kind_name(ErrorKind k);

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, std::string message)
      : std::runtime_error(std::move(message)), kind_(kind) {}

  ErrorKind kind() const { return kind_; }

  // The same error with "context: " put in front of its message.
  Error with_context(std::string_view context) const {
    return Error(kind_, fmt::format("{}: {}", context, what()));
  }

 private:
  ErrorKind kind_;
};

template <typename... Args>
[[noreturn]] void fail(ErrorKind kind, fmt::format_string<Args...> f, Args&&... args) {
  throw Error(kind, fmt::format(f, std::forward<Args>(args)...));
}

}  // namespace onnxrun
