//===- DefaultSchedules.cpp - Heuristic schedules for any op --------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/DefaultSchedules.h"
#include "tessel/Dialect/Tessel/IR/BoundaryBlocks.h"
#include "tessel/Dialect/Tessel/IR/TileShape.h"
#include "tessel/Dialect/Tessel/IR/WindowViews.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tessel;

/// Threads per block the heuristics aim for.
static constexpr int64_t kTargetThreads = 256;
/// Most threads along the innermost space loop (keeps blocks square-ish).
static constexpr int64_t kInnerThreadCap = 16;
/// Most register-tile iterations per space loop and thread.
static constexpr int64_t kRegisterTileCap = 4;
/// Most iterations of the first reduction loop staged at once.
static constexpr int64_t kStageCap = 8;
/// Most threads of the one block of a reduction to one element.
static constexpr int64_t kMaxOneBlockThreads = 1024;
/// Fewest reduced elements for which that block splits the reduction.
/// Chosen when the split reduction's fill was a kernel of its own (since
/// session 31 it is computed in the reduction's kernel), a launch that a
/// short serial loop cost less than (sim:h100: one thread sums 256
/// elements in 4.2 us, a launch is 3 us; 1024 in 7.8 us, against 3.2 us
/// split); not re-derived since.
static constexpr int64_t kOneBlockMinReduction = 1024;
/// Most threads splitting each row of a row reduction (one block a row).
static constexpr int64_t kRowReductionMaxThreads = 256;
/// Fewest threads worth splitting a row over: a warp.
static constexpr int64_t kRowReductionMinThreads = 32;
/// Shared memory a default schedule may use (the CUDA static default).
static constexpr int64_t kSharedBudgetBytes = 48 * 1024;
/// Staging steps in flight in a default schedule whose staged operands are
/// read through projected permutations (matmuls, batch matmuls): double
/// buffering. On the H100 it made the default schedules of the 1024^3
/// matmul, BERT's QKV, FFN1 and attention scores 1.29x, 1.36x, 1.36x and
/// 1.15x faster, and the 3x3 convolution's 0.67x as fast
/// (docs/results/gpu-h100-2026-11-27-b, section 4).
static constexpr int64_t kDefaultPipelineStages = 2;

/// Largest divisor of `n` that is at most `cap`.
static int64_t largestDivisorAtMost(int64_t n, int64_t cap) {
  for (int64_t d = std::min(n, cap); d > 1; --d)
    if (n % d == 0)
      return d;
  return 1;
}

bool tessel::hasOperandReuse(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInputs() < 2)
    return false;
  // A reduction that reads each element of its inputs once, apart from
  // values broadcast along the reduction (a LayerNorm's mean, after fusion),
  // reuses nothing: only an input missing a parallel loop is reread.
  // Loops of extent 1 repeat nothing.
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  return llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *input) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!isa<ShapedType>(input->get().getType()))
      return false;
    for (unsigned loop = 0; loop < iterators.size(); ++loop)
      if (iterators[loop] == utils::IteratorType::parallel &&
          extents[loop] != 1 && !map.isFunctionOfDim(loop))
        return true;
    return false;
  });
}

/// Spreads up to `kTargetThreads` threads over the space loops, innermost
/// loop first. Returns the thread factor of every loop (1 for reductions).
static SmallVector<int64_t> distributeThreads(const LoopNest &nest) {
  SmallVector<int64_t> threads(nest.size(), 1);
  int64_t budget = kTargetThreads;
  bool innermost = true;
  for (int64_t loop = nest.size() - 1; loop >= 0 && budget > 1; --loop) {
    if (nest.isReduction[loop])
      continue;
    int64_t cap = innermost ? std::min(budget, kInnerThreadCap) : budget;
    threads[loop] = largestDivisorAtMost(nest.extents[loop], cap);
    budget /= threads[loop];
    if (nest.extents[loop] > 1)
      innermost = false;
  }
  return threads;
}

static bool fits(linalg::LinalgOp op, SketchAttr sketch, ConfigAttr config) {
  // Probe without reporting: the caller tries several candidates.
  ScopedDiagnosticHandler silence(op->getContext(),
                                  [](Diagnostic &) { return success(); });
  return succeeded(
      verifySchedule(op, sketch, config, [&] { return op->emitError(); }));
}

static int64_t sharedBytes(linalg::LinalgOp op, SketchAttr sketch,
                           ConfigAttr config, const LoopNest &nest) {
  SmallVector<int64_t> tile = getBlockTile(sketch, config, nest);
  int64_t bytes = 0;
  for (int64_t operand : sketch.getShared()) {
    OpOperand *opOperand = op.getDpsInputOperand(operand);
    int64_t width =
        getElementTypeOrSelf(opOperand->get().getType()).getIntOrFloatBitWidth();
    bytes += getFootprint(op.getMatchingIndexingMap(opOperand), tile) *
             std::max<int64_t>(width / 8, 1);
  }
  // With fused consumers the block's accumulator (the fused init) lives in
  // shared memory too, unless the epilogue reads the register accumulators.
  if (sketch.getFusedConsumers() > 0 &&
      !hasRegisterEpilogue(op, sketch, getTileVectors(config))) {
    OpOperand *init = op.getDpsInitOperand(0);
    int64_t width =
        getElementTypeOrSelf(init->get().getType()).getIntOrFloatBitWidth();
    bytes += getFootprint(op.getMatchingIndexingMap(init), tile) *
             std::max<int64_t>(width / 8, 1);
  }
  return bytes;
}

/// Whether a default multi-level schedule double-buffers its staging: it
/// stages operands in shared memory, all read through projected
/// permutations (not a convolution's sliding window), fuses no epilogue
/// unless it reads the register accumulators (hasRegisterEpilogue), inlines
/// no producer, and its staging loop (the first reduction loop's
/// outer tile) has more than one step.
static bool shouldPipeline(linalg::LinalgOp op, SketchAttr sketch,
                           ArrayRef<SmallVector<int64_t>> tiles,
                           const LoopNest &nest) {
  // Measured on plain contractions only. With an inlined producer the
  // pipelined accumulators stayed in global memory (st.global 20 -> 132 in
  // examples/bert-encoder-matmuls.mlir) and the loads synchronous behind 11
  // barriers instead of 3. A fused epilogue on the register accumulators
  // leaves the main loop a plain contraction's (one barrier a step, as
  // test/Transforms/tessel-default-config.mlir's @matmul_bias shows).
  if (sketch.getShared().empty() ||
      (sketch.getFusedConsumers() > 0 &&
       !hasRegisterEpilogue(op, sketch, tiles)) ||
      !sketch.getInlined().empty())
    return false;
  for (int64_t operand : sketch.getShared())
    if (!op.getMatchingIndexingMap(op.getDpsInputOperand(operand))
             .isProjectedPermutation())
      return false;
  for (unsigned loop = 0; loop < nest.size(); ++loop)
    if (nest.isReduction[loop])
      return tiles[loop].front() > 1;
  return false;
}

/// The tiles of a convolution's default schedule (an input read through a
/// window index, such as `oh + kh`), after the fastest schedule the H100
/// measured for ResNet-50's 3x3 64-channel layer (22.4 us, 1.97x cuDNN,
/// docs/results/gpu-h100-2026-11-27-b), grown to 128 threads: a block
/// computes 8 output channels x 8 rows x 8 columns, each of its 4 x 4 x 8
/// threads a 2 x 2 tile of channels and rows (fewer where the extents do
/// not divide: 28 columns take 7 threads); the first non-window
/// reduction loop (input channels) is staged 8 at a time (2 x 4 inside),
/// the window loops (kh, kw) run whole in the thread's innermost tile,
/// where the input window is read through a strided view and the
/// accumulators stay in registers (docs/Materialization.md). Empty when the
/// op has no such structure or its extents do not divide.
static SmallVector<SmallVector<int64_t>>
getWindowTiles(linalg::LinalgOp op, const LoopNest &nest) {
  // The input read through window indices, and the loops of those indices.
  std::optional<AffineMap> window;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (isa<ShapedType>(input->get().getType()) &&
        !map.isProjectedPermutation()) {
      if (window)
        return {};
      window = map;
    }
  }
  if (!window)
    return {};
  llvm::SmallBitVector windowLoop(nest.size()), windowReduction(nest.size());
  for (AffineExpr expr : window->getResults()) {
    if (isa<AffineDimExpr>(expr))
      continue;
    SmallVector<unsigned> loops;
    for (unsigned loop = 0; loop < nest.size(); ++loop)
      if (expr.isFunctionOfDim(loop))
        loops.push_back(loop);
    bool hasReduction = llvm::any_of(
        loops, [&](unsigned loop) { return nest.isReduction[loop]; });
    for (unsigned loop : loops) {
      if (!hasReduction)
        continue;
      (nest.isReduction[loop] ? windowReduction : windowLoop).set(loop);
    }
  }
  // Output channels: the innermost parallel loop the window input does not
  // read. Rows and columns: the two innermost window loops.
  std::optional<unsigned> channels;
  SmallVector<unsigned> spatial;
  for (unsigned loop = 0; loop < nest.size(); ++loop) {
    if (nest.isReduction[loop])
      continue;
    if (windowLoop.test(loop))
      spatial.push_back(loop);
    else if (!window->isFunctionOfDim(loop) && nest.extents[loop] > 1)
      channels = loop;
  }
  if (!channels || spatial.size() < 2)
    return {};
  unsigned rows = spatial[spatial.size() - 2], columns = spatial.back();
  // {blocks, vthreads, threads, register, inner register}.
  auto spaceTile = [&](unsigned loop, int64_t threads,
                       int64_t registers) -> SmallVector<int64_t> {
    int64_t block = threads * registers;
    if (nest.extents[loop] % block != 0)
      return {};
    return {nest.extents[loop] / block, 1, threads, registers, 1};
  };
  SmallVector<SmallVector<int64_t>> tiles(nest.size());
  bool firstReduction = true;
  for (unsigned loop = 0; loop < nest.size(); ++loop) {
    int64_t extent = nest.extents[loop];
    if (nest.isReduction[loop]) {
      if (windowReduction.test(loop)) {
        tiles[loop] = {1, 1, extent};
        continue;
      }
      int64_t stage = firstReduction ? largestDivisorAtMost(extent, kStageCap)
                                     : extent;
      firstReduction = false;
      int64_t middle = stage % 2 == 0 && stage > 2 ? 2 : 1;
      tiles[loop] = {extent / stage, middle, stage / middle};
      continue;
    }
    // Up to 4 threads of channels and rows, each with a register tile of 2
    // where the rest divides; up to 8 threads of columns (at least 4).
    auto pairTile = [&](unsigned loop) {
      int64_t threads = largestDivisorAtMost(nest.extents[loop], 4);
      return spaceTile(loop, threads,
                       (nest.extents[loop] / threads) % 2 == 0 ? 2 : 1);
    };
    if (loop == *channels || loop == rows) {
      tiles[loop] = pairTile(loop);
    } else if (loop == columns) {
      int64_t threads = largestDivisorAtMost(extent, 8);
      if (threads < 4)
        return {};
      tiles[loop] = spaceTile(loop, threads, 1);
    } else
      tiles[loop] = {extent, 1, 1, 1, 1};
    if (tiles[loop].empty())
      return {};
  }
  return tiles;
}

static FailureOr<Schedule> getMultiLevelSchedule(linalg::LinalgOp op,
                                                 const LoopNest &nest,
                                                 bool fuse) {
  MLIRContext *ctx = op->getContext();
  bool reuse = hasOperandReuse(op);
  SmallVector<int64_t> threads = distributeThreads(nest);
  SmallVector<SmallVector<int64_t>> tiles;
  int64_t registerLoops = 0;
  bool firstReduction = true;
  // Walk loops innermost first so the register tile lands on the loops
  // whose threads are contiguous in memory.
  tiles.resize(nest.size());
  for (int64_t loop = nest.size() - 1; loop >= 0; --loop) {
    int64_t extent = nest.extents[loop];
    if (nest.isReduction[loop])
      continue;
    int64_t rest = extent / threads[loop];
    int64_t inner = 1;
    if (reuse && registerLoops < 2 && rest > 1) {
      inner = largestDivisorAtMost(rest, kRegisterTileCap);
      ++registerLoops;
    }
    tiles[loop] = {rest / inner, 1, threads[loop], inner, 1};
  }
  for (unsigned loop = 0; loop < nest.size(); ++loop) {
    if (!nest.isReduction[loop])
      continue;
    int64_t extent = nest.extents[loop];
    int64_t stage = extent;
    if (firstReduction)
      stage = reuse ? largestDivisorAtMost(extent, kStageCap) : 1;
    else if (!reuse)
      stage = 1;
    firstReduction = false;
    tiles[loop] = {extent / stage, stage, 1};
  }

  SmallVector<int64_t> shared;
  if (reuse)
    for (int64_t i = 0, e = op.getNumDpsInputs(); i < e; ++i)
      if (isa<ShapedType>(op.getDpsInputOperand(i)->get().getType()))
        shared.push_back(i);

  // The kernel is the op's fused group, as its task: the epilogue chain in
  // the kernel and the strict-inlinable producers of staged inputs in their
  // cooperative loads.
  int64_t fusedConsumers = fuse ? getEpilogueChain(op).size() : 0;
  SmallVector<int64_t> inlinable =
      fuse ? getInlinableInputs(op) : SmallVector<int64_t>();
  auto sketchFor = [&](ArrayRef<int64_t> sharedOperands) {
    SmallVector<int64_t> inlined;
    for (int64_t operand : sharedOperands)
      if (llvm::is_contained(inlinable, operand))
        inlined.push_back(operand);
    return SketchAttr::get(ctx, SketchKind::MultiLevelTiling,
                           SketchAttr::getDefaultStructure(
                               SketchKind::MultiLevelTiling),
                           sharedOperands, /*registerAccumulator=*/true,
                           fusedConsumers, inlined);
  };
  SketchAttr sketch = sketchFor(shared);
  if (!shared.empty()) {
    auto probe = ConfigAttr::get(ctx, tiles, 16, {});
    if (sharedBytes(op, sketch, probe, nest) > kSharedBudgetBytes) {
      // A convolution whose staged tiles do not fit (its block covers the
      // whole image): smaller blocks that stage (getWindowTiles). The
      // unstaged kernels measured 0.04-0.15x cuDNN on the H100, the one
      // whose tiles fit 1.83x (docs/results/gpu-h100-2026-11-27-b).
      SmallVector<SmallVector<int64_t>> windowTiles = getWindowTiles(op, nest);
      if (!windowTiles.empty() &&
          sharedBytes(op, sketch, ConfigAttr::get(ctx, windowTiles, 16, {}),
                      nest) <= kSharedBudgetBytes) {
        tiles = windowTiles;
      } else {
        shared.clear();
        sketch = sketchFor(shared);
      }
    }
  }
  // Per shared operand, the cooperative load that keeps the most lanes
  // busy, the widest among those.
  SmallVector<int64_t> vector(shared.size(), 1);
  auto probe = ConfigAttr::get(ctx, tiles, 16, {});
  SmallVector<int64_t> blockTile = getBlockTile(sketch, probe, nest);
  int64_t blockThreads = getThreadsPerBlock(sketch, probe, nest);
  for (unsigned i = 0; i < shared.size(); ++i) {
    SmallVector<int64_t> shape = getFootprintShape(
        op.getMatchingIndexingMap(op.getDpsInputOperand(shared[i])), blockTile);
    double bestUse = -1;
    int64_t best = 1;
    // An inlined producer that permutes its input (a transpose) loads one
    // element at a time: its vector form would be n-D.
    bool scalarLoads = false;
    if (llvm::is_contained(sketch.getInlined(), shared[i]))
      if (auto producer = dyn_cast<linalg::LinalgOp>(
              getInlinableProducer(op, shared[i])))
        scalarLoads = llvm::any_of(
            producer.getDpsInputOperands(), [&](OpOperand *input) {
              return isa<ShapedType>(input->get().getType()) &&
                     !producer.getMatchingIndexingMap(input)
                          .isMinorIdentity();
            });
    for (int64_t width : {4, 2, 1}) {
      if (scalarLoads && width != 1)
        continue;
      vector[i] = width;
      if (!fits(op, sketch, ConfigAttr::get(ctx, tiles, 16, vector)))
        continue;
      double use = getCooperativeLoadLaneUse(shape, blockThreads, width);
      if (use > bestUse) {
        bestUse = use;
        best = width;
      }
    }
    vector[i] = best;
  }
  auto config = ConfigAttr::get(ctx, tiles, 16, vector);
  if (!fits(op, sketch, config)) {
    // The fused group may not fit (the epilogue's accumulators live in
    // shared memory): schedule the op alone.
    if (fuse)
      return getMultiLevelSchedule(op, nest, /*fuse=*/false);
    return failure();
  }
  if (shouldPipeline(op, sketch, tiles, nest)) {
    auto pipelined =
        ConfigAttr::get(ctx, tiles, 16, vector, kDefaultPipelineStages);
    if (sharedBytes(op, sketch, pipelined, nest) * kDefaultPipelineStages <=
            kSharedBudgetBytes &&
        fits(op, sketch, pipelined))
      config = pipelined;
  }
  return Schedule{sketch, config};
}

static FailureOr<Schedule> getInjectiveSchedule(linalg::LinalgOp op,
                                                const LoopNest &nest) {
  MLIRContext *ctx = op->getContext();
  SmallVector<int64_t> threads(nest.size(), 1);
  int64_t budget = kTargetThreads;
  for (int64_t loop = nest.size() - 1; loop >= 0 && budget > 1; --loop) {
    threads[loop] = largestDivisorAtMost(nest.extents[loop], budget);
    // An awkward extent (a prime) is covered with boundary blocks of the
    // most threads the budget allows, rather than one thread per block.
    for (int64_t covering : getBoundaryBlockThreads(nest.extents[loop]))
      if (covering <= budget && covering > threads[loop])
        threads[loop] = covering;
    budget /= threads[loop];
  }
  SmallVector<SmallVector<int64_t>> tiles;
  for (unsigned loop = 0; loop < nest.size(); ++loop)
    tiles.push_back({llvm::divideCeilSigned(nest.extents[loop], threads[loop]),
                     threads[loop]});
  auto sketch = SketchAttr::get(
      ctx, SketchKind::TwoLevelInjective,
      SketchAttr::getDefaultStructure(SketchKind::TwoLevelInjective), {},
      false, 0);
  auto config = ConfigAttr::get(ctx, tiles, 0, {});
  if (!fits(op, sketch, config))
    return failure();
  return Schedule{sketch, config};
}

/// A reduction to one element (every space loop of extent 1, such as a sum
/// of all elements after the fusion) has one thread under the multi-level
/// default: from kOneBlockMinReduction elements, its one block's threads
/// split the reduction loop instead (cross_thread_reduction), up to 1024 of
/// them dividing its extent.
/// `cross_thread_reduction` of `op`'s one reduction loop `reduction` over
/// `threads` threads, one block per output element (every space loop whole
/// at its one level), its epilogue chain fused; failure when the sketch
/// cannot take the op or the schedule does not verify.
static FailureOr<Schedule> getCrossThreadSchedule(linalg::LinalgOp op,
                                                  const LoopNest &nest,
                                                  unsigned reduction,
                                                  int64_t threads) {
  MLIRContext *ctx = op->getContext();
  int64_t fusedConsumers = getEpilogueChain(op).size();
  if (!getCrossThreadReductionBlocker(op, fusedConsumers).empty())
    return failure();
  SmallVector<SmallVector<int64_t>> tiles;
  for (unsigned loop = 0; loop < nest.size(); ++loop)
    tiles.push_back(loop == reduction
                        ? SmallVector<int64_t>{nest.extents[loop] / threads,
                                               threads}
                        : SmallVector<int64_t>{nest.extents[loop]});
  auto sketch = SketchAttr::get(
      ctx, SketchKind::CrossThreadReduction,
      SketchAttr::getDefaultStructure(SketchKind::CrossThreadReduction), {},
      /*registerAccumulator=*/false, fusedConsumers);
  auto config = ConfigAttr::get(ctx, tiles, 16, {});
  if (!fits(op, sketch, config))
    return failure();
  return Schedule{sketch, config};
}

static FailureOr<Schedule>
getOneElementReductionSchedule(linalg::LinalgOp op, const LoopNest &nest) {
  if (op.getNumReductionLoops() != 1)
    return failure();
  unsigned reduction =
      llvm::find(nest.isReduction, true) - nest.isReduction.begin();
  int64_t extent = nest.extents[reduction];
  int64_t threads = largestDivisorAtMost(extent, kMaxOneBlockThreads);
  if (extent < kOneBlockMinReduction || threads == 1)
    return failure();
  return getCrossThreadSchedule(op, nest, reduction, threads);
}

/// The reduction loop of a row reduction, or none: the op has one
/// reduction loop, and its largest input is read once (its map names every
/// loop of more than one iteration) with the reduction loop as its
/// innermost dim. Such an op (a row sum, softmax's maximum, a LayerNorm
/// statistic, a matrix-vector product) moves its input once; rows read by
/// adjacent threads are coalesced only when the threads split the row.
static std::optional<unsigned> getRowReductionLoop(linalg::LinalgOp op,
                                                   const LoopNest &nest) {
  if (op.getNumReductionLoops() != 1)
    return std::nullopt;
  unsigned reduction = llvm::find(nest.isReduction, true) -
                       nest.isReduction.begin();
  OpOperand *largest = nullptr;
  int64_t largestElements = 0;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = dyn_cast<ShapedType>(input->get().getType());
    if (!type || !type.hasStaticShape())
      continue;
    if (type.getNumElements() > largestElements) {
      largest = input;
      largestElements = type.getNumElements();
    }
  }
  if (!largest)
    return std::nullopt;
  AffineMap map = op.getMatchingIndexingMap(largest);
  if (!map.isProjectedPermutation() || map.getNumResults() == 0 ||
      map.getResults().back() != getAffineDimExpr(reduction, op.getContext()))
    return std::nullopt;
  for (unsigned loop = 0; loop < nest.size(); ++loop)
    if (nest.extents[loop] > 1 && !map.isFunctionOfDim(loop))
      return std::nullopt;
  return reduction;
}

/// A row reduction (getRowReductionLoop) whose row splits over at least a
/// warp of threads: `cross_thread_reduction`, one block a row (an output
/// element), the threads (the largest divisor of the row up to 256) each
/// reducing every T-th element, adjacent threads adjacent elements.
static FailureOr<Schedule> getRowReductionSchedule(linalg::LinalgOp op,
                                                   const LoopNest &nest) {
  std::optional<unsigned> reduction = getRowReductionLoop(op, nest);
  if (!reduction)
    return failure();
  int64_t threads =
      largestDivisorAtMost(nest.extents[*reduction], kRowReductionMaxThreads);
  if (threads < kRowReductionMinThreads)
    return failure();
  return getCrossThreadSchedule(op, nest, *reduction, threads);
}

FailureOr<Schedule> tessel::getDefaultSchedule(linalg::LinalgOp op) {
  FailureOr<LoopNest> nest = LoopNest::get(op);
  if (failed(nest) || !llvm::is_contained(nest->isReduction, false))
    return failure();
  if (op.getNumReductionLoops() == 0)
    return getInjectiveSchedule(op, *nest);
  bool oneElement =
      llvm::all_of(llvm::seq<unsigned>(0, nest->size()), [&](unsigned loop) {
        return nest->isReduction[loop] || nest->extents[loop] == 1;
      });
  if (oneElement)
    if (FailureOr<Schedule> schedule =
            getOneElementReductionSchedule(op, *nest);
        succeeded(schedule))
      return schedule;
  if (!oneElement)
    if (FailureOr<Schedule> schedule = getRowReductionSchedule(op, *nest);
        succeeded(schedule))
      return schedule;
  return getMultiLevelSchedule(op, *nest, /*fuse=*/true);
}
