#include "core/error.h"

namespace onnxrun {

std::string_view error_kind_name(ErrorKind k) {
  switch (k) {
    case ErrorKind::kUsage: return "usage";
    case ErrorKind::kInvalid: return "invalid";
    case ErrorKind::kUnsupported: return "unsupported";
    case ErrorKind::kInput: return "input";
    case ErrorKind::kIo: return "io";
    case ErrorKind::kSecurity: return "security";
    case ErrorKind::kInternal: return "internal";
  }
  return "unknown";
}

}  // namespace onnxrun
