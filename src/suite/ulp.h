// The distance between two elements in units in the last place (ULPs) of their own type:
// how many representable values lie between them, the measure --max-ulp bounds and every
// comparison reports (as emx-onnx-cgen's `verify --max-ulp` does).
//
// Floats (float, double, float16, bfloat16) are ordered by their bits, so the distance
// between neighbours is 1 and between +0 and -0 is 0 (they are equal numbers; the bits
// still differ, which is what "exact" and --exact see). NaN against NaN is 0 whatever the
// payloads; NaN against a number, and an infinity against anything but the same
// infinity, is kUlpInfinite: no ULP bound passes it, as no atol or rtol does. Integers
// and bool: the difference of the values, exact (INT64_MIN against INT64_MAX is 2^64 - 1,
// kUlpInfinite's bits: a caller that knows the type is an integer one reads it as that
// number). Other types (strings, 8- and 4-bit floats, complex): 0 for equal bytes, else
// kUlpInfinite.
#pragma once

#include <cstdint>
#include <string>

#include "core/dtype.h"

namespace onnxrun {

inline constexpr uint64_t kUlpInfinite = UINT64_MAX;

// The integer types and bool: their distance is the difference of the values.
bool has_integer_ulps(DType dtype);

// `a` and `b` point to one element each of type `dtype`. A float's finite distance
// saturates below kUlpInfinite; an integer's never does (see above).
uint64_t ulp_distance(DType dtype, const void* a, const void* b);

// "12", or "inf" for kUlpInfinite unless `integers` (a distance of integers is always a
// number: kUlpInfinite is then 18446744073709551615).
std::string ulp_text(uint64_t ulps, bool integers = false);

}  // namespace onnxrun
