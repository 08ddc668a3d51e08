// Throwing an Error with a formatted message: fail(ErrorKind::kIo, "cannot read {}: {}",
// path, reason). The format string is checked at compile time. Only <fmt/core.h> comes in
// (formatting itself is compiled once, in src/deps/fmt_format.cc).
#pragma once

#include <utility>

#include <fmt/core.h>

#include "core/error.h"

namespace onnxrun {

template <typename... Args>
[[noreturn]] void fail(ErrorKind kind, fmt::format_string<Args...> f, Args&&... args) {
  throw Error(kind, fmt::format(f, std::forward<Args>(args)...));
}

// Error(kUnsupported) with its cause.
template <typename... Args>
[[noreturn]] void fail_unsupported(Cause cause, fmt::format_string<Args...> f, Args&&... args) {
  throw Error(ErrorKind::kUnsupported, fmt::format(f, std::forward<Args>(args)...)).with_causes({std::move(cause)});
}

}  // namespace onnxrun
