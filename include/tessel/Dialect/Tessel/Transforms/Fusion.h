//===- Fusion.h - Fusing a model's linalg ops into kernel groups -*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The fusion that runs before task extraction, `--tessel-apply-tuned` and at
// the start of `--tessel-to-cuda` (docs/Fusion.md): elementwise producers are
// merged into their elementwise consumers and into the reductions that read
// each of their elements once (a prologue), cheap elementwise ops with
// several such consumers are recomputed in each, and broadcasts from a
// unit tensor dimension are rewritten to read through a unit loop, so that
// the remaining elementwise ops become fused consumers (epilogues) or
// inlined producers of the contraction and convolution they touch.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMS_FUSION_H
#define TESSEL_DIALECT_TESSEL_TRANSFORMS_FUSION_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
class OpOperand;
class RewritePatternSet;

namespace tessel {

/// The most consumers that one elementwise op is recomputed in.
constexpr unsigned kMaxRecomputedConsumers = 4;

/// Whether the elementwise producer of `use` is merged into the consumer
/// owning `use`: the producer is an all-parallel `linalg.generic` with one
/// result and no other use, the consumer a `linalg.generic` that is
/// all-parallel or reads each element of the operand once (its map for the
/// operand is a permutation of all loops), and upstream can fuse the pair.
/// Contractions and convolutions are never merged into: their producers are
/// inlined into the cooperative loads of their shared tiles instead.
bool shouldMergeProducer(OpOperand *use);

/// Adds the patterns of Tessel's fusion to `patterns`: unit broadcasts to
/// unit loops, recomputation of cheap multi-use producers, and upstream's
/// elementwise fusion (with shouldMergeProducer) and its clean-ups.
void populateTesselFusionPatterns(RewritePatternSet &patterns);

/// Applies Tessel's fusion to every function of `root` until nothing
/// changes. Idempotent: fusing a fused module changes nothing, so tasks,
/// records and schedules see the same ops wherever it runs.
LogicalResult applyTesselFusion(Operation *root);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMS_FUSION_H
