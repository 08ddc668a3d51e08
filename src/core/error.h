// The one error type of the library. Each error has a kind, which tells the command
// line which exit code to use (only cli/ maps kinds to codes), and a message that grows
// context as it rises: "node 'y' (LeakyRelu): input X: bfloat16 is not allowed ...".
// An unsupported error also carries its causes as data (Cause), so that the test
// runner's table, `info` and the reports never read them back out of the message.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

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

// What onnx-run lacks, as data.
struct Cause {
  enum class Kind {
    kOp,       // no version of `op` in `domain` at all
    kVersion,  // `op` exists, but no version serves `opset`
    kDomain,   // the domain is unknown
    kType,     // `op` (or, with `op` empty, any tensor) has no support for element `type`
    kFeature,  // a feature of the format: `feature` says which
  };
  Kind kind = Kind::kFeature;
  std::string op;
  std::string domain;  // canonical: "" for ai.onnx
  int64_t opset = 0;
  std::string type;
  std::string feature;

  // The key of the runner's table of causes: "Conv", "com.microsoft.Gelu",
  // "LeakyRelu (opset 99)", "domain com.x", "LeakyRelu(bfloat16)", "type string",
  // "external data".
  std::string key() const;
};

// Text from a file or the command line as it may go into a message: control characters
// (a NUL that would end what(), an escape sequence that would reach the terminal, a
// newline that would split the one line) written as \xNN.
std::string printable(std::string_view text);
// A report of several lines for standard output: printable() but for its newlines. Names
// from a model or a folder reach every line of a report (verify, info, --print-graph, a
// test's progress); an escape sequence among them would rewrite the terminal or forge a
// line of a CI log.
std::string printable_lines(std::string_view text);

// `text` as valid UTF-8: each byte that is no part of a well-formed UTF-8 sequence
// written as the four characters \xNN, the rest unchanged. A file name in a JSON report
// would otherwise have its bad bytes replaced by U+FFFD and no longer match the file it
// names; escaped, it reads back as the same text (escaping it again changes nothing).
std::string valid_utf8(std::string_view text);

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, std::string message) : std::runtime_error(std::move(message)), kind_(kind) {}

  ErrorKind kind() const { return kind_; }
  // The causes of an unsupported error (empty when it names none).
  const std::vector<Cause>& causes() const;

  // The same error with "context: " put in front of its message.
  Error with_context(std::string_view context) const;
  Error with_causes(std::vector<Cause> causes) const {
    Error e(kind_, what());
    e.causes_ = std::make_shared<const std::vector<Cause>>(std::move(causes));
    return e;
  }

 private:
  ErrorKind kind_;
  std::shared_ptr<const std::vector<Cause>> causes_;  // shared: errors are copied as they rise
};

// fail() and fail_unsupported(), which format the message, are in core/fail.h: fmt stays
// out of this header, which nearly every file includes.

}  // namespace onnxrun
