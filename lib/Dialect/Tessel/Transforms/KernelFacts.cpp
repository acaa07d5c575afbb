//===- KernelFacts.cpp - What a scheduled op asks of the GPU --------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The formulas are those of docs/SimulatedGpu.md ("Kernel facts"); keep the
// two in sync.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/KernelFacts.h"
#include "tessel/Dialect/Tessel/IR/TensorCore.h"
#include "tessel/Dialect/Tessel/IR/TesselDialect.h"
#include "tessel/Dialect/Tessel/IR/TileShape.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tessel;

DictionaryAttr KernelFacts::toAttribute(MLIRContext *context) const {
  Builder b(context);
  SmallVector<NamedAttribute> fields = {
      b.getNamedAttr("op", b.getStringAttr(opName)),
      b.getNamedAttr("flops", b.getF64FloatAttr(flops)),
      b.getNamedAttr("global_read", b.getI64IntegerAttr(globalBytesRead)),
      b.getNamedAttr("global_written", b.getI64IntegerAttr(globalBytesWritten)),
      b.getNamedAttr("global_requested",
                     b.getI64IntegerAttr(globalBytesRequested)),
      b.getNamedAttr("shared_moved", b.getI64IntegerAttr(sharedBytesMoved)),
      b.getNamedAttr("register_tile", b.getI64IntegerAttr(registerTile)),
      b.getNamedAttr("vector_width", b.getI64IntegerAttr(vectorWidth)),
      b.getNamedAttr("element_bytes", b.getI64IntegerAttr(elementBytes)),
      b.getNamedAttr("coalesced", b.getBoolAttr(coalesced)),
      b.getNamedAttr("bank_conflicts", b.getI64IntegerAttr(bankConflictDegree)),
      b.getNamedAttr("unroll", b.getI64IntegerAttr(unroll)),
      b.getNamedAttr("load_lane_use", b.getF64FloatAttr(loadLaneUse)),
  };
  if (mmaTilesPerWarp > 0) {
    fields.push_back(
        b.getNamedAttr("mma_tiles", b.getI64IntegerAttr(mmaTilesPerWarp)));
    fields.push_back(
        b.getNamedAttr("mma_loads", b.getI64IntegerAttr(mmaLoadsPerWarp)));
  }
  if (tf32)
    fields.push_back(b.getNamedAttr("tf32", b.getBoolAttr(true)));
  if (sharedLoadConflicts > 0)
    fields.push_back(b.getNamedAttr("shared_load_conflicts",
                                    b.getI64IntegerAttr(sharedLoadConflicts)));
  if (sharedStoreConflicts > 0)
    fields.push_back(b.getNamedAttr("shared_store_conflicts",
                                    b.getI64IntegerAttr(sharedStoreConflicts)));
  if (barriersPerThread >= 0) {
    fields.push_back(
        b.getNamedAttr("barriers", b.getI64IntegerAttr(barriersPerThread)));
    fields.push_back(b.getNamedAttr(
        "load_barriers", b.getI64IntegerAttr(loadBarriersPerThread)));
  }
  if (pipelineStages > 1) {
    fields.push_back(
        b.getNamedAttr("stages", b.getI64IntegerAttr(pipelineStages)));
    fields.push_back(
        b.getNamedAttr("loads_per_step", b.getI64IntegerAttr(loadsPerStep)));
  }
  return b.getDictionaryAttr(fields);
}

std::optional<KernelFacts> KernelFacts::fromAttribute(DictionaryAttr attr) {
  if (!attr)
    return std::nullopt;
  KernelFacts facts;
  auto getInt = [&](StringRef name, int64_t &out) {
    auto value = attr.getAs<IntegerAttr>(name);
    if (value)
      out = value.getInt();
    return static_cast<bool>(value);
  };
  auto op = attr.getAs<StringAttr>("op");
  auto flops = attr.getAs<FloatAttr>("flops");
  auto coalesced = attr.getAs<BoolAttr>("coalesced");
  auto loadLaneUse = attr.getAs<FloatAttr>("load_lane_use");
  if (!op || !flops || !coalesced || !loadLaneUse)
    return std::nullopt;
  facts.opName = op.getValue().str();
  facts.flops = flops.getValueAsDouble();
  facts.loadLaneUse = loadLaneUse.getValueAsDouble();
  facts.coalesced = coalesced.getValue();
  if (!getInt("global_read", facts.globalBytesRead) ||
      !getInt("global_written", facts.globalBytesWritten) ||
      !getInt("global_requested", facts.globalBytesRequested) ||
      !getInt("shared_moved", facts.sharedBytesMoved) ||
      !getInt("register_tile", facts.registerTile) ||
      !getInt("vector_width", facts.vectorWidth) ||
      !getInt("element_bytes", facts.elementBytes) ||
      !getInt("bank_conflicts", facts.bankConflictDegree) ||
      !getInt("unroll", facts.unroll))
    return std::nullopt;
  // Optional: pipelined kernels only.
  (void)getInt("stages", facts.pipelineStages);
  (void)getInt("loads_per_step", facts.loadsPerStep);
  // Optional: tensor-core kernels only.
  (void)getInt("mma_tiles", facts.mmaTilesPerWarp);
  (void)getInt("mma_loads", facts.mmaLoadsPerWarp);
  // Optional: recorded by tessel-shared-bank-conflicts.
  (void)getInt("shared_load_conflicts", facts.sharedLoadConflicts);
  (void)getInt("shared_store_conflicts", facts.sharedStoreConflicts);
  // Optional: recorded by tessel-count-barriers.
  (void)getInt("barriers", facts.barriersPerThread);
  (void)getInt("load_barriers", facts.loadBarriersPerThread);
  if (auto tf32 = attr.getAs<BoolAttr>("tf32"))
    facts.tf32 = tf32.getValue();
  return facts;
}

int64_t tessel::countBodyOperations(linalg::LinalgOp op) {
  // A multiply-add, whatever extensions of its operands the body spells out
  // (f16 products accumulated in f32).
  if (linalg::isaContractionOpInterface(op))
    return 2;
  // Convolutions and pooling count their body's arithmetic without the
  // extensions of f16 inputs: a multiply-add is 2 FLOP there too.
  bool window = linalg::isaConvolutionOpInterface(op);
  int64_t count = 0;
  op.getBlock()->walk([&](Operation *inner) {
    Dialect *dialect = inner->getDialect();
    if (!dialect || isa<arith::ConstantOp>(inner) || inner->getNumResults() != 1)
      return;
    if (window && isa<arith::ExtFOp>(inner))
      return;
    if (!isa<arith::ArithDialect, math::MathDialect>(dialect))
      return;
    if (inner->getResult(0).getType().isIndex())
      return;
    ++count;
  });
  return count;
}

static int64_t getElementBytes(Type type) {
  return std::max<int64_t>(
      1, getElementTypeOrSelf(type).getIntOrFloatBitWidth() / 8);
}

static int64_t getElementBytes(Value value) {
  return getElementBytes(value.getType());
}

static int64_t product(ArrayRef<int64_t> values) {
  return std::accumulate(values.begin(), values.end(), int64_t(1),
                         std::multiplies<int64_t>());
}

/// Bytes of the result written by `op`.
static int64_t getResultBytes(linalg::LinalgOp op, ArrayRef<int64_t> extents) {
  int64_t bytes = 0;
  for (OpOperand &init : op.getDpsInitsMutable())
    bytes += getFootprint(op.getMatchingIndexingMap(&init), extents) *
             getElementBytes(init.get());
  return bytes;
}

namespace {
/// What an inlined producer of an operand reads and computes, per element
/// of the operand and per operand tile.
struct InlinedProducer {
  /// The producer: a tensor.pad (or the gather it was rewritten into), or
  /// another injective linalg op.
  Operation *op = nullptr;
  /// Whether `op` pads: it reads its source and computes nothing.
  bool isPad = false;
};
} // namespace

static std::optional<InlinedProducer> getInlinedProducer(linalg::LinalgOp op,
                                                         SketchAttr sketch,
                                                         int64_t input) {
  if (!llvm::is_contained(sketch.getInlined(), input))
    return std::nullopt;
  Operation *producer = op.getDpsInputOperand(input)->get().getDefiningOp();
  if (!producer)
    return std::nullopt;
  InlinedProducer result;
  result.op = producer;
  result.isPad = isa<tensor::PadOp>(producer) ||
                 producer->hasAttr(TesselDialect::kInlinedPadAttrName);
  if (!result.isPad && !isa<linalg::LinalgOp>(producer))
    return std::nullopt;
  return result;
}

/// Bytes an inlined producer reads from global memory to compute the
/// operand tile of shape `tile` (the whole operand for its full shape).
static int64_t getProducerBytes(const InlinedProducer &producer,
                                ArrayRef<int64_t> tile) {
  if (producer.isPad) {
    // The in-bounds part of the tile, at most the source.
    Type source;
    if (auto pad = dyn_cast<tensor::PadOp>(producer.op))
      source = pad.getSourceType();
    else
      producer.op->walk([&](tensor::ExtractOp extract) {
        source = extract.getTensor().getType();
      });
    auto shaped = dyn_cast_or_null<ShapedType>(source);
    if (!shaped)
      return 0;
    int64_t elements = 1;
    for (auto [size, extent] : llvm::zip(tile, shaped.getShape()))
      elements *= std::min(size, extent);
    return elements * getElementBytes(shaped.getElementType());
  }
  auto linalgOp = cast<linalg::LinalgOp>(producer.op);
  int64_t bytes = 0;
  for (OpOperand *input : linalgOp.getDpsInputOperands())
    if (isa<ShapedType>(input->get().getType()))
      bytes += getFootprint(linalgOp.getMatchingIndexingMap(input), tile) *
               getElementBytes(input->get());
  return bytes;
}

/// Facts specific to a cross-thread reduction (ReductionScript.cpp): every
/// thread of a block stores its partial result in shared memory once and
/// they are read back once (by the combining threads, whose own partials
/// are stored and read once more); adjacent threads read adjacent elements
/// of an input when the reduction loop indexes its innermost dim.
static void addCrossThreadFacts(linalg::LinalgOp op, const LoopNest &nest,
                                int64_t threads, int64_t blocks,
                                KernelFacts &facts) {
  int64_t width = getCrossThreadCombineWidth(threads);
  int64_t partials = threads > 1 ? threads + (width > 1 ? width : 0) : 0;
  facts.sharedBytesMoved += 2 * blocks * partials * facts.elementBytes;
  unsigned reduction =
      llvm::find(nest.isReduction, true) - nest.isReduction.begin();
  bool coalesced = threads > 1;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (map.getNumResults() == 0 || !op.payloadUsesValueFromOperand(input))
      continue;
    auto innermost = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!innermost || innermost.getPosition() != reduction)
      coalesced = false;
  }
  facts.coalesced = coalesced;
}

FailureOr<KernelFacts>
tessel::computeKernelFacts(linalg::LinalgOp op,
                           ArrayRef<linalg::LinalgOp> consumers,
                           SketchAttr sketch, ConfigAttr config) {
  FailureOr<LoopNest> nest = LoopNest::get(op);
  if (failed(nest))
    return failure();
  KernelFacts facts;
  // The op's name without its dialect ("matmul"), so that compiled modules
  // hold no "linalg." text.
  facts.opName = op->getName().stripDialect().str();
  const SmallVector<int64_t> &extents = nest->extents;
  unsigned numLoops = nest->size();

  int64_t threads = getThreadsPerBlock(sketch, config, *nest);
  int64_t blocks = getNumBlocks(sketch, config, *nest);
  SmallVector<int64_t> blockTile = getBlockTile(sketch, config, *nest);
  bool crossThread = sketch.getKind() == SketchKind::CrossThreadReduction;
  bool tensorCore = sketch.getKind() == SketchKind::TensorCore;
  // Who reads a shared tile: every thread, or every warp (ldmatrix).
  int64_t sharedReaders = tensorCore ? threads / kWarpSize : threads;
  std::optional<unsigned> threadLevel = sketch.getThreadLevel();
  std::optional<unsigned> reductionThreadLevel =
      sketch.getReductionThreadLevel();

  // Steps of the staged reduction each block runs, and what one thread
  // covers of the block tile in one step.
  int64_t steps = 1;
  SmallVector<int64_t> threadTile(numLoops, 1);
  SmallVector<int64_t> innerContiguous(numLoops, 1);
  for (unsigned loop = 0; loop < numLoops; ++loop) {
    ArrayRef<int64_t> levels = config.getLoopTiles(loop);
    if (nest->isReduction[loop]) {
      if (!crossThread)
        steps *= levels.front();
      threadTile[loop] = reductionThreadLevel
                             ? blockTile[loop] / levels[*reductionThreadLevel]
                             : blockTile[loop];
      continue;
    }
    // Tensor cores: a warp reads its warp tile's fragments once.
    std::optional<unsigned> boundLevel = getBoundThreadLevel(sketch);
    threadTile[loop] = blockTile[loop] / (boundLevel ? levels[*boundLevel] : 1);
    if (threadLevel)
      innerContiguous[loop] = product(levels.drop_front(*threadLevel + 1));
  }

  // Work: the op and its fused consumers.
  int64_t iterations = product(extents);
  facts.flops = static_cast<double>(iterations) * countBodyOperations(op);
  for (linalg::LinalgOp consumer : consumers) {
    SmallVector<int64_t> consumerExtents = consumer.getStaticLoopRanges();
    if (llvm::any_of(consumerExtents, ShapedType::isDynamic))
      return failure();
    facts.flops +=
        static_cast<double>(product(consumerExtents)) *
        countBodyOperations(consumer);
  }

  // Global memory: inputs (and the side inputs of consumers) are read once
  // as a footprint; requests count re-reads by blocks and unstaged threads.
  llvm::SmallDenseSet<int64_t> shared(sketch.getShared().begin(),
                                      sketch.getShared().end());
  for (auto [index, input] : llvm::enumerate(op.getDpsInputOperands())) {
    AffineMap map = op.getMatchingIndexingMap(input);
    int64_t elementBytes = getElementBytes(input->get());
    int64_t stepTile = getFootprint(map, blockTile) * elementBytes;
    int64_t perThread = getFootprint(map, threadTile) * elementBytes;
    if (std::optional<InlinedProducer> producer =
            getInlinedProducer(op, sketch, index)) {
      // The shared tile is computed from the producer's sources: they are
      // what global memory serves, and the producer's work is redone for
      // every tile.
      auto shape = cast<ShapedType>(input->get().getType()).getShape();
      SmallVector<int64_t> tile = getFootprintShape(map, blockTile);
      facts.globalBytesRead += getProducerBytes(*producer, shape);
      facts.globalBytesRequested +=
          blocks * steps * getProducerBytes(*producer, tile);
      facts.sharedBytesMoved +=
          blocks * steps * (stepTile + sharedReaders * perThread);
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(producer->op);
          linalgOp && !producer->isPad)
        facts.flops += static_cast<double>(blocks * steps * product(tile)) *
                       countBodyOperations(linalgOp);
      continue;
    }
    facts.globalBytesRead += getFootprint(map, extents) * elementBytes;
    if (shared.contains(index)) {
      facts.globalBytesRequested += blocks * steps * stepTile;
      facts.sharedBytesMoved +=
          blocks * steps * (stepTile + sharedReaders * perThread);
    } else {
      facts.globalBytesRequested += blocks * steps * threads * perThread;
    }
  }
  linalg::LinalgOp last = consumers.empty() ? op : consumers.back();
  for (linalg::LinalgOp consumer : consumers) {
    SmallVector<int64_t> consumerExtents = consumer.getStaticLoopRanges();
    for (OpOperand *input : consumer.getDpsInputOperands()) {
      Operation *producer = input->get().getDefiningOp();
      if (producer == op.getOperation() ||
          llvm::is_contained(consumers, producer))
        continue;
      int64_t bytes = getFootprint(consumer.getMatchingIndexingMap(input),
                                   consumerExtents) *
                      getElementBytes(input->get());
      facts.globalBytesRead += bytes;
      facts.globalBytesRequested += bytes;
    }
  }
  facts.globalBytesWritten =
      getResultBytes(last, SmallVector<int64_t>(last.getStaticLoopRanges()));
  facts.globalBytesRequested += facts.globalBytesWritten;
  if (op.getNumDpsInits() > 0)
    facts.elementBytes = getElementBytes(op.getDpsInitOperand(0)->get());

  if (tensorCore) {
    // A warp's accumulators, spread over its lanes; its mma tiles and their
    // operand loads per step of 16 along K.
    MatmulLoops loops = *getMatmulLoops(op);
    int64_t warpOutputs = 1, batchTiles = 1;
    for (unsigned loop = 0; loop < numLoops; ++loop)
      if (!nest->isReduction[loop])
        warpOutputs *= threadTile[loop];
    for (unsigned loop : loops.batch)
      batchTiles *= config.getLoopTiles(loop)[2];
    int64_t mTiles = config.getLoopTiles(loops.m)[2];
    int64_t nTiles = config.getLoopTiles(loops.n)[2];
    facts.registerTile = std::max<int64_t>(1, warpOutputs / kWarpSize);
    facts.mmaTilesPerWarp = batchTiles * mTiles * nTiles;
    facts.tf32 = isTf32Contraction(op);
    // A TF32 B stored (K, N) has no 32-bit transposing ldmatrix: each of
    // its fragments is two scalar shared loads.
    AffineMap bMap = op.getMatchingIndexingMap(op.getDpsInputOperand(1));
    bool bRowMajor =
        bMap.getResults().back() == getAffineDimExpr(loops.n, op.getContext());
    int64_t bLoadsPerTile = facts.tf32 && bRowMajor ? 2 : 1;
    facts.mmaLoadsPerWarp = batchTiles * (mTiles + bLoadsPerTile * nTiles);
  }
  // Registers: one accumulator per result element a thread owns.
  if (sketch.getRegisterAccumulator()) {
    int64_t tile = 1;
    for (unsigned loop = 0; loop < numLoops; ++loop)
      if (!nest->isReduction[loop])
        tile *= threadTile[loop];
    facts.registerTile = tile;
  }
  for (int64_t width : config.getVector())
    facts.vectorWidth = std::max(facts.vectorWidth, width);

  // Cooperative loads: rounds of one vector per thread, as materialized.
  // Lane slots of all operands' rounds together: elements / use each.
  double loadedElements = 0, laneSlots = 0;
  for (auto [index, operand] : llvm::enumerate(sketch.getShared())) {
    int64_t width = config.getVector().empty() ? 1 : config.getVector()[index];
    SmallVector<int64_t> shape = getFootprintShape(
        op.getMatchingIndexingMap(op.getDpsInputOperand(operand)), blockTile);
    double elements = static_cast<double>(product(shape));
    loadedElements += elements;
    laneSlots += elements / getCooperativeLoadLaneUse(shape, threads, width);
    facts.loadsPerStep += llvm::divideCeil(product(shape), threads * width);
  }
  facts.pipelineStages = config.getStages();
  if (laneSlots > 0)
    facts.loadLaneUse = loadedElements / laneSlots;
  facts.unroll = std::max<int64_t>(1, config.getUnroll());

  // Adjacent threads of a warp differ in the fastest thread loop: the last
  // space loop split over threads (the thread loops are linearized with the
  // last one fastest).
  std::optional<unsigned> fastest;
  if (threadLevel)
    for (unsigned loop = 0; loop < numLoops; ++loop)
      if (!nest->isReduction[loop] &&
          config.getLoopTiles(loop)[*threadLevel] > 1)
        fastest = loop;
  if (fastest && op.getNumDpsInits() > 0) {
    // Coalesced when the fastest thread loop indexes the innermost result
    // dimension and each thread owns one element of it per access.
    AffineMap resultMap =
        op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    AffineExpr innermost = resultMap.getResults().back();
    facts.coalesced = innermost.isFunctionOfDim(*fastest) &&
                      innerContiguous[*fastest] == 1;
  }
  if (fastest) {
    // Shared-memory reads: the stride, in 4-byte words, between the
    // elements adjacent threads read; threads that do not index the operand
    // with the fastest loop read the same word (a broadcast).
    for (int64_t index : sketch.getShared()) {
      OpOperand *input = op.getDpsInputOperand(index);
      AffineMap map = op.getMatchingIndexingMap(input);
      SmallVector<int64_t> shape = getFootprintShape(map, blockTile);
      int64_t strideElements = 0;
      int64_t rowStride = 1;
      for (int64_t dim = map.getNumResults() - 1; dim >= 0; --dim) {
        AffineExpr expr = map.getResult(dim);
        if (expr.isFunctionOfDim(*fastest)) {
          // Coefficient of the loop in this dimension.
          SmallVector<AffineExpr> zero(numLoops,
                                       getAffineConstantExpr(0, op.getContext()));
          SmallVector<AffineExpr> one = zero;
          one[*fastest] = getAffineConstantExpr(1, op.getContext());
          auto at = [&](ArrayRef<AffineExpr> dims) {
            auto c = dyn_cast<AffineConstantExpr>(
                expr.replaceDims(dims).replaceSymbols({}));
            return c ? c.getValue() : 0;
          };
          strideElements += (at(one) - at(zero)) * rowStride;
        }
        rowStride *= shape[dim];
      }
      int64_t strideWords = std::max<int64_t>(
          0, strideElements * innerContiguous[*fastest] *
                 getElementBytes(input->get()) / 4);
      int64_t degree =
          strideWords == 0 ? 1 : std::gcd<int64_t>(strideWords, 32);
      facts.bankConflictDegree = std::max(facts.bankConflictDegree, degree);
    }
  }
  if (crossThread)
    addCrossThreadFacts(op, *nest, threads, blocks, facts);
  return facts;
}
