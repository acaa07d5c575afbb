//===- PadAsGather.h - Pads rewritten into tileable gathers -----*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A `tensor.pad` that a sketch inlines into its consumer's kernel is first
// rewritten into an injective `linalg.generic`, which tiles and fuses like
// any other inlined producer (docs/Materialization.md).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMS_PADASGATHER_H
#define TESSEL_DIALECT_TESSEL_TRANSFORMS_PADASGATHER_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace tessel {

/// Rewrites `pad`, which must have static shapes and padding and a padding
/// value defined outside its region or by a constant, into an all-parallel
/// `linalg.generic` on `tensor.empty` that reads the source with
/// `tensor.extract` at clamped indices and selects the padding value outside
/// the source. Unlike the pad, the generic can be tiled into static tiles and
/// fused into a consumer's loops. The generic is marked
/// `TesselDialect::kInlinedPadAttrName`.
linalg::GenericOp rewritePadAsGather(RewriterBase &rewriter,
                                     tensor::PadOp pad);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMS_PADASGATHER_H
