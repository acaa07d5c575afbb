//===- ReductionScript.h - Script steps of cross-thread reductions -*- C++
//-*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The steps of the transform script (ScheduleScript.cpp) that are specific
// to `cross_thread_reduction` sketches. Private to the Transforms library.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_LIB_DIALECT_TESSEL_TRANSFORMS_REDUCTIONSCRIPT_H
#define TESSEL_LIB_DIALECT_TESSEL_TRANSFORMS_REDUCTIONSCRIPT_H

#include "tessel/Dialect/Tessel/Transforms/ScheduledOps.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"

#include <string>

namespace mlir {
namespace tessel {

/// How the steps below write into the script being generated: the helpers
/// of the script writer.
struct ScriptSink {
  /// A fresh SSA name: `%`, `prefix` and a number (e.g. "%op3").
  llvm::function_ref<std::string(StringRef prefix)> fresh;
  /// Appends one line of the script body.
  llvm::function_ref<void(const Twine &text)> line;
  /// Emits (once) the knob `name` of `op` with `value` from `domain` and
  /// returns its SSA name.
  llvm::function_ref<std::string(const ScheduledOp &op, StringRef name,
                                 int64_t value, ArrayRef<int64_t> domain)>
      knob;
  /// Marks `loop` (a handle), of `trips` iterations, for full unrolling
  /// after accumulator hoisting.
  llvm::function_ref<void(StringRef loop, int64_t trips)> unrollLate;
};

/// Whether `op` is scheduled as a cross-thread reduction.
inline bool isCrossThreadReduction(const ScheduledOp &op) {
  return op.sketch.getKind() == SketchKind::CrossThreadReduction;
}

/// On tensors, after block tiling: splits the reduction of the block's
/// single output element (the op, handle `target`, inside `blockForall`)
/// over the block's threads with upstream `split_reduction`. Thread `t`
/// reduces the elements `t`, `t + T`, `t + 2T`, ... into its partial result
/// in shared memory (coalesced reads); one op then combines the `T`
/// partials, itself split over `getCrossThreadCombineWidth(T)` threads when
/// that is more than 1. Every partial op and the last combining op are
/// marked with the op's anchor. Writes nothing when the block has a single
/// thread.
void writeCrossThreadSplit(ScriptSink &sink, const ScheduledOp &op,
                           StringRef target, StringRef blockForall);

/// On buffers: the serial reduction loop of every thread, the combination
/// of the partial results by one thread, and the fused init and elementwise
/// consumers on that thread; a row epilogue runs on all threads, element k
/// of the row on thread k mod T. Returns the handle of the block forall.
std::string writeCrossThreadThreads(ScriptSink &sink, const ScheduledOp &op,
                                    StringRef root);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_LIB_DIALECT_TESSEL_TRANSFORMS_REDUCTIONSCRIPT_H
