#include "suite/error_stats.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/fail.h"
#include "suite/error_decade.h"

namespace onnxrun {

bool ErrorStatsBuilder::needs_pass() {
  // Both asked: each reads what the pass counted.
  const bool abs = abs_median_.needs_pass(s_.count);
  const bool rel = rel_median_.needs_pass(s_.count);
  return abs || rel;
}

void ErrorStatsBuilder::begin_pass() {
  ++pass_;
  abs_median_.begin_pass();
  rel_median_.begin_pass();
}

void ErrorStatsBuilder::add_batch(const double* abs_err, const double* rel_err, int64_t n) {
  abs_median_.add_nonzero(abs_err, n);
  rel_median_.add_nonzero(rel_err, n);
  if (pass_ > 0) return;
  for (int64_t k = 0; k < n;) {
    const int64_t m = std::min(n - k, kSumChunk - s_.count % kSumChunk);
    add_within_chunk(abs_err + k, rel_err + k, m);
    k += m;
    if (s_.count % kSumChunk == 0) close_chunk();
  }
}

void ErrorStatsBuilder::add_within_chunk(const double* abs_err, const double* rel_err, int64_t n) {
  // The lanes as pairs (GCC's vector extension, an SSE2 register each: every x86-64 has
  // them; their adds are the scalar ones, lane by lane), held in registers across the
  // loop. The maxima need no fixed order, so two pairs each do.
  using Pair = double __attribute__((vector_size(2 * sizeof(double))));
  constexpr int kPairs = kSumLanes / 2;
  Pair sum_abs[kPairs], sum_rel[kPairs], max_abs[2], max_rel[2];
  std::memcpy(sum_abs, lane_abs_.data(), sizeof sum_abs);
  std::memcpy(sum_rel, lane_rel_.data(), sizeof sum_rel);
  for (int m = 0; m < 2; ++m) {
    max_abs[m] = Pair{s_.max_abs, s_.max_abs};
    max_rel[m] = Pair{s_.max_rel, s_.max_rel};
  }
  const auto take = [&](int lane, double a, double r) {
    sum_abs[lane / 2][lane % 2] += a;
    sum_rel[lane / 2][lane % 2] += r;
    max_abs[0][0] = std::max(max_abs[0][0], a);
    max_rel[0][0] = std::max(max_rel[0][0], r);
  };
  const int first = static_cast<int>(s_.count % kSumLanes);
  int64_t k = 0;
  for (; k < n && (first + k) % kSumLanes != 0; ++k) take(static_cast<int>(first + k), abs_err[k], rel_err[k]);
  for (; k + kSumLanes <= n; k += kSumLanes)
#pragma GCC unroll 4  // so that the arrays' elements are registers
    for (int p = 0; p < kPairs; ++p) {
      Pair a, r;
      std::memcpy(&a, abs_err + k + 2 * p, sizeof a);
      std::memcpy(&r, rel_err + k + 2 * p, sizeof r);
      sum_abs[p] += a;
      sum_rel[p] += r;
      max_abs[p % 2] = max_abs[p % 2] < a ? a : max_abs[p % 2];
      max_rel[p % 2] = max_rel[p % 2] < r ? r : max_rel[p % 2];
    }
  for (int lane = 0; k < n; ++k, ++lane) take(lane, abs_err[k], rel_err[k]);
  std::memcpy(lane_abs_.data(), sum_abs, sizeof sum_abs);
  std::memcpy(lane_rel_.data(), sum_rel, sizeof sum_rel);
  for (int m = 0; m < 4; ++m) {
    s_.max_abs = std::max(s_.max_abs, max_abs[m / 2][m % 2]);
    s_.max_rel = std::max(s_.max_rel, max_rel[m / 2][m % 2]);
  }
  // The histogram, apart from the sums: its branches and lookups then wait on no add.
  int64_t count = s_.count, exact = 0, infinite = 0;
  const DecadeTables& tables = *decade_tables_;
  for (int64_t i = 0; i < n; ++i) {
    const double a = abs_err[i];
    ++count;
    if (a == 0) ++exact;
    else if (std::isinf(a)) ++infinite;
    else ++decade_counts_[count % kDecadeLanes][decade_of(a, tables) - kMinDecade];
  }
  s_.count = count;
  s_.exact += exact;
  s_.infinite += infinite;
}

void ErrorStatsBuilder::close_chunk() {
  double abs = 0, rel = 0;
  for (int lane = 0; lane < kSumLanes; ++lane) {
    abs += lane_abs_[lane];
    rel += lane_rel_[lane];
  }
  if (abs != 0 || rel != 0) chunk_sums_.emplace_back(abs, rel);
  lane_abs_.fill(0);
  lane_rel_.fill(0);
}

ErrorStatsBuilder ErrorStatsBuilder::part(size_t parts) const {
  ErrorStatsBuilder p;
  p.pass_ = pass_;
  p.abs_median_ = abs_median_.part(parts);
  p.rel_median_ = rel_median_.part(parts);
  return p;
}

void ErrorStatsBuilder::merge(ErrorStatsBuilder&& later) {
  abs_median_.merge(std::move(later.abs_median_));
  rel_median_.merge(std::move(later.rel_median_));
  if (pass_ > 0) return;
  if (s_.count % kSumChunk != 0)  // the sums would be grouped otherwise than by one builder
    fail(ErrorKind::kInternal, "error statistics merged after {} elements, not a multiple of {}", s_.count, kSumChunk);
  s_.count += later.s_.count;
  s_.exact += later.s_.exact;
  s_.infinite += later.s_.infinite;
  s_.max_abs = std::max(s_.max_abs, later.s_.max_abs);
  s_.max_rel = std::max(s_.max_rel, later.s_.max_rel);
  chunk_sums_.insert(chunk_sums_.end(), later.chunk_sums_.begin(), later.chunk_sums_.end());
  lane_abs_ = later.lane_abs_;
  lane_rel_ = later.lane_rel_;
  for (size_t lane = 0; lane < decade_counts_.size(); ++lane)
    for (size_t k = 0; k < decade_counts_[lane].size(); ++k) decade_counts_[lane][k] += later.decade_counts_[lane][k];
}

ErrorStats ErrorStatsBuilder::finish() {
  if (s_.count > 0) {
    close_chunk();  // the last, open one: its sum added last, as any chunk's
    double sum_abs = 0, sum_rel = 0;
    for (const auto& [abs, rel] : chunk_sums_) {
      sum_abs += abs;
      sum_rel += rel;
    }
    s_.mean_abs = sum_abs / static_cast<double>(s_.count);
    s_.mean_rel = sum_rel / static_cast<double>(s_.count);
  }
  if (s_.count > s_.exact + s_.infinite)  // some finite nonzero error: the histogram has rows
    for (int k = 0; k < kMaxDecade - kMinDecade + 1; ++k) {
      int64_t n = 0;
      for (const auto& lane : decade_counts_) n += lane[k];
      if (n) s_.decades[k + kMinDecade] = n;
    }
  s_.median_abs = abs_median_.finish(s_.count);
  s_.median_rel = rel_median_.finish(s_.count);
  return s_;
}

}  // namespace onnxrun
