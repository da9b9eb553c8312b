#pragma once
// Private: a probability carried through a long product of ratios (pmf recurrences): a plain double
// while it is at least 1e-280, else a mantissa times a power of two, so that a value far below the
// smallest double can come back up. No transcendental call per step. UpperBound() never understates
// the value.
#include <cmath>

namespace urnforest::internal {

class TrackedProbability {
 public:
  /// Starts from exp(log_value) (log_value may be -infinity: zero).
  void Set(double log_value) {
    if (log_value > kLogTiny) {
      linear_ = true;
      value_ = std::exp(log_value);
      return;
    }
    linear_ = false;
    if (log_value == -INFINITY) {
      value_ = 0.0;
      exponent_ = 0;
      return;
    }
    const double e = std::floor(log_value / kLn2);
    exponent_ = static_cast<long>(e);
    value_ = std::exp(log_value - e * kLn2);  // mantissa in [1, 2)
  }
  /// Multiplies by ratio >= 0.
  void Mul(double ratio) {
    value_ *= ratio;
    if (linear_) {
      if (value_ >= kTiny || value_ == 0.0) return;
      linear_ = false;  // value_ is still an exact double here: split it
      int e = 0;
      value_ = std::frexp(value_, &e);
      exponent_ = e;
      return;
    }
    if (value_ == 0.0) return;
    int e = 0;  // renormalised every step, so the exponent always tells the magnitude
    value_ = std::frexp(value_, &e);
    exponent_ += e;
    if (exponent_ > kBackExponent) {  // above 2^-890 (the mantissa is in [0.5, 1)): linear again
      value_ = std::ldexp(value_, static_cast<int>(exponent_));
      linear_ = true;
    }
  }
  /// The value, or 0 while it is below 2^-890 (~1.8e-268).
  double Value() const { return linear_ ? value_ : 0.0; }
  /// At least the value: 1e-267 stands for anything below 2^-890.
  double UpperBound() const { return linear_ ? value_ : (value_ > 0.0 ? kTinyBound : 0.0); }

 private:
  static constexpr double kTiny = 1e-280;
  static constexpr double kLogTiny = -644.7238;  // log(1e-280)
  static constexpr double kTinyBound = 1e-267;  // > 2^-890, the largest value kept split
  static constexpr long kBackExponent = -890;
  static constexpr double kLn2 = 0.69314718055994530942;
  double value_ = 0.0;  // linear: the value; else the mantissa
  long exponent_ = 0;   // not linear: value = value_ * 2^exponent_
  bool linear_ = false;
};

}  // namespace urnforest::internal
