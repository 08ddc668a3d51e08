#include "suite/error_median.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include "core/hardware.h"
#include "suite/error_window.h"

namespace onnxrun {
namespace {

constexpr size_t kBuckets = size_t{1} << ErrorMedian::kDigitBits;

double value_of(uint64_t b) {
  double v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

// The middle of two order statistics, as the median has always been taken here.
double middle(double lo, double hi) { return lo == hi ? lo : lo / 2 + hi / 2; }

uint64_t bits_of(double v) {
  uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// The q-th smallest (0-based) of the errors [begin, end) and, when `and_next`, the middle
// of it and the (q+1)-th. The errors are nonnegative, so they order as their bits do: a
// radix select counts one 16-bit digit, keeps in place only the bucket holding the q-th,
// and goes on to the next digit, until what is left is all one value or few enough for
// nth_element. Over the million errors kept for a median that takes about two thirds of
// nth_element's time (docs/perf.md), and a bucket of one value (errors of one ULP are
// powers of two) ends it early. The errors are reordered, none overwritten.
double kth(double* begin, double* end, uint64_t q, bool and_next) {
  constexpr ptrdiff_t kFew = 4096;
  std::optional<double> next;  // the (q+1)-th, once it is known to lie past q's bucket
  // The digit's counts (256 KiB), one buffer per thread for every call: kth runs once per
  // rank sought, and a buffer of its own each time would be allocated and freed as often.
  // Counts fit 32 bits: kth sorts errors kept in memory, far fewer than 2^32.
  thread_local std::vector<uint32_t> counts;
  const bool countable = static_cast<uint64_t>(end - begin) < (uint64_t{1} << 32);
  for (int shift = 64 - ErrorMedian::kDigitBits; countable && shift >= 0 && end - begin > kFew;
       shift -= ErrorMedian::kDigitBits) {
    auto digit = [shift](uint64_t b) { return (b >> shift) & (kBuckets - 1); };
    counts.assign(kBuckets, 0);
    uint64_t least = ~uint64_t{0}, greatest = 0;
    for (const double* p = begin; p != end; ++p) {
      const uint64_t b = bits_of(*p);
      ++counts[digit(b)];
      least = std::min(least, b);
      greatest = std::max(greatest, b);
    }
    if (least == greatest) return next ? middle(*begin, *next) : *begin;  // the q-th and the (q+1)-th
    uint64_t d = 0;
    while (q >= counts[d]) q -= counts[d++];
    if (and_next && q + 1 == counts[d]) {  // the (q+1)-th is the least of a later bucket
      uint64_t above = ~uint64_t{0};
      for (const double* p = begin; p != end; ++p) {  // on the bits, in a register
        const uint64_t b = bits_of(*p);
        above = digit(b) > d && b < above ? b : above;
      }
      next = value_of(above);
      and_next = false;
    }
    // The bucket moved to the front by swaps, without a branch (it may be any share):
    // the errors are only reordered, so that the two middle ranks may each search the
    // same collected bucket (needs_pass).
    double* kept = begin;
    for (double* p = begin; p != end; ++p) {
      const double v = *p;
      *p = *kept;
      *kept = v;
      kept += digit(bits_of(v)) == d;
    }
    end = kept;
  }
  double* at = begin + q;
  std::nth_element(begin, at, end);
  if (and_next) next = *std::min_element(at + 1, end);
  return next ? middle(*at, *next) : *at;
}

// The bits of an error a histogram tells apart after its top `fixed`: 16, fewer at the
// end (a guess narrows 12 bits, so `fixed` need not be a multiple of 16).
int digit_bits(int fixed) { return std::min(ErrorMedian::kDigitBits, 64 - fixed); }

}  // namespace

// One order statistic: the q-th smallest (0-based) of the errors whose top `fixed` bits
// are `prefix`, of which there are `in_bucket`.
struct ErrorMedian::Rank {
  uint64_t q = 0, prefix = 0, in_bucket = 0;
  int fixed = 0;
  bool done = false;
  double value = 0;
  // The two middle ranks nearly always seek one bucket: the later one then counts
  // nothing itself and reads the earlier one's (the index of that rank in ranks_), which
  // halves the work of a later pass.
  int same_as = -1;
  std::unique_ptr<Histogram> histogram;  // this pass: of the next 16 bits, when the bucket is too large to collect
  std::vector<double> values;            // this pass: the bucket's errors, when it is small enough

  bool collects(size_t keep) const { return in_bucket <= keep; }
  bool in(uint64_t b) const { return (b >> (64 - fixed)) == prefix; }
  // Narrows to the bucket of `h` (of the digit after `fixed` bits) holding the rank.
  void narrow(const Histogram& h) {
    uint64_t digit = 0;
    while (q >= h[digit].count) q -= h[digit++].count;
    const int bits = digit_bits(fixed);
    prefix = fixed == 0 ? digit : (prefix << bits) | digit;
    fixed += bits;
    in_bucket = h[digit].count;
    if (h[digit].least == h[digit].greatest) {  // one value in the bucket (every bit known at 64)
      value = value_of(h[digit].least);
      done = true;
    }
  }
  // Narrows a rank in the guessed bucket by the guess's counts, which hold every error of
  // the bucket (a guess that holds fewer is ignored: a pass more, never a wrong rank).
  void narrow(const Guess& g) {
    uint64_t counted = 0;
    for (uint64_t c : g.counts) counted += c;
    if (done || fixed != kDigitBits || prefix != g.bucket || counted != in_bucket) return;
    uint64_t digit = 0;
    while (q >= g.counts[digit]) q -= g.counts[digit++];
    prefix = (prefix << kGuessBits) | digit;
    fixed += kGuessBits;
    in_bucket = g.counts[digit];
  }
};

ErrorMedian::ErrorMedian(size_t keep, int64_t count_hint)
    : keep_(keep),
      room_(keep ? keep : std::numeric_limits<size_t>::max()),
      first_reserve_(std::min(room_, static_cast<size_t>(std::max<int64_t>(count_hint, 0)))) {}
ErrorMedian::~ErrorMedian() = default;
ErrorMedian::ErrorMedian(ErrorMedian&&) noexcept = default;
ErrorMedian& ErrorMedian::operator=(ErrorMedian&&) noexcept = default;

void ErrorMedian::Window::narrow_to(double l, double h) {
  Window w;
  w.lo = l;
  w.hi = h;
  w.room = room;
  w.below = below;  // below lo <= l
  w.overflowed = overflowed;
  for (const auto& [v, n] : {std::pair{lo, at_lo}, std::pair{hi, at_hi}}) {  // lo <= l and hi >= h: never inside
    w.below += v < l ? n : 0;
    w.at_lo += v == l ? n : 0;
    w.at_hi += v == h && h != l ? n : 0;
  }
  w.add_run(inside.data(), static_cast<int64_t>(inside.size()));
  *this = std::move(w);
}

void ErrorMedian::Window::add_run(const double* v, int64_t n) {
  // Counted a vector at a time (suite/error_window.h); those inside are copied to `found`
  // a step at a time, and kept from there.
  static const CountWindow count = count_window_for(hardware_config());
  constexpr int64_t kStep = 256;
  double found[kStep + 8];
  WindowCounts c;
  for (int64_t from = 0; from < n; from += kStep) {
    const size_t m = count(v + from, static_cast<size_t>(std::min(kStep, n - from)), lo, hi, c, found);
    for (size_t k = 0; k < m; ++k) keep_inside(found[k]);
  }
  // A zero is no error: counted below lo, or at lo when lo is 0.
  const uint64_t zeros_below = lo > 0 ? c.zeros : 0;
  below += c.below - zeros_below;
  at_lo += c.at_lo - (c.zeros - zeros_below);
  at_hi += hi != lo ? c.at_hi : 0;
}

bool ErrorMedian::Window::find(uint64_t q, double& value) {
  if (overflowed || q < below) return false;
  q -= below;
  if (q < at_lo) {
    value = lo;
    return true;
  }
  q -= at_lo;
  if (q < inside.size()) {
    value =
        kth(inside.data(), inside.data() + inside.size(), q, false);  // reorders only: the other rank may search too
    return true;
  }
  q -= inside.size();
  if (q < at_hi) {
    value = hi;
    return true;
  }
  return false;
}

void ErrorMedian::spill(const ErrorMedian* adopt) {
  top_ = std::make_unique<Histogram>(kBuckets);
  if (adopt) {  // a merge's: its parts must guess and place their windows alike
    if (adopt->guess_) {
      guess_ = std::make_unique<Guess>();
      guess_->bucket = adopt->guess_->bucket;
    }
    if (adopt->window_) {
      window_ = std::make_unique<Window>();
      window_->lo = adopt->window_->lo;
      window_->hi = adopt->window_->hi;
      window_->room = keep_;
    }
  } else {
    guess_from_kept();
  }
  for (size_t i = 0; i < kept_count_; ++i) add_to_top(kept_[i]);
  if (window_) window_->add_run(kept_, static_cast<int64_t>(kept_count_));
  // A guessed bucket of one value so far likely stays one (errors of one ULP, a power of
  // two per binade): the top histogram alone will find its rank, and counting its many
  // equal errors a second time would cost the first pass a tenth.
  if (guess_ && !adopt && (*top_)[guess_->bucket].least == (*top_)[guess_->bucket].greatest) guess_.reset();
  drop_kept();
  room_ = 0;
}

void ErrorMedian::guess_from_kept() {
  if (kept_count_ == 0) return;
  // The middle of all the elements, as a share of the nonzero errors, zeros being
  // the least: none when the kept ones say that the middle is likely a zero.
  const auto nonzero = static_cast<double>(kept_count_);
  const double elements = std::max(static_cast<double>(seen_), nonzero);
  const double share = (elements / 2 - (elements - nonzero)) / nonzero;
  if (!(share > 0)) return;
  double* const at = kept_ + std::min(kept_count_ - 1, static_cast<size_t>(share * nonzero));
  std::nth_element(kept_, at, kept_ + kept_count_);  // the kept errors are a set: any order
  guess_ = std::make_unique<Guess>();
  guess_->bucket = bits_of(*at) >> (64 - kDigitBits);
  window_from_kept(share, elements, at);
}

void ErrorMedian::window_from_kept(double share, double elements, double* at) {
  // How far the middle's share of all the nonzero errors may lie from `share`: six
  // standard deviations, of a sample quantile and of the share of zeros it was computed
  // from ((1/2 - z) / (1 - z) moves by 1/2 / (1 - z)^2 with z), and an error more.
  const auto n = static_cast<double>(kept_count_);
  const double z = (elements - n) / elements;
  const double z_weight = 0.5 / ((1 - z) * (1 - z));
  const double delta = 6 * std::sqrt(share * (1 - share) / n + z_weight * z_weight * z * (1 - z) / elements) + 1 / n;
  window_ = std::make_unique<Window>();
  window_->room = keep_;
  double* const end = kept_ + kept_count_;
  // After the guess's nth_element, the kept errors before `at` are at most *at, those
  // after it at least.
  const double lo_at = std::floor((share - delta) * n), hi_at = std::ceil((share + delta) * n);
  if (lo_at < 0) {
    window_->lo = 0;  // no error is below: errors are positive
  } else {
    double* const lo = std::min(kept_ + static_cast<size_t>(lo_at), at);
    std::nth_element(kept_, lo, at);
    window_->lo = *lo;
  }
  if (hi_at >= n) {
    window_->hi = std::numeric_limits<double>::infinity();  // no error is above
  } else {
    double* const hi = std::max(kept_ + static_cast<size_t>(hi_at), at);
    std::nth_element(at, hi, end);
    window_->hi = *hi;
  }
}

void ErrorMedian::grow_kept() {
  const size_t capacity = kept_capacity_ ? 2 * kept_capacity_ : std::max<size_t>(first_reserve_, 64);
  std::shared_ptr<Buffer> bigger = Buffer::allocate(capacity * sizeof(double), "the errors kept for a median");
  double* to = reinterpret_cast<double*>(bigger->mutable_data());
  std::copy(kept_, kept_ + kept_count_, to);
  kept_buffer_ = std::move(bigger);
  kept_ = to;
  kept_capacity_ = capacity;
}

void ErrorMedian::drop_kept() {
  kept_buffer_.reset();
  kept_ = nullptr;
  kept_count_ = kept_capacity_ = 0;
}

void ErrorMedian::add_nonzero(const double* v, int64_t n) {
  const auto count = static_cast<size_t>(n);
  if (room_ >= count && kept_capacity_ - kept_count_ >= count) {  // kept: a copy without a branch
    seen_ += n;
    double* const first = kept_ + kept_count_;
    double* to = first;
    for (int64_t k = 0; k < n; ++k) {
      *to = v[k];
      to += v[k] != 0;
    }
    const auto added = static_cast<size_t>(to - first);
    kept_count_ += added;
    room_ -= added;
    return;
  }
  if (room_ == 0 && top_) {  // the first pass, past `keep`: the top digit counted, the histogram at hand
    Bucket* const top = top_->data();
    uint64_t* const guessed = guess_ ? guess_->counts.data() : nullptr;
    const uint64_t guessed_bucket = guess_ ? guess_->bucket : kBuckets;  // kBuckets: no top digit
    if (window_) window_->add_run(v, n);
    uint64_t nonzero = 0;
    for (int64_t k = 0; k < n; ++k) {
      if (v[k] == 0) continue;
      const uint64_t b = bits_of(v[k]);
      top[b >> (64 - kDigitBits)].add(b);
      if (b >> (64 - kDigitBits) == guessed_bucket) ++guessed[guessed_digit(b)];
      ++nonzero;
    }
    nonzero_ += nonzero;
    return;
  }
  if (pass_ > 0) {  // a later pass: one mask test rejects most errors
    const uint64_t mask = sought_mask_, sought = sought_bits_;
    if (mask == ~uint64_t{0} && sought == ~uint64_t{0}) return;  // every rank found (begin_pass)
    for (int64_t k = 0; k < n; ++k)
      if (v[k] != 0 && (bits_of(v[k]) & mask) == sought) add_slow(v[k]);
    return;
  }
  for (int64_t k = 0; k < n; ++k) {  // the first pass, up to and past `keep`
    ++seen_;                         // what the guess made at the spill reads
    if (v[k] != 0) add(v[k]);
  }
}

void ErrorMedian::add_slow(double v) {
  const uint64_t b = bits_of(v);
  if (pass_ == 0) {  // the first error past `keep`
    spill();
    add(v);  // into the histogram and the window now made
    return;
  }
  for (const std::unique_ptr<Rank>& r : ranks_) {
    if (r->done || r->same_as >= 0 || !r->in(b)) continue;
    if (r->collects(keep_)) r->values.push_back(v);
    else (*r->histogram)[(b << r->fixed) >> (64 - digit_bits(r->fixed))].add(b);
  }
}

void ErrorMedian::plan(int64_t count) {
  const int64_t zeros = count - static_cast<int64_t>(nonzero_);
  // The middle element, or the two middle ones of an even count.
  std::vector<int64_t> middle_ranks{(count - 1) / 2};
  if (count % 2 == 0) middle_ranks.push_back(count / 2);
  for (int64_t k : middle_ranks) {
    auto r = std::make_unique<Rank>();
    if (k < zeros) {
      r->done = true;  // a zero error
    } else {
      r->q = static_cast<uint64_t>(k - zeros);
      if (window_ && window_->find(r->q, r->value)) {
        r->done = true;  // found in the first pass
      } else {
        r->narrow(*top_);
        if (guess_) r->narrow(*guess_);
      }
    }
    ranks_.push_back(std::move(r));
  }
  top_.reset();
  guess_.reset();
  window_.reset();
}

bool ErrorMedian::needs_pass(int64_t count) {
  if (!top_ && ranks_.empty()) return false;  // every error kept: nothing to look for
  if (settled_ == pass_) {
    // asked again before another pass: the same answer
  } else if (ranks_.empty()) {  // the first pass: which buckets hold the middle
    plan(count);
  } else {
    // The pass just made: each rank narrowed by its histogram, or found in its bucket
    // (those of a rank seeking the same bucket as an earlier one), then both let go.
    for (const std::unique_ptr<Rank>& r : ranks_) {
      if (r->done) continue;
      Rank& counted = r->same_as >= 0 ? *ranks_[static_cast<size_t>(r->same_as)] : *r;
      if (r->collects(keep_)) {
        r->value = kth(counted.values.data(), counted.values.data() + counted.values.size(), r->q, false);
        r->done = true;
      } else {
        r->narrow(*counted.histogram);
      }
    }
    for (const std::unique_ptr<Rank>& r : ranks_) {
      r->values = {};
      r->histogram.reset();
      r->same_as = -1;
    }
  }
  settled_ = pass_;
  return std::any_of(ranks_.begin(), ranks_.end(), [](const std::unique_ptr<Rank>& r) { return !r->done; });
}

void ErrorMedian::begin_pass() {
  ++pass_;
  room_ = 0;
  const Rank* first = nullptr;
  bool one_bucket = true;
  for (size_t i = 0; i < ranks_.size(); ++i) {
    Rank* r = ranks_[i].get();
    if (r->done) continue;
    for (size_t j = 0; j < i && r->same_as < 0; ++j)
      if (!ranks_[j]->done && ranks_[j]->fixed == r->fixed && ranks_[j]->prefix == r->prefix)
        r->same_as = static_cast<int>(j);
    if (r->same_as >= 0) continue;
    if (r->collects(keep_)) r->values.reserve(r->in_bucket);
    else r->histogram = std::make_unique<Histogram>(kBuckets);
    if (!first) first = r;
    else one_bucket &= r->fixed == first->fixed && r->prefix == first->prefix;
  }
  // Every rank sought is past the top digit (fixed >= 16, and < 64 while not done).
  if (!first) {  // every rank found: no error is wanted (bits no error has: above +inf)
    sought_mask_ = ~uint64_t{0};
    sought_bits_ = ~uint64_t{0};
  } else {
    sought_mask_ = one_bucket ? ~uint64_t{0} << (64 - first->fixed) : 0;
    sought_bits_ = one_bucket ? first->prefix << (64 - first->fixed) : 0;
  }
}

ErrorMedian ErrorMedian::part(size_t parts) const {
  if (pass_ == 0) {
    // Its share kept, with room for all of it at its first error (as this one reserves
    // for its own), so that growing never holds two copies.
    if (keep_ == 0) return ErrorMedian(0);
    const size_t share = std::max<size_t>(keep_ / std::max<size_t>(parts, 1), 1);
    return ErrorMedian(share, static_cast<int64_t>(share));
  }
  ErrorMedian p(keep_);
  p.pass_ = p.settled_ = pass_;
  p.room_ = 0;
  p.sought_mask_ = sought_mask_;
  p.sought_bits_ = sought_bits_;
  for (const std::unique_ptr<Rank>& r : ranks_) {
    auto copy = std::make_unique<Rank>();
    copy->q = r->q;
    copy->prefix = r->prefix;
    copy->in_bucket = r->in_bucket;
    copy->fixed = r->fixed;
    copy->done = r->done;
    copy->value = r->value;
    copy->same_as = r->same_as;
    if (!r->done && r->same_as < 0 && !r->collects(keep_)) copy->histogram = std::make_unique<Histogram>(kBuckets);
    p.ranks_.push_back(std::move(copy));
  }
  return p;
}

void ErrorMedian::merge(ErrorMedian&& other) {
  auto add_histogram = [](Histogram& to, const Histogram& from) {
    for (size_t k = 0; k < kBuckets; ++k) {
      to[k].count += from[k].count;
      to[k].least = std::min(to[k].least, from[k].least);
      to[k].greatest = std::max(to[k].greatest, from[k].greatest);
    }
  };
  if (pass_ > 0) {
    for (size_t i = 0; i < ranks_.size(); ++i) {
      Rank& r = *ranks_[i];
      Rank& o = *other.ranks_[i];
      if (r.done || r.same_as >= 0) continue;
      if (r.collects(keep_)) r.values.insert(r.values.end(), o.values.begin(), o.values.end());
      else add_histogram(*r.histogram, *o.histogram);
    }
    return;
  }
  const bool fits = !top_ && !other.top_ && (keep_ == 0 || kept_count_ + other.kept_count_ <= keep_);
  if (fits) {
    for (size_t i = 0; i < other.kept_count_; ++i) add(other.kept_[i]);
    seen_ += other.seen_;
    return;
  }
  if (!top_) spill(other.top_ ? &other : nullptr);
  if (other.top_) {
    add_histogram(*top_, *other.top_);
    nonzero_ += other.nonzero_;
    // The guess's counts stand only where both counted the same bucket all along.
    if (guess_ && other.guess_ && guess_->bucket == other.guess_->bucket) {
      for (size_t k = 0; k < guess_->counts.size(); ++k) guess_->counts[k] += other.guess_->counts[k];
    } else {
      guess_.reset();
    }
    merge_window(other.window_.get());
  } else {
    for (size_t i = 0; i < other.kept_count_; ++i) add_to_top(other.kept_[i]);  // the guess counts them too
    if (window_) window_->add_run(other.kept_, static_cast<int64_t>(other.kept_count_));
  }
  seen_ += other.seen_;
}

void ErrorMedian::merge_window(Window* other) {
  // Two windows tell the counts of what lies in both: each counted against their overlap.
  const double lo = window_ && other ? std::max(window_->lo, other->lo) : 0;
  const double hi = window_ && other ? std::min(window_->hi, other->hi) : 0;
  if (!window_ || !other || lo > hi) {
    window_.reset();
    return;
  }
  window_->narrow_to(lo, hi);
  other->narrow_to(lo, hi);
  window_->below += other->below;
  window_->at_lo += other->at_lo;
  window_->at_hi += other->at_hi;
  window_->overflowed |= other->overflowed;
  for (double v : other->inside) window_->keep_inside(v);
}

double ErrorMedian::finish(int64_t count) {
  if (count == 0) return 0;
  if (ranks_.empty()) {  // every error kept; the rest of the `count` are 0
    const int64_t zeros = count - static_cast<int64_t>(kept_count_), lo = (count - 1) / 2;
    double* const begin = kept_;
    double* const end = begin + kept_count_;
    double m = 0;
    if (lo + 1 < zeros || (lo < zeros && count % 2)) m = 0;                       // both middles zero
    else if (lo < zeros) m = middle(0, kth(begin, end, 0, false));                // zero and the least error
    else m = kth(begin, end, static_cast<uint64_t>(lo - zeros), count % 2 == 0);  // both among the errors
    drop_kept();
    return m;
  }
  return middle(ranks_.front()->value, ranks_.back()->value);
}

}  // namespace onnxrun
