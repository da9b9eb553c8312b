#pragma once
// Private: a probability carried through a long product of ratios (pmf recurrences) without
// transcendental calls while it is representable, and in log space once it falls below 1e-280, so
// that a value that underflows can come back. UpperBound() never understates it.
#include <cmath>

namespace urnforest::internal {

class TrackedProbability {
 public:
  /// Starts from exp(log_value).
  void Set(double log_value) {
    log_ = log_value;
    linear_ = log_value > kLogTiny;
    value_ = linear_ ? std::exp(log_value) : 0.0;
  }
  /// Multiplies by ratio >= 0.
  void Mul(double ratio) {
    if (linear_) {
      const double next = value_ * ratio;
      if (next >= kTiny) {
        value_ = next;
        return;
      }
      linear_ = false;
      log_ = std::log(value_) + std::log(ratio);
      return;
    }
    log_ += std::log(ratio);
    if (log_ > kLogTiny + 20.0) {
      linear_ = true;
      value_ = std::exp(log_);
    }
  }
  /// The value (may round a tiny value down to 0).
  double Value() const { return linear_ ? value_ : std::exp(log_); }
  /// At least the value: tiny values count as kTiny * e^20.
  double UpperBound() const { return linear_ ? value_ : kTinyBound; }

 private:
  static constexpr double kTiny = 1e-280;
  static constexpr double kTinyBound = 1e-271;  // > kTiny * e^20
  static constexpr double kLogTiny = -644.7238;  // log(1e-280)
  double value_ = 0.0;
  double log_ = -INFINITY;
  bool linear_ = false;
};

}  // namespace urnforest::internal
