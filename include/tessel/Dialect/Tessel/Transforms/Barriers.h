//===- Barriers.h - Barriers where threads exchange data -------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Upstream's thread mapping (`map_nested_forall_to_threads`) puts a
// `gpu.barrier` after every thread forall: after every round of every
// cooperative copy and after every virtual thread. On the GPU those barriers,
// not the arithmetic, set the time of today's kernels
// (docs/Barriers.md). placeBarriersByDependences replaces them by barriers
// where one thread may touch memory another thread touched since the last
// barrier: after a shared tile is written and before it is read, and after it
// is read and before it is overwritten.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMS_BARRIERS_H
#define TESSEL_DIALECT_TESSEL_TRANSFORMS_BARRIERS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <string>

namespace mlir {
namespace tessel {

/// Where barriers go in the kernels `--tessel-to-cuda` builds.
enum class BarrierPlacement {
  /// Where the data dependences between threads are
  /// (placeBarriersByDependences).
  Dependences,
  /// After every thread forall, as upstream's mapping leaves them.
  AfterEveryForall,
};

/// Replaces the barriers of `launch` by barriers before every access that
/// may conflict (read after write, write after read, write after write of
/// one buffer, by different threads) with an access made since the last
/// barrier on some path, loops' back edges included. Barriers go only where
/// every thread of the block arrives (outside thread-dependent branches and
/// loops). Returns the number of barriers placed, or failure (and leaves
/// the launch with upstream's barriers, with `why` set) for a launch this
/// analysis does not cover: a pipelined staging loop (its barriers pair with
/// cp.async waits), a body of several blocks, or a placement that would
/// execute more barriers than upstream's (counted with constant trip
/// counts).
FailureOr<unsigned> placeBarriersByDependences(gpu::LaunchOp launch,
                                               std::string &why);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMS_BARRIERS_H
