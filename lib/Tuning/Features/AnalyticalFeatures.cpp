//===- AnalyticalFeatures.cpp - The seven analytical features -------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The formulas are listed in docs/AnalyticalFeatures.md; keep the two in
// sync.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Features/AnalyticalFeatures.h"

#include "tessel/Dialect/Tessel/IR/Schedule.h"
#include "tessel/Dialect/Tessel/Transforms/KernelFacts.h"
#include "tessel/Tuning/Search/SearchSpace.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace mlir::tessel;

std::vector<float> AnalyticalFeatures::toVector() const {
  return {static_cast<float>(oiGlobalMem),
          static_cast<float>(oiSharedMem),
          static_cast<float>(regReuseFactor),
          static_cast<float>(ilp),
          static_cast<float>(wlp),
          static_cast<float>(estimatedOccupancy),
          static_cast<float>(waveEfficiency)};
}

double tessel::computeWaveEfficiency(int64_t blocks, int64_t blocksPerSm,
                                     int64_t smCount) {
  if (blocks <= 0 || blocksPerSm <= 0 || smCount <= 0)
    return 0;
  double waves = static_cast<double>(blocks) /
                 static_cast<double>(blocksPerSm * smCount);
  return waves / std::ceil(waves);
}

static int64_t product(ArrayRef<int64_t> values) {
  int64_t result = 1;
  for (int64_t v : values)
    result *= v;
  return result;
}

static int64_t getElementBytes(Value value) {
  Type type = getElementTypeOrSelf(value.getType());
  if (!type.isIntOrFloat())
    return 4;
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

/// Coefficient of loop `loop` in the affine expression `expr` (0 when the
/// expression is not a sum of scaled loops).
static int64_t getCoefficient(AffineExpr expr, unsigned loop,
                              unsigned numLoops) {
  MLIRContext *context = expr.getContext();
  SmallVector<AffineExpr> zero(numLoops, getAffineConstantExpr(0, context));
  SmallVector<AffineExpr> one = zero;
  one[loop] = getAffineConstantExpr(1, context);
  auto at = [&](ArrayRef<AffineExpr> dims) -> int64_t {
    auto c = dyn_cast<AffineConstantExpr>(
        expr.replaceDims(dims).replaceSymbols({}));
    return c ? c.getValue() : 0;
  };
  return at(one) - at(zero);
}

/// The space loop whose thread index varies fastest within a warp: the last
/// space loop split over threads (thread loops are linearized with the last
/// one fastest), as in KernelFacts.
static std::optional<unsigned> getFastestThreadLoop(SketchAttr sketch,
                                                    ConfigAttr config,
                                                    const LoopNest &nest) {
  std::optional<unsigned> threadLevel = sketch.getThreadLevel();
  std::optional<unsigned> fastest;
  if (!threadLevel)
    return fastest;
  for (unsigned loop = 0; loop < nest.size(); ++loop)
    if (!nest.isReduction[loop] &&
        config.getLoopTiles(loop)[*threadLevel] > 1)
      fastest = loop;
  return fastest;
}

int64_t tessel::getSharedBankConflictDegree(linalg::LinalgOp op,
                                            SketchAttr sketch,
                                            ConfigAttr config,
                                            int64_t inputIndex,
                                            int64_t banks) {
  FailureOr<LoopNest> nest = LoopNest::get(op);
  if (failed(nest) || inputIndex < 0 ||
      inputIndex >= static_cast<int64_t>(op.getNumDpsInputs()))
    return 1;
  std::optional<unsigned> fastest = getFastestThreadLoop(sketch, config, *nest);
  if (!fastest)
    return 1;
  unsigned threadLevel = *sketch.getThreadLevel();
  // Adjacent threads start `inner` elements apart along the fastest loop:
  // the levels below the thread level belong to one thread.
  int64_t inner = product(config.getLoopTiles(*fastest).drop_front(
      threadLevel + 1));
  OpOperand *input = op.getDpsInputOperand(inputIndex);
  AffineMap map = op.getMatchingIndexingMap(input);
  // The shared buffer holds the footprint over the block tile, row-major.
  SmallVector<int64_t> shape =
      getFootprintShape(map, getBlockTile(sketch, config, *nest));
  int64_t strideElements = 0, rowStride = 1;
  for (int64_t dim = map.getNumResults() - 1; dim >= 0; --dim) {
    strideElements +=
        getCoefficient(map.getResult(dim), *fastest, nest->size()) * rowStride;
    rowStride *= shape[dim];
  }
  int64_t strideWords =
      std::abs(strideElements) * inner * getElementBytes(input->get()) / 4;
  if (strideWords == 0)
    return 1;
  return std::gcd<int64_t>(strideWords, banks);
}

FailureOr<AnalyticalQuantities>
tessel::computeAnalyticalQuantities(linalg::LinalgOp op,
                                    ArrayRef<linalg::LinalgOp> consumers,
                                    SketchAttr sketch, ConfigAttr config,
                                    const DeviceDescription &device) {
  if (!sketch || !config)
    return failure();
  FailureOr<LoopNest> nest = LoopNest::get(op);
  if (failed(nest))
    return failure();
  {
    ScopedDiagnosticHandler silence(op->getContext(),
                                    [](Diagnostic &) { return success(); });
    if (failed(verifySchedule(op, sketch, config,
                              [&] { return op->emitError(); })))
      return failure();
  }
  FailureOr<SearchSpace> space = SearchSpace::get(op, sketch, device);
  if (failed(space))
    return failure();

  AnalyticalQuantities q;
  unsigned numLoops = nest->size();
  bool crossThread = sketch.getKind() == SketchKind::CrossThreadReduction;
  std::optional<unsigned> threadLevel = sketch.getThreadLevel();
  std::optional<unsigned> reductionThreadLevel =
      sketch.getReductionThreadLevel();
  q.blocks = getNumBlocks(sketch, config, *nest);
  q.threadsPerBlock = getThreadsPerBlock(sketch, config, *nest);
  SmallVector<int64_t> blockTile = getBlockTile(sketch, config, *nest);

  // Staging steps of a block and the tile of one thread in one step.
  int64_t steps = 1;
  SmallVector<int64_t> threadTile(numLoops, 1);
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
    threadTile[loop] =
        blockTile[loop] / (threadLevel ? levels[*threadLevel] : 1);
  }

  // Work.
  int64_t iterations = product(nest->extents);
  q.ops = static_cast<double>(iterations) * countBodyOperations(op);
  for (linalg::LinalgOp consumer : consumers) {
    SmallVector<int64_t> extents = consumer.getStaticLoopRanges();
    if (llvm::any_of(extents, ShapedType::isDynamic))
      return failure();
    q.ops += static_cast<double>(product(extents)) *
             countBodyOperations(consumer);
  }

  // Data movement.
  double trips = static_cast<double>(q.blocks) * steps;
  int64_t warps = (q.threadsPerBlock + device.warpSize - 1) /
                  std::max<int64_t>(1, device.warpSize);
  llvm::SmallDenseSet<int64_t> staged(sketch.getShared().begin(),
                                      sketch.getShared().end());
  for (auto [index, input] : llvm::enumerate(op.getDpsInputOperands())) {
    if (!isa<ShapedType>(input->get().getType()))
      continue;
    AffineMap map = op.getMatchingIndexingMap(input);
    double perThread = getFootprint(map, threadTile);
    if (staged.contains(index)) {
      q.globalReads += trips * getFootprint(map, blockTile);
      q.sharedTransactions +=
          trips * warps * perThread *
          getSharedBankConflictDegree(op, sketch, config, index,
                                      device.sharedMemoryBanks > 0
                                          ? device.sharedMemoryBanks
                                          : 32);
    } else {
      q.globalReads += trips * q.threadsPerBlock * perThread;
    }
  }
  bool registerTile = sketch.getKind() == SketchKind::MultiLevelTiling &&
                      sketch.getRegisterAccumulator();
  bool hasReduction = llvm::is_contained(nest->isReduction, true);
  int64_t outputs = 1;
  for (unsigned loop = 0; loop < numLoops; ++loop)
    if (!nest->isReduction[loop])
      outputs *= nest->extents[loop];
  q.outputTraffic = registerTile || !hasReduction
                        ? static_cast<double>(outputs)
                        : static_cast<double>(iterations);
  if (registerTile)
    for (unsigned loop = 0; loop < numLoops; ++loop)
      if (!nest->isReduction[loop])
        q.registerTile *= threadTile[loop];

  // Resources and occupancy.
  q.registersPerThread = space->estimateRegisters(config).total();
  q.sharedMemoryBytes = space->getSharedMemoryBytes(config);
  q.occupancy = computeOccupancy(device, q.threadsPerBlock,
                                 q.registersPerThread, q.sharedMemoryBytes);
  return q;
}

AnalyticalFeatures
tessel::computeAnalyticalFeatures(const AnalyticalQuantities &q,
                                  const DeviceDescription &device) {
  auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };
  AnalyticalFeatures f;
  f.oiGlobalMem = ratio(q.ops, q.globalReads);
  f.oiSharedMem = ratio(q.ops, q.sharedTransactions);
  f.regReuseFactor = ratio(q.ops, q.outputTraffic);
  f.ilp = static_cast<double>(q.registerTile);
  // Warps resident per SM: the occupancy limit, or fewer when the grid does
  // not fill every SM with that many blocks.
  double blocksPerSm =
      std::min(static_cast<double>(q.occupancy.blocksPerSm),
               ratio(static_cast<double>(q.blocks),
                     static_cast<double>(device.smCount)));
  f.wlp = blocksPerSm * q.occupancy.warpsPerBlock;
  f.estimatedOccupancy = q.occupancy.ratio;
  f.waveEfficiency = computeWaveEfficiency(q.blocks, q.occupancy.blocksPerSm,
                                           device.smCount);
  return f;
}

std::vector<std::string> AnalyticalFeatureExtractor::featureNames() const {
  return {"OI_Global_Mem", "OI_Shared_Mem",       "Reg_Reuse_Factor",
          "ILP",           "WLP",                 "Estimated_Occupancy",
          "Wave_Efficiency"};
}

FailureOr<std::vector<float>> AnalyticalFeatureExtractor::extract(
    linalg::LinalgOp op, ArrayRef<linalg::LinalgOp> fusedConsumers,
    SketchAttr sketch, ConfigAttr config,
    const DeviceDescription &device) const {
  FailureOr<AnalyticalQuantities> q = computeAnalyticalQuantities(
      op, fusedConsumers, sketch, config, device);
  if (failed(q))
    return failure();
  std::vector<float> vector = computeAnalyticalFeatures(*q, device).toVector();
  for (float &v : vector)
    if (!std::isfinite(v))
      v = 0;
  return vector;
}
