// The newest ONNX versions this build knows of. A model importing a newer default-domain
// opset, or of a newer IR version, still loads with a warning: each node resolves to a
// version this build knows. Read by the loader, the resolver and --version.
#pragma once

#include <cstdint>

namespace onnxrun {

inline constexpr int64_t kNewestKnownOpset = 28;
inline constexpr int64_t kNewestKnownIrVersion = 13;

}  // namespace onnxrun
