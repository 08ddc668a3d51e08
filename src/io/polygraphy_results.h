// Polygraphy's saved results, read without Polygraphy: the JSON that
// `polygraphy run --save-outputs FILE` writes (a RunResults: {"lst": [[runner,
// [iteration...]]...], "polygraphy_class": "RunResults"}, each iteration
// {"outputs": {name: ARRAY}, "runtime", "runner_name"}), and the list of feeds that
// `--save-inputs FILE` writes ([{name: ARRAY}, ...]).
//
// ARRAY is what polygraphy/json/serde.py encodes: {"array": base64 of numpy.save's bytes
// (allow_pickle=False), "polygraphy_class": "ndarray"}, possibly wrapped as a lazy array
// {"values": ARRAY, "polygraphy_class": "LazyNumpyArray"|"LazyArray"}. Older files are read
// as Polygraphy's decoder reads them: "__polygraphy_encoded_*" markers, the string as
// latin-1 bytes where it is not base64, and an .npz image (its first array).
// Of several runners, the first one's values are taken; of several iterations, the first.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/tensor.h"

namespace onnxrun {

struct PolygraphyValue {
  std::string name;
  // The array's encoded text, shared by the values of one file: decode_polygraphy_array
  // reads it when the value is wanted.
  std::shared_ptr<const void> owner;
  const std::string* encoded = nullptr;
};

struct PolygraphyResults {
  std::string runner;                      // empty for a --save-inputs list
  std::vector<std::string> other_runners;  // runners whose values were not taken
  std::vector<PolygraphyValue> values;     // in the file's order
};

// Throws Error(kIo) when the file cannot be read, Error(kInvalid) when it is not JSON or
// not a RunResults or a feed list.
PolygraphyResults read_polygraphy_results(const std::string& path);
PolygraphyResults parse_polygraphy_results(const std::string& text, const std::string& what);

// The tensor an ARRAY's "array" string holds. `what` names it in errors.
Tensor decode_polygraphy_array(const std::string& encoded, const std::string& what);

// Standard base64 (RFC 4648, with padding; no whitespace) into `out`; false when `in` is
// not base64 (Polygraphy's decoder then reads the text as latin-1).
bool decode_base64(const std::string& in, std::string& out);

}  // namespace onnxrun
