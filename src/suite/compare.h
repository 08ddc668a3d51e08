// Comparing an output with its expected value, as the ONNX backend tests do
// (|actual - expected| <= atol + rtol * |expected|), made strict where they are lax:
// NaN equals NaN only where both are NaN, an infinity must match in sign, and dtype and
// shape must match exactly. Integer and bool tensors must be equal.
#pragma once

#include <cstdint>
#include <string>

#include "core/element.h"
#include "core/tensor.h"

namespace onnxrun {

struct Tolerance {
  double rtol = 1e-3;
  double atol = 1e-7;
};

struct Comparison {
  bool ok = true;
  std::string problem;     // set when dtype or shape differ: nothing else is compared
  int64_t mismatches = 0;  // elements outside tolerance
  int64_t numel = 0;
  // The worst element: largest error relative to what the tolerance allows; NaN and
  // infinity mismatches count as worst of all.
  int64_t worst_index = -1;
  std::string worst_position;  // "[1,2,0]"
  double expected = 0, actual = 0;
  // The same as the tensor's type writes them: the shortest decimal that reads back as
  // the element (io/tensor_text.h), "-0.03" where the double would be -0.029999999329447746.
  std::string expected_text, actual_text;
  std::string expected_bits, actual_bits;  // "0x3c00"
  double abs_err = 0, rel_err = 0;
  // Smallest atol (with the given rtol) and smallest rtol (with the given atol) under
  // which every element would pass; infinite when no tolerance can (NaN, inf, integer
  // mismatches).
  double needed_atol = 0, needed_rtol = 0;

  // "ok (60 elements, exact)", or what differs and the worst element: one line.
  std::string verdict() const;
  // The verdict after "output 'NAME': ".
  std::string summary(const std::string& output_name) const;
};

Comparison compare_tensors(const Tensor& expected, const Tensor& actual, Tolerance tol);

}  // namespace onnxrun
