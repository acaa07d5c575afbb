//===- WindowViews.h - Window indices as strided views ----------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A convolution reads its input at `x[oh * s + kh * d]`: one index combines
// two loops, so the indexing map is not a projected permutation and upstream
// vectorization rejects the op. At the register level of a multi-level
// schedule the op is a thread's innermost tile, where the window loops
// usually run once. Where every index of an operand has at most one loop of
// more than one iteration, the access is a strided view of the operand
// (offset: the constant of the index; stride: that loop's coefficient)
// indexed by that loop alone. Read so, the op vectorizes and its accumulator
// stays in registers like a matmul's (docs/Materialization.md, "Window
// accesses"; the rewrite is Transforms/WindowAccesses.h).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_IR_WINDOWVIEWS_H
#define TESSEL_DIALECT_TESSEL_IR_WINDOWVIEWS_H

#include "tessel/Dialect/Tessel/IR/TileShape.h"

namespace mlir {
namespace tessel {

/// How one operand of an op is read through a window view: the view of the
/// operand (per operand dim) and the projected-permutation map of the view.
struct WindowView {
  SmallVector<int64_t> offsets, sizes, strides;
  AffineMap map;
  /// Whether the view is the whole operand and `map` its original map.
  bool unchanged = false;
};

/// The views of the operands of an op with loop extents `extents` and
/// indexing maps `maps` (one per operand). Fails when an index is not a
/// sum of loops with positive constant coefficients and a non-negative
/// constant, combines two loops of more than one iteration, or repeats one.
FailureOr<SmallVector<WindowView>>
getWindowViews(ArrayRef<AffineMap> maps, ArrayRef<int64_t> extents);

/// Whether materializing `tiles` for `op` under `sketch` vectorizes the op
/// only by reading window views: a multi_level_tiling sketch with register
/// accumulators, an indexing map that is not a projected permutation, and
/// window views for the thread's innermost tile (the last level of every
/// loop).
bool readsWindowViews(linalg::LinalgOp op, SketchAttr sketch, LoopTiles tiles);
/// The same for an op with indexing maps `maps` (for callers that ask of
/// many tilings of one op).
bool readsWindowViews(ArrayRef<AffineMap> maps, SketchAttr sketch,
                      LoopTiles tiles);

/// Whether a fused epilogue of `op` under `sketch` and `tiles` computes on
/// the thread's register accumulators, so that the block's accumulator (the
/// fused init) takes no shared memory: a multi_level_tiling sketch with
/// register accumulators and fused consumers whose innermost tile
/// vectorizes (`vectorizable`: isVectorizedByMaterialization; or through
/// window views). `--tessel-forward-accumulators` then removes the shared
/// copy of the accumulators (the fused init and consumers are distributed
/// over the threads as the op is, also when its output permutes its loops).
/// Tensor-core kernels keep it (their fragments are not the epilogue's
/// per-thread layout).
bool hasRegisterEpilogue(bool vectorizable, ArrayRef<AffineMap> maps,
                         SketchAttr sketch, LoopTiles tiles);
/// The same, asking upstream's vectorizer about `op`.
bool hasRegisterEpilogue(linalg::LinalgOp op, SketchAttr sketch,
                         LoopTiles tiles);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_IR_WINDOWVIEWS_H
