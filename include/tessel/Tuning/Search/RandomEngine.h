//===- RandomEngine.h - A small deterministic random engine -----*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The search draws every random decision from a RandomEngine: splitmix64
// (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
// OOPSLA 2014) and integer-only derived draws, so that a seed gives the same
// configs on every platform and standard library (std::uniform_int_distribution
// does not).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_SEARCH_RANDOMENGINE_H
#define TESSEL_TUNING_SEARCH_RANDOMENGINE_H

#include <cassert>
#include <cstdint>

namespace mlir {
namespace tessel {

/// splitmix64: 64 bits of state, one draw per call.
struct RandomEngine {
  uint64_t state = 0;

  explicit RandomEngine(uint64_t seed = 0) : state(seed) {}

  /// The next 64 random bits.
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  /// A uniform integer in [0, bound), without modulo bias. `bound` > 0.
  uint64_t uniform(uint64_t bound) {
    assert(bound > 0 && "empty range");
    // Reject the last, incomplete copy of [0, bound) among the 2^64 values.
    uint64_t threshold = (0 - bound) % bound;
    for (;;) {
      uint64_t value = next();
      if (value >= threshold)
        return value % bound;
    }
  }

  /// A uniform double in [0, 1) (53 random bits).
  double uniformReal() { return (next() >> 11) * 0x1.0p-53; }
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_SEARCH_RANDOMENGINE_H
