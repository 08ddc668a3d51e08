// The reference comparison: every element read through element_as_double (a switch on
// the dtype per element) and judged on its own. Slow and plain; the fast path
// (suite/compare_fast.cc) must give the same Comparison bit for bit, and the tests
// hold it to this.
#include <cmath>
#include <cstring>
#include <limits>

#include "core/element.h"
#include "suite/compare.h"
#include "suite/compare_tally.h"
#include "suite/ulp.h"

namespace onnxrun {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool is_float_type(DType t) {
  return t == DType::kFloat || t == DType::kDouble || t == DType::kFloat16 || t == DType::kBFloat16;
}

}  // namespace

void ComparisonBuilder::add_reference(int64_t begin, const Tensor& expected, const Tensor& block, int64_t from,
                                      int64_t to) {
  Comparison& c = c_;
  const DType dtype = dtype_;
  const bool floating = is_float_type(dtype);
  const bool bytes_only = !floating && !has_integer_ulps(dtype);
  const size_t sz = dtype_size(dtype);
  const auto* expected_bytes = static_cast<const char*>(expected.raw());
  const auto* actual_bytes = static_cast<const char*>(block.raw());
  for (int64_t i = from; i < to; ++i) {
    const int64_t k = begin + i;
    const char* eb = expected_bytes + i * sz;
    const char* ab = actual_bytes + i * sz;
    const bool same_bits = std::memcmp(eb, ab, sz) == 0;
    const uint64_t ulp = same_bits ? 0 : ulp_distance(dtype, eb, ab);
    double score;  // error / allowed error; > 1 fails; inf for a mismatch no tolerance fixes
    double e, a, d = 0;
    if (bytes_only) {  // types without arithmetic: compare element bytes
      e = a = 0;
      score = same_bits ? 0 : kInf;
    } else {
      e = element_as_double(expected, i);
      a = element_as_double(block, i);
      if (!floating) {
        // Integers must be equal; the raw bytes decide, since doubles above 2^53 round.
        // Their error is their difference, exact as a ULP distance (a - e may round to 0).
        score = same_bits ? 0 : kInf;
        d = static_cast<double>(ulp);
      } else if (std::isnan(e) || std::isnan(a)) {
        score = (std::isnan(e) && std::isnan(a)) ? 0 : kInf;
      } else if (std::isinf(e) || std::isinf(a)) {
        score = (e == a) ? 0 : kInf;
      } else {
        d = std::fabs(a - e);
        // The smallest tolerances that pass: each raised an ULP at a time until it does,
        // as atol + rtol * |e| >= d is computed (the quotients round, and may fall short).
        auto short_of = [](double atol, double rtol, double abs_e, double err) { return atol + rtol * abs_e < err; };
        if (std::isinf(d)) {
          // float64 values whose difference is beyond the double range: judged on the
          // halves, exact there; the errors stay infinite.
          const double h = std::fabs(a / 2 - e / 2), half_e = std::fabs(e) / 2;
          const double allowed = tol_.atol / 2 + tol_.rtol * half_e;
          score = allowed > 0 ? h / allowed : kInf;
          c.needed_atol = kInf;
          double r = h <= tol_.atol / 2 ? 0 : (h - tol_.atol / 2) / half_e;
          while (short_of(tol_.atol / 2, r, half_e, h)) r = std::nextafter(r, kInf);
          c.needed_rtol = std::max(c.needed_rtol, r);
        } else {
          const double allowed = tol_.atol + tol_.rtol * std::fabs(e);
          score = d == 0 ? 0 : allowed > 0 ? d / allowed : kInf;
          double t = d - tol_.rtol * std::fabs(e);
          while (t > 0 && short_of(t, tol_.rtol, std::fabs(e), d)) t = std::nextafter(t, kInf);
          c.needed_atol = std::max(c.needed_atol, t);
          double r = d <= tol_.atol ? 0 : (e != 0 ? (d - tol_.atol) / std::fabs(e) : kInf);
          if (d > tol_.atol && e != 0)
            while (short_of(tol_.atol, r, std::fabs(e), d)) r = std::nextafter(r, kInf);
          c.needed_rtol = std::max(c.needed_rtol, r);
        }
      }
    }
    double abs_err, rel_err;
    tally(k, same_bits, ulp, e, a, d, relative_error(d, e), score, bytes_only || !floating, eb, ab, abs_err, rel_err);
    errors_.add(abs_err, rel_err);
  }
}

}  // namespace onnxrun
