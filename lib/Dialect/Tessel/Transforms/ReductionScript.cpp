//===- ReductionScript.cpp - Script steps of cross-thread reductions ------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A cross-thread reduction ("SRR": space loops -> blocks; reduction ->
// serial steps x threads, TVM's RuleCrossThreadReduction) computes one
// output element per block:
//
//   1. Block tiling (ScheduleScript.cpp) leaves the op, its fused consumers
//      and the producer of its init inside the block forall, every space
//      loop of extent 1.
//   2. On tensors, `split_reduction {inner_parallel}` rewrites reduction
//      index k as s * T + t: a partial op with a parallel loop t of T
//      iterations writing T partial results (a shared-memory buffer,
//      initialized with the combiner's neutral element) and a combining op
//      reducing them into the op's init. Loop t becomes a thread forall, so
//      adjacent threads read adjacent elements. An op fused with nothing is
//      first generalized and stripped of its unit loops, so that kept unit
//      result dims (`(d0, d1, 0)`) do not reach `split_reduction`.
//      With more threads than a warp, the combining op is split the same
//      way once more: W threads (getCrossThreadCombineWidth) each combine
//      every W-th partial, so the last step combines W partials.
//   3. On buffers, loop s runs serially in each thread; one thread combines
//      the last partials and runs the fused init and consumers (a row
//      epilogue, such as softmax's normalization, on every thread). The GPU
//      mapping puts a barrier after each thread forall.
//
//===----------------------------------------------------------------------===//

#include "ReductionScript.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {
/// The loops of the ops that the script works on, as the script sees them.
struct SplitShape {
  /// Threads per block (T) and serial steps per thread (K / T).
  int64_t threads = 1;
  int64_t serialTrips = 1;
  /// Whether the op is generalized and its unit loops folded first.
  bool folded = false;
  /// Loops of the op that is split (after folding), its reduction loop and
  /// the rank of its result.
  unsigned numLoops = 0;
  unsigned reductionLoop = 0;
  unsigned resultRank = 0;
  /// Threads that combine the T partials into `combineWidth` partials
  /// before the last thread combines those (1: no such stage).
  int64_t combineWidth = 1;
};
} // namespace

static SplitShape getSplitShape(const ScheduledOp &op) {
  SplitShape shape;
  const LoopNest &nest = op.nest;
  unsigned reduction =
      llvm::find(nest.isReduction, true) - nest.isReduction.begin();
  ArrayRef<int64_t> levels = op.config.getLoopTiles(reduction);
  shape.threads = levels[*op.sketch.getReductionThreadLevel()];
  shape.serialTrips = nest.extents[reduction] / shape.threads;
  // Folding leaves the reduction loop only: every space loop has extent 1
  // in a block, the reduction at least T > 1.
  shape.combineWidth = getCrossThreadCombineWidth(shape.threads);
  shape.folded = shape.threads > 1 && op.consumerAnchors.empty();
  if (shape.folded) {
    shape.numLoops = 1;
    return shape;
  }
  shape.numLoops = nest.size();
  shape.reductionLoop = reduction;
  // With fused consumers, the fused init producer writes the result
  // through a permutation: one loop per result dim.
  shape.resultRank = op.initLoops.size();
  return shape;
}

/// A static size list with `value` at `position` and 0 elsewhere.
static std::string sizesWith(unsigned size, unsigned position, int64_t value) {
  SmallVector<std::string> entries(size, "0");
  entries[position] = std::to_string(value);
  return "[" + llvm::join(entries, ", ") + "]";
}

static constexpr llvm::StringLiteral kThreadMapping =
    "[#gpu.thread<linear_dim_0>]";

/// Wraps `target` in a single-iteration thread forall (thread 0).
static std::string onOneThread(ScriptSink &sink, StringRef target) {
  std::string tiled = sink.fresh("tiled"), forall = sink.fresh("forall");
  sink.line(llvm::formatv(
      "{0}, {1} = transform.structured.tile_using_forall {2} num_threads [1] "
      "(mapping = {3}) : (!transform.any_op) -> (!transform.any_op, "
      "!transform.any_op)",
      tiled, forall, target, kThreadMapping));
  return tiled;
}

/// Tiles `target` by the static `sizes` into an `scf.for`; returns the
/// handles of the tiled op and of the loop.
static std::pair<std::string, std::string>
tileUsingFor(ScriptSink &sink, StringRef target, StringRef sizes) {
  std::string tiled = sink.fresh("tiled"), forLoop = sink.fresh("loop");
  sink.line(llvm::formatv("{0}, {1} = transform.structured.tile_using_for {2} "
                          "tile_sizes {3} : (!transform.any_op) -> "
                          "(!transform.any_op, !transform.any_op)",
                          tiled, forLoop, target, sizes));
  return {tiled, forLoop};
}

/// Tiles `target` by the static `sizes` into a forall over the block's
/// threads; returns the handle of the tiled op and sets `forall`.
static std::string tileOverThreads(ScriptSink &sink, StringRef target,
                                   StringRef sizes, std::string &forall) {
  std::string tiled = sink.fresh("tiled");
  forall = sink.fresh("forall");
  sink.line(llvm::formatv(
      "{0}, {1} = transform.structured.tile_using_forall {2} tile_sizes {3} "
      "(mapping = {4}) : (!transform.any_op) -> (!transform.any_op, "
      "!transform.any_op)",
      tiled, forall, target, sizes, kThreadMapping));
  return tiled;
}

/// Tiles loop `loop` of `target` (which has `numLoops` loops) by 1 into an
/// `scf.for` of `trips` iterations, unrolled when the config allows.
static void serialLoop(ScriptSink &sink, const ScheduledOp &op,
                       StringRef target, unsigned numLoops, unsigned loop,
                       int64_t trips) {
  if (trips <= 1)
    return;
  std::string forLoop =
      tileUsingFor(sink, target, sizesWith(numLoops, loop, 1)).second;
  if (trips <= op.config.getUnroll())
    sink.unrollLate(forLoop, trips);
}

/// Marks `handle` with the op's anchor.
static void markAnchor(ScriptSink &sink, const ScheduledOp &op,
                       StringRef handle) {
  std::string id = sink.fresh("anchor");
  sink.line(llvm::formatv(
      "{0} = transform.param.constant {1} : i64 -> !transform.param<i64>", id,
      op.anchor));
  sink.line(llvm::formatv("transform.annotate {0} \"tessel.anchor\" = {1} : "
                          "!transform.any_op, !transform.param<i64>",
                          handle, id));
}

/// Splits the reduction loop `reductionLoop` of `target` (of `numLoops`
/// loops, result rank `resultRank`) over `threads` threads: a partial op
/// whose new parallel loop (after the reduction loop) is a thread forall
/// writing `threads` partials to shared memory, marked with the op's anchor,
/// and a combining op, whose handle is returned (its loops: the result's,
/// then the reduction over the partials).
static std::string splitOverThreads(ScriptSink &sink, const ScheduledOp &op,
                                    StringRef target, int64_t threads,
                                    unsigned numLoops, unsigned reductionLoop,
                                    unsigned resultRank) {
  std::string init = sink.fresh("init"), fill = sink.fresh("fill"),
              partial = sink.fresh("partial"), combine = sink.fresh("combine");
  sink.line(llvm::formatv(
      "{0}, {1}, {2}, {3} = transform.structured.split_reduction {4} "
      "{{split_factor = {5}, insert_split_dimension = {6}, inner_parallel} : "
      "(!transform.any_op) -> (!transform.any_op, !transform.any_op, "
      "!transform.any_op, !transform.any_op)",
      init, fill, partial, combine, target, threads, resultRank));
  // The partial results live in shared memory.
  std::string buffer = sink.fresh("buffer"), alloc = sink.fresh("alloc");
  sink.line(llvm::formatv(
      "{0}, {1} = transform.structured.bufferize_to_allocation {2} "
      "{{memory_space = #gpu.address_space<workgroup>, alloc_op = "
      "\"memref.alloca\", bufferize_destination_only} : !transform.any_op",
      buffer, alloc, fill));
  // One partial result per thread; each thread initializes its own.
  std::string forall;
  std::string tiled = tileOverThreads(
      sink, partial, sizesWith(numLoops + 1, reductionLoop + 1, 1), forall);
  std::string fused = sink.fresh("fused"), next = sink.fresh("forall");
  sink.line(llvm::formatv("{0}, {1} = transform.structured.fuse_into_"
                          "containing_op {2} into {3} : (!transform.any_op, "
                          "!transform.any_op) -> (!transform.any_op, "
                          "!transform.any_op)",
                          fused, next, fill, forall));
  markAnchor(sink, op, tiled);
  return combine;
}

void tessel::writeCrossThreadSplit(ScriptSink &sink, const ScheduledOp &op,
                                   StringRef target, StringRef blockForall) {
  SplitShape shape = getSplitShape(op);
  unsigned reduction =
      llvm::find(op.nest.isReduction, true) - op.nest.isReduction.begin();
  SmallVector<int64_t> domain;
  for (int64_t d = 1, e = op.nest.extents[reduction]; d <= e; ++d)
    if (e % d == 0)
      domain.push_back(d);
  // split_reduction takes the thread count as an attribute: the knob is
  // written for the reader, its value repeated below.
  sink.knob(op, llvm::formatv("d{0}.threads", reduction).str(), shape.threads,
            domain);
  if (shape.threads == 1) {
    sink.line(llvm::formatv("// op {0}: one thread per block reduces "
                            "serially",
                            op.anchor));
    return;
  }
  sink.line(llvm::formatv("// op {0}: split the reduction over {1} threads "
                          "(k = s * {1} + thread)",
                          op.anchor, shape.threads));
  std::string current = target.str();
  if (shape.folded) {
    std::string generic = sink.fresh("generic");
    sink.line(llvm::formatv("{0} = transform.structured.generalize {1} : "
                            "(!transform.any_op) -> !transform.any_op",
                            generic, current));
    sink.line(llvm::formatv(
        "transform.apply_patterns to {0} {{ "
        "transform.apply_patterns.linalg.fold_unit_extent_dims_via_slices } "
        ": !transform.any_op",
        blockForall));
    current = generic;
  }
  // The T partials, then (with enough threads) the combination of groups
  // of them by `combineWidth` threads.
  std::string combine =
      splitOverThreads(sink, op, current, shape.threads, shape.numLoops,
                       shape.reductionLoop, shape.resultRank);
  if (shape.combineWidth > 1)
    combine = splitOverThreads(sink, op, combine, shape.combineWidth,
                               shape.resultRank + 1, shape.resultRank,
                               shape.resultRank);
  markAnchor(sink, op, combine);
}

std::string tessel::writeCrossThreadThreads(ScriptSink &sink,
                                            const ScheduledOp &op,
                                            StringRef root) {
  SplitShape shape = getSplitShape(op);
  auto match = [&](int64_t anchor) {
    std::string h = sink.fresh("op");
    sink.line(llvm::formatv("{0} = transform.structured.match attributes "
                            "{{tessel.anchor = {1} : i64} in {2} : "
                            "(!transform.any_op) -> !transform.any_op",
                            h, anchor, root));
    return h;
  };
  auto parentForall = [&](StringRef handle) {
    std::string h = sink.fresh("block");
    sink.line(llvm::formatv("{0} = transform.get_parent_op {1} {{op_name = "
                            "\"scf.forall\"} : (!transform.any_op) -> "
                            "!transform.any_op",
                            h, handle));
    return h;
  };

  std::string ops = match(op.anchor);
  std::string block;
  if (shape.threads == 1) {
    block = parentForall(ops);
    std::string tiled = onOneThread(sink, ops);
    serialLoop(sink, op, tiled, shape.numLoops, shape.reductionLoop,
               shape.serialTrips);
  } else {
    // The partial ops in program order, then the last combining op.
    bool twoStages = shape.combineWidth > 1;
    std::string partial = sink.fresh("partial"),
                groups = twoStages ? sink.fresh("groups") : "",
                combine = sink.fresh("combine");
    std::string handles =
        partial + (twoStages ? ", " + groups : "") + ", " + combine;
    std::string types = "!transform.any_op, !transform.any_op";
    if (twoStages)
      types += ", !transform.any_op";
    sink.line(llvm::formatv("{0} = transform.split_handle {1} : "
                            "(!transform.any_op) -> ({2})",
                            handles, ops, types));
    block = parentForall(combine);
    // Each thread: the serial steps s of its partial result.
    serialLoop(sink, op, partial, shape.numLoops + 1, shape.reductionLoop,
               shape.serialTrips);
    // Each of `combineWidth` threads combines every combineWidth-th partial.
    int64_t partials = shape.threads;
    if (twoStages) {
      serialLoop(sink, op, groups, shape.resultRank + 2, shape.resultRank,
                 shape.threads / shape.combineWidth);
      partials = shape.combineWidth;
    }
    // One thread combines the remaining partial results (the last loop).
    std::string tiled = onOneThread(sink, combine);
    serialLoop(sink, op, tiled, shape.resultRank + 1, shape.resultRank,
               partials);
  }
  // The fused init and elementwise consumers: one element, on the
  // combining thread.
  if (op.initAnchor)
    onOneThread(sink, match(*op.initAnchor));
  unsigned reduction =
      llvm::find(op.nest.isReduction, true) - op.nest.isReduction.begin();
  int64_t rowLength = op.nest.extents[reduction];
  for (auto [consumer, loops] :
       llvm::zip(op.consumerAnchors, op.consumerLoops)) {
    auto row = llvm::find(loops, reduction);
    if (row == loops.end()) {
      onOneThread(sink, match(consumer));
      continue;
    }
    // A row epilogue: element k of the row on thread k mod T (adjacent
    // threads, adjacent elements), after the combination.
    unsigned position = row - loops.begin();
    std::string current = match(consumer);
    if (shape.threads == 1) {
      serialLoop(sink, op, onOneThread(sink, current), loops.size(), position,
                 rowLength);
      continue;
    }
    if (rowLength > shape.threads)
      current = tileUsingFor(sink, current,
                             sizesWith(loops.size(), position, shape.threads))
                    .first;
    std::string forall;
    tileOverThreads(sink, current, sizesWith(loops.size(), position, 1),
                    forall);
  }
  return block;
}
