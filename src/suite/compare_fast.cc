// The fast comparison: one loop per element type (no switch on the dtype per element),
// and bit-identical runs of elements skipped at memcmp speed (glibc's memcmp is the
// CPU's widest vector compare, chosen at run time), their statistics counted in O(1)
// (ErrorStatsBuilder::add_exact). An element whose bits differ is judged exactly as the
// reference judges it (suite/compare_reference.cc), in index order, so the two give the
// same Comparison bit for bit: the tests hold this one to that one. A run of float32
// elements that differ has its arithmetic (the errors and their three divisions) done a
// vector at a time first, on AVX-512 (suite/compare_judge.h); where every pair of the run
// is finite and atol and rtol alone judge, its verdict's counts are kept a vector at a
// time too (RunTally: maxima, counts and the first worst element, which need no order).
// The statistics take the run's errors in one call (ErrorStatsBuilder::add_batch), in
// order, as their sums must.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>

#include "core/half.h"
#include "core/hardware.h"
#include "suite/compare.h"
#include "suite/compare_judge.h"
#include "suite/compare_tally.h"
#include "suite/ulp_kernels.h"

namespace onnxrun {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

template <typename T>
T load(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

// Each element type: its bits B, its value as element_as_double reads it, and its ULP
// distance as ulp_distance measures it. `tolerant`: atol and rtol apply (float types).
struct ElemF32 {
  using B = uint32_t;
  static constexpr bool kTolerant = true;
  static double value(B b) {
    float f;
    std::memcpy(&f, &b, sizeof f);
    return f;
  }
  static uint64_t ulps(B a, B b) { return ulp_kernels::float_ulps<B>(a, b, 23); }
};

struct ElemF64 {
  using B = uint64_t;
  static constexpr bool kTolerant = true;
  static double value(B b) {
    double f;
    std::memcpy(&f, &b, sizeof f);
    return f;
  }
  static uint64_t ulps(B a, B b) { return ulp_kernels::float_ulps<B>(a, b, 52); }
};

struct ElemF16 {
  using B = uint16_t;
  static constexpr bool kTolerant = true;
  static double value(B b) { return float16_to_float(b); }
  static uint64_t ulps(B a, B b) { return ulp_kernels::float_ulps<B>(a, b, 10); }
};

struct ElemBF16 {
  using B = uint16_t;
  static constexpr bool kTolerant = true;
  static double value(B b) { return bfloat16_to_float(b); }
  static uint64_t ulps(B a, B b) { return ulp_kernels::float_ulps<B>(a, b, 7); }
};

template <typename T>
struct ElemInt {
  using B = std::make_unsigned_t<T>;
  static constexpr bool kTolerant = false;
  static double value(B b) { return static_cast<double>(static_cast<T>(b)); }
  static uint64_t ulps(B a, B b) { return ulp_kernels::integer_ulps<T>(static_cast<T>(a), static_cast<T>(b)); }
};

struct ElemBool {
  using B = uint8_t;
  static constexpr bool kTolerant = false;
  static double value(B b) { return b != 0; }
  static uint64_t ulps(B a, B b) { return ulp_kernels::bool_ulps(a, b); }
};

// Elements per memcmp: 4 KiB, so the call costs nothing beside the bytes, and a run that
// differs somewhere is judged element by element over little more than the difference.
constexpr int64_t kRunBytes = 4096;

}  // namespace

struct FastComparison {
  // Whether a bit-identical element changes nothing but the counts of elements and of
  // exact ones: true once some element has been tallied (the first becomes the worst,
  // score 0) and, for float types, with atol >= 0 and rtol >= 0 (then its contribution to
  // the needed atol and rtol, -rtol * |e| and 0, never raises them).
  template <class E>
  static bool skips_identical(const ComparisonBuilder& cb) {
    return cb.worst_score_ >= 0 && (!E::kTolerant || (cb.tol_.atol >= 0 && cb.tol_.rtol >= 0));
  }

  // One element judged; its errors for the statistics into abs_err and rel_err.
  template <class E>
  [[gnu::always_inline]] static void element(ComparisonBuilder& cb, int64_t k, const char* ep, const char* ap,
                                             double& abs_err, double& rel_err) {
    using B = typename E::B;
    const B eb = load<B>(ep), ab = load<B>(ap);
    const bool same = eb == ab;
    if (same && skips_identical<E>(cb)) {
      abs_err = rel_err = 0;  // what add_exact(1) counts
      return;
    }
    const uint64_t ulp = same ? 0 : E::ulps(eb, ab);
    const double e = E::value(eb), a = E::value(ab);
    double d = 0, score = 0;  // score: error / allowed error; > 1 fails; inf: no tolerance fixes it
    if constexpr (!E::kTolerant) {
      // Integers must be equal; the bits decide, since doubles above 2^53 round. Their
      // error is their difference, exact as a ULP distance (a - e may round to 0).
      score = same ? 0 : kInf;
      d = static_cast<double>(ulp);
    } else if (std::isnan(e) || std::isnan(a)) {
      score = (std::isnan(e) && std::isnan(a)) ? 0 : kInf;
    } else if (std::isinf(e) || std::isinf(a)) {
      score = (e == a) ? 0 : kInf;
    } else {
      const FiniteJudgement j = judge_finite(e, a, cb.tol_.atol, cb.tol_.rtol);
      Comparison& c = cb.c_;
      d = j.d;
      score = j.score;
      c.needed_atol = std::max(c.needed_atol, j.need_atol);
      c.needed_rtol = std::max(c.needed_rtol, j.need_rtol);
    }
    cb.tally(k, same, ulp, e, a, d, relative_error(d, e), score, !E::kTolerant, ep, ap, abs_err, rel_err);
  }

  // One float element whose values are both finite, its arithmetic done by the judging
  // kernel (`j`: its place in the run): what element() does with it, without element()'s
  // tests for NaN and infinity and its second division (5% of a comparison whose elements
  // all differ, measured).
  [[gnu::always_inline]] static void judged_element(ComparisonBuilder& cb, int64_t k, const char* ep, const char* ap,
                                                    const JudgedRun& run, size_t j, double& abs_err, double& rel_err) {
    const uint32_t eb = load<uint32_t>(ep), ab = load<uint32_t>(ap);
    const bool same = eb == ab;
    if (same && skips_identical<ElemF32>(cb)) {
      abs_err = rel_err = 0;
      return;
    }
    const uint64_t ulp = same ? 0 : ElemF32::ulps(eb, ab);
    Comparison& c = cb.c_;
    c.needed_atol = std::max(c.needed_atol, run.need_atol[j]);
    c.needed_rtol = std::max(c.needed_rtol, run.need_rtol[j]);
    cb.tally(k, same, ulp, ElemF32::value(eb), ElemF32::value(ab), run.d[j], run.rel[j], run.score[j], false, ep, ap,
             abs_err, rel_err);
  }

  // A run of m floats judged by the judging kernel first (suite/compare_judge.h); a pair
  // not both finite is judged by element() (or errors_only()) alone. A run of finite pairs
  // under atol and rtol alone is tallied by the tally kernel at once. The run's errors, as
  // the statistics take them: the kernel's own arrays where no element was judged alone,
  // else abs_err and rel_err.
  struct Errors {
    const double* abs;
    const double* rel;
  };
  static Errors judge_run(ComparisonBuilder& cb, const FloatKernels& kernels, int64_t begin, const char* e,
                          const char* a, int64_t m, double* abs_err, double* rel_err) {
    if (!cb.judged_) cb.judged_ = std::make_shared<JudgedRun>();
    JudgedRun& run = *cb.judged_;
    kernels.judge(e, a, static_cast<size_t>(m), cb.tol_.atol, cb.tol_.rtol, run);
    const bool all_finite = std::memchr(run.finite, false, static_cast<size_t>(m)) == nullptr;
    if (cb.again_ || (all_finite && !cb.tol_.exact && !cb.tol_.max_ulp && skips_identical<ElemF32>(cb))) {
      // A later pass wants no more than the errors: the kernel's, mended in place where
      // not both finite (the tally, which reads them, runs only where all are).
      for (int64_t j = 0; j < m && !all_finite; ++j)
        if (!run.finite[j])
          errors_only<ElemF32>(e + j * sizeof(float), a + j * sizeof(float), 1, run.d + j, run.rel + j);
      if (!cb.again_) tally_run(cb, kernels.tally, begin, e, a, m);
      return {run.d, run.rel};
    }
    for (int64_t j = 0; j < m; ++j) {
      const auto at = static_cast<size_t>(j);
      const char* ep = e + j * sizeof(float);
      const char* ap = a + j * sizeof(float);
      if (run.finite[at]) judged_element(cb, begin + j, ep, ap, run, at, abs_err[j], rel_err[j]);
      else element<ElemF32>(cb, begin + j, ep, ap, abs_err[j], rel_err[j]);
    }
    return {abs_err, rel_err};
  }

  // What tally() would count for each element of a run of finite floats, counted by the
  // tally kernel for the run at once (RunTally: the same maxima, counts and worst).
  static void tally_run(ComparisonBuilder& cb, TallyFloats tally, int64_t begin, const char* e, const char* a,
                        int64_t m) {
    RunTally t;
    tally(e, a, *cb.judged_, static_cast<size_t>(m), t);
    Comparison& c = cb.c_;
    c.bit_differences += t.differing;
    c.mismatches += t.failing;
    c.max_ulp = std::max(c.max_ulp, t.max_ulp);
    c.needed_atol = std::max(c.needed_atol, t.need_atol);
    c.needed_rtol = std::max(c.needed_rtol, t.need_rtol);
    const size_t j = t.worst;
    const char* ep = e + j * sizeof(float);
    const char* ap = a + j * sizeof(float);
    const uint32_t eb = load<uint32_t>(ep), ab = load<uint32_t>(ap);
    const uint64_t ulp = eb == ab ? 0 : ElemF32::ulps(eb, ab);
    if (ranks_worse({t.worst_score, cb.judged_->d[j], ulp}, {cb.worst_score_, c.abs_err, c.ulp}))
      cb.set_worst(begin + static_cast<int64_t>(j), t.worst_score, ulp, ElemF32::value(eb), ElemF32::value(ab),
                   cb.judged_->d[j], cb.judged_->rel[j], ep, ap);
  }

  // Elements [begin, begin + n): `expected` and `actual` point at element begin of the
  // expected tensor and at the block. Neither needs any alignment. A run that differs is
  // judged element by element into arrays of errors, which the statistics then take in
  // one call (ErrorStatsBuilder::add_batch: their counters in registers, not reloaded
  // per element behind the judging's stores).
  template <class E>
  static void run(ComparisonBuilder& cb, int64_t begin, const char* expected, const char* actual, int64_t n) {
    constexpr int64_t kSize = sizeof(typename E::B);
    constexpr int64_t kRun = kRunBytes / kSize;
    double abs_err[kRun], rel_err[kRun];
    FloatKernels kernels;
    if constexpr (std::is_same_v<E, ElemF32>) kernels = float_kernels_for(hardware_config());
    for (int64_t i = 0; i < n; i += kRun) {
      const int64_t m = std::min(kRun, n - i);
      const char* e = expected + i * kSize;
      const char* a = actual + i * kSize;
      if (skips_identical<E>(cb) && std::memcmp(e, a, static_cast<size_t>(m * kSize)) == 0) {
        cb.errors_.add_exact(m);
        continue;
      }
      if (kernels.judge) {
        static_assert(kRunBytes / sizeof(float) <= JudgedRun::kMax);
        const Errors errors = judge_run(cb, kernels, begin + i, e, a, m, abs_err, rel_err);
        cb.errors_.add_batch(errors.abs, errors.rel, m);
        continue;
      }
      if (cb.again_) {
        errors_only<E>(e, a, m, abs_err, rel_err);
      } else {
        for (int64_t j = 0; j < m; ++j)
          element<E>(cb, begin + i + j, e + j * kSize, a + j * kSize, abs_err[j], rel_err[j]);
      }
      cb.errors_.add_batch(abs_err, rel_err, m);
    }
  }

  // A later pass (ComparisonBuilder::finish_in_passes) wants only each element's errors, for
  // the medians: the errors element() and tally() give it, without the rest of their
  // work. A NaN or infinity mismatch is (inf, inf), unequal integers their difference; no
  // error at all is (0, 0), which the medians leave out.
  template <class E>
  static void errors_only(const char* expected, const char* actual, int64_t n, double* abs_err, double* rel_err) {
    using B = typename E::B;
    for (int64_t j = 0; j < n; ++j) {
      const B eb = load<B>(expected + j * sizeof(B)), ab = load<B>(actual + j * sizeof(B));
      double d = 0, rel = 0;
      if (eb == ab) {
        // no error
      } else if constexpr (!E::kTolerant) {
        d = static_cast<double>(E::ulps(eb, ab));  // unequal integers or bools, as element() has it
        rel = relative_error(d, E::value(eb));
      } else {
        const double e = E::value(eb), a = E::value(ab);
        if (std::isnan(e) || std::isnan(a)) {
          if (!(std::isnan(e) && std::isnan(a))) d = rel = kInf;
        } else if (std::isinf(e) || std::isinf(a)) {
          if (e != a) d = rel = kInf;
        } else {
          d = std::fabs(a - e);
          rel = relative_error(d, e);
        }
      }
      abs_err[j] = d;
      rel_err[j] = rel;
    }
  }

  // Types without arithmetic (and any other): identical runs skipped, the rest through the
  // reference, which compares their bytes.
  static void bytes(ComparisonBuilder& cb, int64_t begin, const Tensor& expected_block, const Tensor& block) {
    const int64_t size = static_cast<int64_t>(dtype_size(cb.dtype_));
    const int64_t n = block.numel();
    if (size == 0) return cb.add_reference(begin, expected_block, block, 0, n);
    const int64_t step = std::max<int64_t>(1, kRunBytes / size);
    const char* expected = static_cast<const char*>(expected_block.raw());
    const char* actual = static_cast<const char*>(block.raw());
    for (int64_t i = 0; i < n; i += step) {
      const int64_t m = std::min(step, n - i);
      if (cb.worst_score_ >= 0 &&
          std::memcmp(expected + i * size, actual + i * size, static_cast<size_t>(m * size)) == 0)
        cb.errors_.add_exact(m);
      else cb.add_reference(begin, expected_block, block, i, i + m);
    }
  }
};

void ComparisonBuilder::add_fast(int64_t begin, const Tensor& expected, const Tensor& block) {
  const int64_t n = block.numel();
  if (n == 0) return;
  const char* e = static_cast<const char*>(expected.raw());
  const char* a = static_cast<const char*>(block.raw());
  switch (dtype_) {
    case DType::kFloat: return FastComparison::run<ElemF32>(*this, begin, e, a, n);
    case DType::kDouble: return FastComparison::run<ElemF64>(*this, begin, e, a, n);
    case DType::kFloat16: return FastComparison::run<ElemF16>(*this, begin, e, a, n);
    case DType::kBFloat16: return FastComparison::run<ElemBF16>(*this, begin, e, a, n);
    case DType::kInt8: return FastComparison::run<ElemInt<int8_t>>(*this, begin, e, a, n);
    case DType::kUInt8: return FastComparison::run<ElemInt<uint8_t>>(*this, begin, e, a, n);
    case DType::kBool: return FastComparison::run<ElemBool>(*this, begin, e, a, n);
    case DType::kInt16: return FastComparison::run<ElemInt<int16_t>>(*this, begin, e, a, n);
    case DType::kUInt16: return FastComparison::run<ElemInt<uint16_t>>(*this, begin, e, a, n);
    case DType::kInt32: return FastComparison::run<ElemInt<int32_t>>(*this, begin, e, a, n);
    case DType::kUInt32: return FastComparison::run<ElemInt<uint32_t>>(*this, begin, e, a, n);
    case DType::kInt64: return FastComparison::run<ElemInt<int64_t>>(*this, begin, e, a, n);
    case DType::kUInt64: return FastComparison::run<ElemInt<uint64_t>>(*this, begin, e, a, n);
    default: return FastComparison::bytes(*this, begin, expected, block);
  }
}

}  // namespace onnxrun
