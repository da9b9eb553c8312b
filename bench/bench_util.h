// Helpers shared by the native benchmark programs (bench/*.cpp): unwrap a Result or exit, and
// elapsed milliseconds.
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "urnforest/status.h"

namespace urnforest::bench {

/// The value of `r`, or exit(1) after printing "`program`: `what`: <error message>" to stderr.
template <typename T>
T OrDie(Result<T> r, const char* program, const char* what) {
  if (!r.ok()) {
    std::fprintf(stderr, "%s: %s: %s\n", program, what, r.status().message.c_str());
    std::exit(1);
  }
  return std::move(r).value();
}

/// Milliseconds elapsed since `t0`.
inline double MsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace urnforest::bench
