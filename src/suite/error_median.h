// The exact median of a comparison's errors in memory bounded independently of the
// tensor's size (suite/error_stats.h). Errors are nonnegative doubles, and for those the
// order of the values is the order of their bit patterns, so the k-th smallest can be
// found by a radix select over the bits: a histogram of the top 16 bits finds the bucket
// that holds it, the next pass looks only inside that bucket, and so on; a bucket small
// enough is collected whole and searched with nth_element.
//
// Up to `keep` errors are simply kept, as the median needs no more than that: one pass,
// nothing else to do, as for nearly every test output. Past `keep`, the kept errors go
// into the histogram and the owner is asked for more passes over the same errors in the
// same order (needs_pass), each costing 1.5 MiB per rank sought and at most `keep`
// values. At most 3 more passes (64 bits, 16 at a time); nearly always one, none when
// the median's bucket holds one value.
//
// The first pass also guesses: when it stops keeping, the kept errors (the first `keep`)
// say which bucket of the top histogram the middle of them all will likely fall in, and
// from then on the errors in that bucket are counted by their next 12 bits too (32 KiB).
// A middle rank in that bucket starts the second pass 28 bits in, not 16, and is then
// nearly always collected at once: a pass fewer where every element differs by a little
// (docs/perf.md). A wrong guess costs nothing but its counting.
//
// It also places a window: the kept errors are a sample of them all, so the middle
// lies, within a few standard deviations of a sample's quantile, between two of their
// values, lo and hi. The rest of the first pass counts each error below lo, at lo, at
// hi or above hi, and collects those between, at most `keep` of them. A middle rank that
// falls among those is found without another pass: the usual case where every element
// differs a little, in an order that does not sort the errors. Otherwise the histogram
// and the guess go on as above.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "core/tensor.h"

namespace onnxrun {

class ErrorMedian {
 public:
  static constexpr int kDigitBits = 16;  // of an error's bits, told apart in one pass

  // `keep` = 0: keep every error, in one pass (for errors that cannot be passed twice).
  // `count_hint`: the number of elements, when known: room for that many errors (at most
  // `keep`) is reserved at the first, so that keeping them copies none.
  explicit ErrorMedian(size_t keep, int64_t count_hint = 0);
  ~ErrorMedian();
  ErrorMedian(ErrorMedian&&) noexcept;
  ErrorMedian& operator=(ErrorMedian&&) noexcept;

  // The next nonzero error (v > 0, possibly infinite). Every pass must add the same
  // errors in the same order.
  // Always inline: called for every error of a comparison whose elements all differ,
  // where a call costs more than the add (docs/perf.md).
  [[gnu::always_inline]] void add(double v) {
    if (room_ > 0) {
      if (kept_count_ == kept_capacity_) grow_kept();
      kept_[kept_count_++] = v;
      --room_;
    } else if (top_) {  // the first pass, past `keep`: the top 16 bits counted here, inline
      add_to_top(v);
      if (window_) window_->add_run(&v, 1);
    } else if ((bits_of(v) & sought_mask_) == sought_bits_) {  // a later pass: most errors miss every bucket sought
      add_slow(v);
    }
  }
  // add(v[k]) for each nonzero v[k], k in [0, n), in order: the errors of a run of
  // elements at once, zeros among them (those are no errors).
  void add_nonzero(const double* v, int64_t n);
  // `n` elements without an error, which add_nonzero was not given: only the guess wants
  // them (how many of all the elements are zeros).
  void add_zeros(int64_t n) { seen_ += pass_ == 0 ? n : 0; }
  // After a pass over every error: whether finish() needs one more (then call begin_pass
  // and add them all again). `count`: the number of elements, zero errors included, the
  // same in every call.
  bool needs_pass(int64_t count);
  void begin_pass();
  // The median of `count` errors of which all but those added are 0: the middle one, or
  // the mean of the two middle ones as lo / 2 + hi / 2. REQUIRES: !needs_pass(count).
  double finish(int64_t count);

  // Errors counted apart, on other threads, and merged back: part() gives an empty one in
  // this one's pass, seeking what it seeks; merge() adds what it counted, in any order
  // (kept errors, histograms and buckets collected are sets, so the median is the same).
  // `parts`: how many take pass one's errors between them; each keeps 1/parts of what
  // this one keeps, so that their kept errors together stay bounded.
  ErrorMedian part(size_t parts) const;
  void merge(ErrorMedian&& other);

 private:
  // Counts of the errors by one 16-bit digit of their bits, with the least and greatest
  // bits seen at each: a bucket whose least and greatest agree holds one value only,
  // which ends the search there (errors of one ULP are powers of two, one per binade,
  // and would otherwise take all four passes). One record per bucket, so that an error
  // costs one cache line.
  struct Bucket {
    uint64_t count = 0, least = ~uint64_t{0}, greatest = 0;
    // Branches, not selects: past a bucket's first few errors a new least or greatest is
    // rare, and a select stores all three fields at every error (two medians' histograms
    // in the first pass were bound by those stores).
    void add(uint64_t bits) {
      ++count;
      if (bits < least) least = bits;
      if (bits > greatest) greatest = bits;
    }
  };
  using Histogram = std::vector<Bucket>;
  struct Rank;  // one order statistic being sought
  // The first pass's window around the likely middle: every error past `keep` counted
  // by where it lies against lo <= hi (count_window, suite/error_window.h), and those
  // strictly between kept. A window of one value (lo == hi) counts it `at_lo`.
  struct Window {
    double lo = 0, hi = 0;
    size_t room = 0;                           // for errors inside: `keep`
    uint64_t below = 0, at_lo = 0, at_hi = 0;  // what is above, find() need not know
    std::vector<double> inside;
    bool overflowed = false;  // more than `room` inside: the window tells nothing

    void add_run(const double* v, int64_t n);  // counts each v[k] != 0 (zeros are no errors)
    void keep_inside(double v) {
      if (inside.size() < room) inside.push_back(v);
      else overflowed = true;
    }
    // The same errors counted against a window [l, h] within this one's.
    void narrow_to(double l, double h);
    // Whether the q-th smallest (0-based) of the errors counted is in the window, and then
    // which it is.
    bool find(uint64_t q, double& value);
  };
  static uint64_t bits_of(double v) {
    uint64_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
  }
  // The bucket of the top histogram guessed to hold the middle, and its errors counted
  // by their next kGuessBits bits.
  static constexpr int kGuessBits = 12;
  struct Guess {
    uint64_t bucket = 0;
    std::vector<uint64_t> counts = std::vector<uint64_t>(size_t{1} << kGuessBits);
  };
  void add_to_top(double v) {
    const uint64_t b = bits_of(v);
    (*top_)[b >> (64 - kDigitBits)].add(b);
    if (guess_ && b >> (64 - kDigitBits) == guess_->bucket) ++guess_->counts[guessed_digit(b)];
    ++nonzero_;
  }
  static size_t guessed_digit(uint64_t b) { return (b << kDigitBits) >> (64 - kGuessBits); }
  void add_slow(double v);
  void grow_kept();
  void drop_kept();  // room for more kept errors: first_reserve_ at first, then twice as many
  // Past `keep`: the kept errors into the first histogram. The guess and the window are
  // made from them, or, with `adopt`, are that part's (a merge's: parts must agree).
  void spill(const ErrorMedian* adopt = nullptr);
  void guess_from_kept();
  // From the kept errors, the guess's nth_element at `at` made: the window around the
  // middle's `share` of the nonzero errors, of `elements` so far.
  void window_from_kept(double share, double elements, double* at);
  void merge_window(Window* other);  // the window of a part merged
  void plan(int64_t count);

  size_t keep_;
  size_t room_;  // errors still to keep in the first pass: 0 past `keep_` and in later passes
  size_t first_reserve_;
  int pass_ = 0;
  uint64_t nonzero_ = 0;  // errors added in the first pass
  // The first pass's errors, while at most `keep_`: a plain array, since a vector's
  // push_back is a call where the add is a store, in a Buffer, whose large sizes are
  // mappings kept for reuse with huge pages: a fresh 8 MiB faulted in at every comparison
  // cost a fifth of one whose elements all differ (docs/perf.md).
  std::shared_ptr<Buffer> kept_buffer_;
  double* kept_ = nullptr;
  size_t kept_count_ = 0, kept_capacity_ = 0;
  std::unique_ptr<Histogram> top_;  // past `keep_`: of the top 16 bits of every error
  int64_t seen_ = 0;                // the first pass's elements, zeros included
  // Past `keep_`, when the kept errors gave one: what the guess has counted, of every
  // error since top_ was made (null once a merge finds parts that guessed otherwise).
  std::unique_ptr<Guess> guess_;
  // Past `keep_`, when the kept errors gave one: the window (null once it holds more than
  // `keep_` errors, or a merge finds parts whose windows do not overlap).
  std::unique_ptr<Window> window_;
  std::vector<std::unique_ptr<Rank>> ranks_;
  int settled_ = -1;  // the last pass whose counts have been read
  // In a later pass, the bits every rank still sought has in common, when they seek one
  // bucket (as the two middle ranks nearly always do): an error without them is no
  // rank's. Mask 0 lets every error through; bits of all ones (a NaN, never an error)
  // let none, once every rank is found.
  uint64_t sought_mask_ = 0, sought_bits_ = 0;
};

}  // namespace onnxrun
