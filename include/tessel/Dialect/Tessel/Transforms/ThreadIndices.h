//===- ThreadIndices.h - Index values of one thread of a launch -*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The index arithmetic of a `gpu.launch` body evaluated for one thread:
// thread ids, constants and the `affine` and integer `arith` ops of them.
// Shared by the analyses that enumerate the threads of a block
// (tessel-forward-accumulators: which thread owns each element of a buffer;
// the shared-memory bank-conflict report: which banks a warp's lanes touch).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMS_THREADINDICES_H
#define TESSEL_DIALECT_TESSEL_TRANSFORMS_THREADINDICES_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/DenseMap.h"

#include <array>
#include <optional>

namespace mlir {
namespace tessel {

/// Evaluates index values of one thread of `launch`.
class ThreadIndexEvaluator {
public:
  /// What values other than thread ids and constants evaluate to.
  struct Options {
    /// Block ids evaluate to 0 (the first block) instead of nothing.
    bool firstBlock = false;
    /// `scf.for` induction variables evaluate to their lower bound (the
    /// first iteration) instead of nothing.
    bool firstIteration = false;
  };

  ThreadIndexEvaluator(gpu::LaunchOp launch, Options options)
      : launch(launch), options(options) {}
  ThreadIndexEvaluator(gpu::LaunchOp launch)
      : ThreadIndexEvaluator(launch, Options()) {}

  /// Evaluates the following values for thread (x, y, z).
  void setThread(int64_t x, int64_t y, int64_t z);

  /// The value of `value` in the current thread; nothing when it depends on
  /// anything but thread ids, constants and, per the options, block ids and
  /// loop induction variables (memoized per thread).
  std::optional<int64_t> evaluate(Value value);

  /// The constant block size of the launch, if it is constant.
  std::optional<std::array<int64_t, 3>> getBlockSize() const;

private:
  std::optional<int64_t> compute(Value value);

  gpu::LaunchOp launch;
  Options options;
  std::array<int64_t, 3> thread = {0, 0, 0};
  DenseMap<Value, std::optional<int64_t>> values;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMS_THREADINDICES_H
