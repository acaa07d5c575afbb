//===- Statements.h - The statements of a scheduled kernel ------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The loop nest a sketch and a config give every statement of a kernel, as
// materialization builds it (lib/Dialect/Tessel/Transforms/ScheduleScript.cpp):
// for `multi_level_tiling` the compute statement runs in the order block (S0),
// staging step (R0), virtual threads (S1), threads (S2), R1, register tile
// (S3), then the vectorized innermost levels (R2, S4); the cooperative copies
// run once per staging step; fused consumers follow the op's per-thread
// layout. Feature extractors and the pruner's static analyzer
// (tessel/Tuning/Pruner/StaticAnalyzer.h) read these models instead of
// compiled code.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_FEATURES_STATEMENTS_H
#define TESSEL_TUNING_FEATURES_STATEMENTS_H

#include "tessel/Dialect/Tessel/IR/Schedule.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AffineMap.h"

#include <array>
#include <string>
#include <vector>

namespace mlir {
namespace tessel {
namespace features {

/// What a loop is mapped to.
enum class LoopBinding {
  /// A loop that every thread runs itself.
  Serial,
  /// The blocks of the grid.
  Block,
  /// Virtual threads: strided tiles of one thread, run as loops.
  VThread,
  /// The threads of a block.
  Thread,
};

/// Where the tiling level of a loop lies among the levels of its kind (space
/// or reduction).
enum class LoopPosition {
  /// The first level.
  Outer,
  /// A level between the first and the last.
  Middle,
  /// The last level.
  Inner,
};

/// One loop of a statement's nest.
struct StatementLoop {
  /// Iterations of the loop.
  int64_t trip = 1;
  /// Whether the loop tiles a reduction loop of the iteration space.
  bool reduction = false;
  /// The position of the loop's tiling level.
  LoopPosition position = LoopPosition::Outer;
  /// What the loop is mapped to.
  LoopBinding binding = LoopBinding::Serial;
  /// Whether the loop is fully unrolled.
  bool unrolled = false;
  /// Whether the loop is vectorized.
  bool vectorized = false;
  /// The loop of the statement's iteration space this loop tiles, or -1 for
  /// a loop over the elements of a copy (a "linear" loop).
  int dim = -1;
  /// Per iteration: the step of the tiled loop's index (dim loops) or of the
  /// element offset in the copied buffers (linear loops).
  int64_t step = 1;
};

/// Where a buffer lives.
enum class BufferScope {
  /// Global memory: the operands and results of the kernel.
  Global,
  /// Shared memory: the tiles a block stages.
  Shared,
  /// Registers: the accumulators a thread keeps.
  Local,
};

/// How a statement accesses a buffer.
enum class AccessKind { Read, Write, ReadWrite };

/// One buffer a statement accesses.
struct BufferAccess {
  /// Whether the statement reads, writes or updates the buffer.
  AccessKind access = AccessKind::Read;
  /// Where the buffer lives.
  BufferScope scope = BufferScope::Global;
  /// Bytes of one element.
  int64_t elementBytes = 4;
  /// Indices of the buffer as functions of the statement's loops.
  AffineMap map;
  /// Shape of the buffer as laid out (row-major), for address strides.
  SmallVector<int64_t> layout;
  /// Shape of the region the statement touches over its whole nest.
  SmallVector<int64_t> uniqueShape;
  /// Whether an earlier statement of the kernel wrote the value read.
  bool serialReuse = false;
};

/// Kinds of arithmetic operations, counted per statement: floating-point
/// (`Float*`, up to `FloatCast`) and integer (`Int*`) ones; `FloatFma` is a
/// fused multiply-add, `FloatMath` any other math function. `NumOpKinds` is
/// their number.
enum OpKind : unsigned {
  FloatAdd, FloatSub, FloatMul, FloatDiv, FloatMod, FloatFma, FloatCmp,
  FloatMinMax, FloatMath, FloatCast,
  IntAdd, IntSub, IntMul, IntDiv, IntMod, IntCmp, IntMinMax, IntOther,
  NumOpKinds
};
/// Operations per OpKind.
using OpCounts = std::array<double, NumOpKinds>;

/// Counts the arithmetic operations of one iteration of `op`'s body. An
/// `arith.mulf` whose only use is an `arith.addf` forms one FMA with it.
OpCounts countOperations(linalg::LinalgOp op);

/// One statement of a kernel and its loop nest.
struct Statement {
  /// Loops, outermost first; loops of trip count 1 are left out.
  SmallVector<StatementLoop> loops;
  /// Per loop of the iteration space, the extent covered without any loop
  /// of `loops` (1 for compute statements, the staged tile for copies).
  SmallVector<int64_t> baseTile;
  /// Operations of one execution of the statement.
  OpCounts opsPerIteration{};
  /// The buffers the statement accesses.
  SmallVector<BufferAccess> buffers;
  /// Extents of the grid, of a block and of the virtual threads.
  int64_t blocks = 1, threads = 1, vthreads = 1;
  /// Whether the statement's multiply-adds run on tensor cores (mma.sync).
  bool tensorCore = false;
  /// Whether those tensor-core multiply-adds are TF32 (f32 inputs).
  bool tf32 = false;

  /// Executions of the statement: the product of the loop trips.
  double getExecutions() const;
  /// Elements of `buffer` touched by one iteration of the loops before
  /// `loop` (all loops from `loop` inwards); `loop == loops.size()` is one
  /// execution of the statement.
  double getInnerElements(const BufferAccess &buffer, unsigned loop) const;
};

/// The statements of one kernel.
struct KernelStatements {
  /// The statement of the op itself.
  Statement compute;
  /// The cooperative copies into shared memory, one per staged operand, in
  /// the order of the sketch's shared operands.
  std::vector<Statement> copies;
  /// The fused elementwise consumers, in chain order.
  std::vector<Statement> consumers;
};

/// Builds the statements of `op` scheduled by `sketch` and `config`, with
/// its fused `consumers`. Fails on dynamic shapes and on a config that does
/// not fit the op.
FailureOr<KernelStatements> buildStatements(linalg::LinalgOp op,
                                            ArrayRef<linalg::LinalgOp> consumers,
                                            SketchAttr sketch,
                                            ConfigAttr config);

/// Element offset, in a row-major buffer of shape `layout`, per unit step of
/// loop `dim` of `map`.
int64_t getAddressCoefficient(AffineMap map, ArrayRef<int64_t> layout,
                              unsigned dim);

} // namespace features
} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_FEATURES_STATEMENTS_H
