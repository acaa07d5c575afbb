//===- EtoOptions.h - Options of ETO's reuse-based tuner --------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The choices the ETO paper leaves open (docs/Eto.md lists them with the
// reasons for the defaults).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_ETO_ETOOPTIONS_H
#define TESSEL_TUNING_STRATEGIES_ETO_ETOOPTIONS_H

#include <cstdint>

namespace mlir {
namespace tessel {

/// Which ratio bounds the block counts on the side of |I(L_beta)| /
/// |I(L_alpha)|.
enum class BlockLowerBound {
  /// Algorithm 1, line 3: B* |I(rL_beta)| / |I(rL_alpha)| (the reduction
  /// loops only).
  Reduction,
  /// Equation 1: B* |I(L_beta)| / |I(L_alpha)| (r1, every loop).
  Eq1,
};

/// Which reduction loop the default LShape (GetLShape) fetches along.
enum class FetchLoop {
  /// The reduction loop with the largest extent in alpha (the first such).
  Largest,
  /// The reduction loop along which the reference program fetches; the
  /// largest when it fetches along none.
  Reference,
};

/// Options of the ETO reuse tuner (Algorithm 1) and its trial estimator.
struct EtoOptions {
  /// Bytes of a global-memory cache line (the BShape cost).
  int64_t cacheLineBytes = 128;
  BlockLowerBound blockLowerBound = BlockLowerBound::Reduction;
  FetchLoop fetchLoop = FetchLoop::Largest;
  /// Random configs of beta the trial estimator averages over (section 6.1).
  int samples = 10;
  /// Round 3 measures one unroll value per effect (the register loops it
  /// unrolls) other than the current one; false measures every other value.
  bool pruneUnroll = true;
  /// Round 4 tries only vector widths dividing the elements each thread
  /// loads of the input; false tries every width the space allows.
  bool pruneVectors = true;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_ETO_ETOOPTIONS_H
