//===- Schedule.h - Checking a schedule against the op it annotates -*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A sketch and a config are verified on their own by their attribute
// verifiers. Whether they fit a given linalg op (its loops, extents and
// operands) is checked here; the same check backs the dialect's attribute
// verifier, the search space of the tuner and the materialization pass.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_IR_SCHEDULE_H
#define TESSEL_DIALECT_TESSEL_IR_SCHEDULE_H

#include "tessel/Dialect/Tessel/IR/TesselAttrs.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Diagnostics.h"

#include <optional>
#include <string>

namespace mlir {
namespace tessel {

/// Most loops one kernel may keep after unrolling (`tessel-check-kernel-size`
/// rejects more: LLVM's loop passes take minutes on them); search spaces
/// reject configs over it (SearchSpace::estimateUnrolledLoops).
constexpr int64_t kMaxKernelLoops = 1024;
/// Most work the unrolled register-level code of one thread may perform per
/// staging step, in multiply-adds (SearchSpace::estimateUnrolledWork): 4x
/// the fastest measured matmul's 1,024 FMAs. A BERT-base schedule of 49,152 took 35 s
/// to compile (215,257 lines of PTX); one of 8,192, 4.5 s.
constexpr int64_t kMaxUnrolledWork = 4096;

/// Largest number of threads in a CUDA thread block.
constexpr int64_t kMaxThreadsPerBlock = 1024;
/// Largest cooperative load, in bytes, that one thread issues at once.
constexpr int64_t kMaxVectorBytes = 16;

/// The loop nest a schedule applies to: the static loop extents of a linalg
/// op and whether each loop is a reduction.
struct LoopNest {
  SmallVector<int64_t> extents;
  SmallVector<bool> isReduction;

  /// Reads the loop nest of `op`; fails on dynamic extents.
  static FailureOr<LoopNest> get(linalg::LinalgOp op);
  unsigned size() const { return extents.size(); }
};

/// Whether materialization turns `op` into vector code: every indexing map
/// is a projected permutation and upstream's vectorizer accepts the op. An
/// op it refuses (a reduction whose combiner it cannot match, such as
/// torch-mlir's adaptive pools with two outputs) stays scalar loops, whose
/// copies count against the kernel-size limit.
bool isVectorizedByMaterialization(linalg::LinalgOp op);

/// Per-loop extent of the tile computed by one thread block in one iteration
/// of the shared-memory staging loop.
SmallVector<int64_t> getBlockTile(SketchAttr sketch, ConfigAttr config,
                                  const LoopNest &nest);

/// Number of threads of a thread block under `config`.
int64_t getThreadsPerBlock(SketchAttr sketch, ConfigAttr config,
                           const LoopNest &nest);

/// Number of thread blocks under `config`.
int64_t getNumBlocks(SketchAttr sketch, ConfigAttr config,
                     const LoopNest &nest);

/// Number of elements of the operand indexed by `map` touched by a tile of
/// `tile` iterations per loop.
int64_t getFootprint(AffineMap map, ArrayRef<int64_t> tile);

/// Per result of `map`, the number of distinct values it takes over a tile
/// of `tile` iterations per loop (the shape of the operand's footprint).
SmallVector<int64_t> getFootprintShape(AffineMap map, ArrayRef<int64_t> tile);

/// The indexing map through which `user` reads `value`, when `user` is an
/// all-parallel linalg op that uses `value` once through a permutation map.
std::optional<AffineMap> getElementwiseUseMap(linalg::LinalgOp user,
                                              Value value);

/// The indexing map through which `user` reads the result of the reduction
/// `op` when `user` maps every element of the reduced row (a softmax
/// normalization, a LayerNorm): `op` has one reduction loop and one result,
/// used once, by `user`; `user` is an all-parallel linalg op with one result
/// written through a permutation, reading the value once through a map
/// whose results are distinct loops or 0 (at a dim of extent 1), and
/// exactly one loop of `user`, the row loop, is absent from that map and
/// has the extent of `op`'s reduction loop. A kernel of `op` runs the row
/// loop of `user` where `op` runs its reduction loop.
std::optional<AffineMap> getRowEpilogueUseMap(linalg::LinalgOp op,
                                              linalg::LinalgOp user);

/// For each loop of `user`, which reads `value` through `useMap` (a
/// permutation, or a row-epilogue map: getRowEpilogueUseMap), the loop of
/// the kernel's op that runs it, given `loopOfDim[d]` = the op loop of dim
/// d of `value`; the row loop runs `rowLoop`.
SmallVector<unsigned> mapEpilogueLoops(AffineMap useMap,
                                       ArrayRef<unsigned> loopOfDim,
                                       unsigned rowLoop);

/// The longest chain, of at most `maxCount` ops, of elementwise consumers
/// that a sketch of `op` could fuse: each op of the chain is an all-parallel
/// linalg op with one result that reads the single-use result of the
/// previous one (the first reads `op`'s) once, through a permutation map,
/// and reads no other single-use result of a linalg op (which another chain
/// could claim). The first may instead be a row epilogue of the reduction
/// `op` (getRowEpilogueUseMap). Does not look at `op`'s sketch.
SmallVector<Operation *> getFusibleConsumers(linalg::LinalgOp op,
                                             int64_t maxCount);

/// The elementwise consumers that the kernel of `op` computes in its
/// epilogue, wherever `op` is scheduled (task, default schedule, tuned
/// record): the whole fusible chain when `op` has a reduction loop and its
/// init is a `linalg.fill` (the kernel computes the init), none otherwise.
SmallVector<Operation *> getEpilogueChain(linalg::LinalgOp op);

/// Whether `op` belongs to the epilogue chain of an op upstream of it
/// (getEpilogueChain). Such an op is never an inlined producer: it is
/// computed once, by the kernel of the chain's root.
bool isInEpilogueChain(Operation *op);

/// The producer of input `input` of `op` when a sketch may inline it
/// (Ansor's "always inline strict-inlinable" rule, docs/SearchSpace.md);
/// null otherwise. Strict-inlinable are, when their result is used once (by
/// this operand) and all shapes are static:
/// - a `tensor.pad` with static padding and a constant padding value;
/// - an injective linalg op on tensors other than a fill: one result,
///   parallel loops only, an identity map for its init, which the body does
///   not read, and projected permutations for its inputs, that is not in the
///   epilogue chain of an op upstream (isInEpilogueChain).
Operation *getInlinableProducer(linalg::LinalgOp op, int64_t input);

/// The inputs of `op` whose producer is strict-inlinable
/// (getInlinableProducer), in increasing order.
SmallVector<int64_t> getInlinableInputs(linalg::LinalgOp op);

/// Why `op`, fusing `fusedConsumers` elementwise consumers, cannot be
/// scheduled as a cross_thread_reduction (an upstream split_reduction per
/// block): a diagnostic sentence, or the empty string when it can.
std::string getCrossThreadReductionBlocker(linalg::LinalgOp op,
                                           int64_t fusedConsumers);

/// With `threads` threads splitting a cross-thread reduction, how many of
/// them combine the partial results in a first step (each combining every
/// n-th partial) before one thread combines theirs: the largest divisor of
/// `threads` up to the warp size when `threads` exceeds the warp size, else
/// 1 (one thread combines all partials).
int64_t getCrossThreadCombineWidth(int64_t threads);

/// Checks that `sketch` and `config` fit `op`. Reports the first problem
/// through `emitError` and fails; succeeds silently otherwise.
LogicalResult verifySchedule(linalg::LinalgOp op, SketchAttr sketch,
                             ConfigAttr config,
                             function_ref<InFlightDiagnostic()> emitError);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_IR_SCHEDULE_H
