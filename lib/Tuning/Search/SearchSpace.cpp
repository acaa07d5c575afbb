//===- SearchSpace.cpp - The configs of one sketch of one op --------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Search/SearchSpace.h"
#include "SpaceRestriction.h"
#include "tessel/Dialect/Tessel/IR/BoundaryBlocks.h"
#include "tessel/Dialect/Tessel/IR/TensorCore.h"
#include "tessel/Dialect/Tessel/IR/WindowViews.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <functional>
#include <limits>

using namespace mlir;
using namespace mlir::tessel;

/// Registers a thread spends on addresses, loop counters and indices.
static constexpr int64_t kRegisterOverhead = 24;

static SmallVector<std::pair<int64_t, int64_t>> factorize(int64_t n) {
  SmallVector<std::pair<int64_t, int64_t>> factors;
  for (int64_t p = 2; p * p <= n; ++p) {
    int64_t exponent = 0;
    while (n % p == 0) {
      n /= p;
      ++exponent;
    }
    if (exponent)
      factors.push_back({p, exponent});
  }
  if (n > 1)
    factors.push_back({n, 1});
  return factors;
}

static uint64_t saturatingMul(uint64_t a, uint64_t b) {
  if (a != 0 && b > std::numeric_limits<uint64_t>::max() / a)
    return std::numeric_limits<uint64_t>::max();
  return a * b;
}

/// Binomial coefficient C(n, k), saturating.
static uint64_t binomial(uint64_t n, uint64_t k) {
  k = std::min(k, n - k);
  uint64_t result = 1;
  for (uint64_t i = 1; i <= k; ++i) {
    // result * (n - k + i) / i stays integral at every step.
    uint64_t next = saturatingMul(result, n - k + i);
    if (next == std::numeric_limits<uint64_t>::max())
      return next;
    result = next / i;
  }
  return result;
}

static int64_t getElementBytes(Value value) {
  Type type = getElementTypeOrSelf(value.getType());
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

static int64_t product(ArrayRef<int64_t> values) {
  int64_t result = 1;
  for (int64_t v : values)
    result *= v;
  return result;
}

/// 32-bit registers that `elements` values of `bytes` bytes occupy.
static int64_t toRegisters(int64_t elements, int64_t bytes) {
  return llvm::divideCeil(elements * bytes, 4);
}

FailureOr<SearchSpace> SearchSpace::get(linalg::LinalgOp op, SketchAttr sketch,
                                        const DeviceDescription &device,
                                        int64_t maxStages) {
  FailureOr<LoopNest> nest = LoopNest::get(op);
  if (failed(nest) || !sketch)
    return failure();
  {
    ScopedDiagnosticHandler silence(op->getContext(),
                                    [](Diagnostic &) { return success(); });
    if (failed(verifySchedule(op, sketch, ConfigAttr(),
                              [&] {
                                // Not op->emitError(), which prints the op.
                                return mlir::emitError(op->getLoc());
                              })))
      return failure();
  }
  SearchSpace space(op, sketch, device, *nest);
  // cp.async (sm_80) is what makes more stages worth their shared memory.
  // Tensor-core sketches always stage both operands (since session 37
  // their staging loop pipelines too).
  if ((sketch.getKind() == SketchKind::MultiLevelTiling ||
       sketch.getKind() == SketchKind::TensorCore) &&
      !sketch.getShared().empty() &&
      device.getComputeCapabilityMajor() >= 8)
    space.maxStages = std::clamp<int64_t>(maxStages, 1, kMaxPipelineStages);
  if (sketch.getKind() == SketchKind::TensorCore) {
    // mma.sync m16n8k16 on 16-bit floats needs sm_80.
    if (device.getComputeCapabilityMajor() < 8)
      return failure();
    space.instructionTiles = getMmaLevelExtents(op);
  }
  for (auto [loop, extent] : llvm::enumerate(space.nest.extents))
    space.primeFactors.push_back(factorize(
        space.instructionTiles.empty() ? extent
                                       : extent / space.instructionTiles[loop]));
  for (int64_t operand : sketch.getShared()) {
    OpOperand *input = op.getDpsInputOperand(operand);
    int64_t bytes = getElementBytes(input->get());
    space.sharedElementBytes.push_back(bytes);
    space.sharedFootprints.emplace_back(op.getMatchingIndexingMap(input));
    SmallVector<int64_t> &widths = space.vectorCandidates.emplace_back();
    for (int64_t width = 1; width * bytes <= kMaxVectorBytes; width *= 2)
      widths.push_back(width);
  }
  for (OpOperand *input : op.getDpsInputOperands())
    if (isa<ShapedType>(input->get().getType()) &&
        op.payloadUsesValueFromOperand(input))
      space.readInputs.push_back(
          {FootprintFunction(op.getMatchingIndexingMap(input)),
           getElementBytes(input->get())});
  for (OpOperand &init : op.getDpsInitsMutable())
    space.initElementBytes.push_back(getElementBytes(init.get()));
  space.vectorizable = isVectorizedByMaterialization(op);
  space.indexingMaps = op.getIndexingMapsArray();
  space.updateCost = getUpdateCost(op);
  return space;
}

int64_t tessel::getUpdateCost(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (!body)
    return 1;
  // In PTX instructions, roughly: a transcendental function is a short
  // polynomial (exp: ex2.approx and about 10 instructions around it);
  // conversions are not counted (an f16 matmul's update is an FMA too).
  int64_t instructions = 0;
  for (Operation &nested : body->without_terminator())
    if (!isa<CastOpInterface>(nested))
      instructions +=
        isa<math::ExpOp, math::Exp2Op, math::ExpM1Op, math::LogOp,
            math::Log2Op, math::Log1pOp, math::TanhOp, math::ErfOp,
            math::PowFOp, math::SinOp, math::CosOp, math::AtanOp,
            math::Atan2Op>(nested)
            ? 8
            : 1;
  // A multiply and an add are one FMA.
  return std::max<int64_t>(1, llvm::divideCeil(instructions, 2));
}

unsigned SearchSpace::getNumLevels(unsigned loop) const {
  return nest.isReduction[loop] ? sketch.getNumReductionLevels()
                                : sketch.getNumSpaceLevels();
}

int64_t SearchSpace::getSharedMemoryLimit() const {
  return device.maxSharedMemoryPerBlockBytes;
}

int64_t SearchSpace::getSharedMemoryBytes(ConfigAttr config) const {
  return getSharedMemoryBytes(getTileVectors(config), config.getStages(),
                              config.getPad());
}

int64_t SearchSpace::getSharedMemoryBytes(LoopTiles tiles, int64_t stages,
                                          ArrayRef<int64_t> pad) const {
  SmallVector<int64_t> tile = getBlockTile(sketch, tiles, nest);
  // Every workgroup buffer (and each slot of a pipelined one) starts at a
  // 16-byte boundary; a padded tile's rows are `pad` elements longer.
  int64_t bytes = 0;
  for (auto [index, footprint] : llvm::enumerate(sharedFootprints)) {
    int64_t elements = footprint.getElements(tile);
    if (int64_t rowPad = index < pad.size() ? pad[index] : 0) {
      int64_t row = footprint.getInnermostExtent(tile);
      elements = elements / row * (row + rowPad);
    }
    bytes += llvm::alignTo(elements * sharedElementBytes[index], 16) * stages;
  }
  // With fused consumers the block's accumulator is a workgroup buffer too
  // (the fused init: ScheduleScript's writeBlockTiling), unless the
  // epilogue reads the register accumulators
  // (--tessel-forward-accumulators removes it).
  if (sketch.getFusedConsumers() > 0 &&
      !hasRegisterEpilogue(vectorizable, indexingMaps, sketch, tiles)) {
    int64_t outputs = 1;
    for (unsigned loop = 0; loop < nest.size(); ++loop)
      if (!nest.isReduction[loop])
        outputs *= tile[loop];
    for (int64_t elementBytes : initElementBytes)
      bytes += llvm::alignTo(outputs * elementBytes, 16);
  }
  return bytes;
}

int64_t SearchSpace::estimateUnrolledLoops(ConfigAttr config) const {
  return estimateUnrolledLoops(getTileVectors(config), config.getUnroll());
}

int64_t SearchSpace::estimateUnrolledLoops(LoopTiles tiles,
                                           int64_t unroll) const {
  if (vectorizable || sketch.getKind() != SketchKind::MultiLevelTiling ||
      readsWindowViews(indexingMaps, sketch, tiles))
    return 0;
  // Space levels: block, vthread (1), thread, outer register tile (3),
  // inner register tile; reduction levels: stage, middle (1), inner.
  int64_t copies = 1, middle = 1;
  for (unsigned loop = 0; loop < nest.size(); ++loop) {
    ArrayRef<int64_t> levels = tiles[loop];
    if (nest.isReduction[loop]) {
      if (levels.size() > 2)
        middle *= levels[1];
      continue;
    }
    if (std::optional<unsigned> level = sketch.getVThreadLevel())
      copies *= levels[*level];
    if (levels.size() > 4)
      copies *= levels[3];
  }
  if (middle <= unroll)
    copies *= middle;
  return copies * static_cast<int64_t>(nest.size());
}

int64_t SearchSpace::estimateUnrolledWork(ConfigAttr config) const {
  return estimateUnrolledWork(getTileVectors(config), config.getUnroll());
}

int64_t SearchSpace::estimateUnrolledWork(LoopTiles tiles,
                                          int64_t unroll) const {
  if (sketch.getKind() != SketchKind::MultiLevelTiling)
    return 0;
  // Space levels as in estimateUnrolledLoops; reduction levels: stage,
  // middle (1), inner (last).
  int64_t outputs = 1, middle = 1, inner = 1;
  for (unsigned loop = 0; loop < nest.size(); ++loop) {
    ArrayRef<int64_t> levels = tiles[loop];
    if (nest.isReduction[loop]) {
      if (levels.size() > 2) {
        middle *= levels[1];
        inner *= levels.back();
      }
      continue;
    }
    if (std::optional<unsigned> level = sketch.getVThreadLevel())
      outputs *= levels[*level];
    if (levels.size() > 4)
      outputs *= levels[3] * levels[4];
  }
  return outputs * (middle <= unroll ? middle : 1) * inner * updateCost;
}

bool SearchSpace::isUnrollWithinLimits(LoopTiles tiles, int64_t unroll) const {
  return estimateUnrolledLoops(tiles, unroll) <= kMaxKernelLoops &&
         estimateUnrolledWork(tiles, unroll) <= kMaxUnrolledWork;
}

SmallVector<int64_t> SearchSpace::getStageOptions(LoopTiles tiles) const {
  SmallVector<int64_t> options = {1};
  if (maxStages <= 1)
    return options;
  SmallVector<unsigned> loops = getMultiStepStagingLoops(tiles, nest);
  if (loops.size() != 1)
    return options;
  int64_t steps = tiles[loops.front()].front();
  for (int64_t stages = 2; stages <= std::min(maxStages, steps); ++stages)
    options.push_back(stages);
  return options;
}

std::optional<ConfigAttr> SearchSpace::mutateStages(ConfigAttr config,
                                                    RandomEngine &rng) const {
  SmallVector<int64_t> others;
  if (restriction)
    return pickMemberDifferingIn(config, /*inUnroll=*/false, rng);
  for (int64_t stages : getStageOptions(getTileVectors(config)))
    if (stages != config.getStages())
      others.push_back(stages);
  if (others.empty())
    return std::nullopt;
  return config.withStages(others[rng.uniform(others.size())]);
}

RegisterEstimate SearchSpace::estimateRegisters(ConfigAttr config) const {
  return estimateRegisters(getTileVectors(config), config.getVector());
}

RegisterEstimate SearchSpace::estimateRegisters(LoopTiles tiles,
                                                ArrayRef<int64_t> vector) const {
  RegisterEstimate estimate;
  estimate.overhead = kRegisterOverhead;
  for (auto [width, bytes] : llvm::zip(vector, sharedElementBytes))
    estimate.stagedLoads += toRegisters(width, bytes);
  if (std::optional<unsigned> warpLevel = sketch.getWarpLevel()) {
    // A warp's accumulators and one mma step of its operand fragments,
    // spread over its 32 lanes.
    SmallVector<int64_t> tile(nest.size(), 1);
    int64_t outputs = 1;
    for (unsigned loop = 0; loop < nest.size(); ++loop) {
      ArrayRef<int64_t> levels = tiles[loop];
      tile[loop] = nest.isReduction[loop]
                       ? levels.back()
                       : product(levels.drop_front(*warpLevel + 1));
      if (!nest.isReduction[loop])
        outputs *= tile[loop];
    }
    for (int64_t bytes : initElementBytes)
      estimate.accumulators += toRegisters(outputs, bytes) / kWarpSize;
    for (const auto &[footprint, bytes] : readInputs)
      estimate.operands +=
          llvm::divideCeil(toRegisters(footprint.getElements(tile), bytes),
                           kWarpSize);
    return estimate;
  }
  bool multiLevel = sketch.getKind() == SketchKind::MultiLevelTiling;
  bool registerTile = multiLevel && sketch.getRegisterAccumulator();
  // The register tile of a thread: every space level below the block that
  // is not bound to threads (virtual threads are unrolled in the thread),
  // and the innermost reduction level.
  SmallVector<int64_t> tile(nest.size(), 1);
  int64_t outputs = 1;
  for (unsigned loop = 0; loop < nest.size(); ++loop) {
    ArrayRef<int64_t> levels = tiles[loop];
    if (nest.isReduction[loop]) {
      if (multiLevel)
        tile[loop] = levels.back();
      continue;
    }
    if (!registerTile)
      continue;
    for (unsigned level = 1; level < levels.size(); ++level)
      if (level != *sketch.getThreadLevel())
        tile[loop] *= levels[level];
    outputs *= tile[loop];
  }
  for (int64_t bytes : initElementBytes)
    estimate.accumulators += toRegisters(outputs, bytes);
  for (const auto &[footprint, bytes] : readInputs)
    estimate.operands += toRegisters(footprint.getElements(tile), bytes);
  return estimate;
}

bool SearchSpace::fitsTiles(LoopTiles tiles) const {
  if (restriction)
    return restriction->getWithTiles(tiles) != nullptr;
  // What verifySchedule checks of such tiles with 1-wide loads.
  int64_t threads = getThreadsPerBlock(sketch, tiles, nest);
  if (threads > kMaxThreadsPerBlock)
    return false;
  SmallVector<int64_t> ones(sharedFootprints.size(), 1);
  return succeeded(checkDeviceLimits(tiles, ones, nullptr));
}

LogicalResult SearchSpace::check(ConfigAttr config, std::string *why) const {
  auto fail = [&](const Twine &message) {
    if (why)
      *why = message.str();
    return failure();
  };
  if (!config)
    return fail("no config");
  if (restriction)
    return restriction->memberSet.contains(config)
               ? success()
               : fail("not among the configs the replayed dataset measured");
  {
    std::string message;
    ScopedDiagnosticHandler capture(op->getContext(), [&](Diagnostic &d) {
      if (message.empty())
        message = d.str();
      return success();
    });
    if (failed(verifySchedule(op, sketch, config,
                              [&] {
                                // Not op->emitError(), which prints the op.
                                return mlir::emitError(op->getLoc());
                              })))
      return fail(message);
  }
  if (config.getStages() > maxStages)
    return fail("stages " + Twine(config.getStages()) + " exceed the " +
                Twine(maxStages) + " this space allows");
  if (failed(checkUnrolledLoops(estimateUnrolledLoops(config), why)))
    return failure();
  if (int64_t work = estimateUnrolledWork(config); work > kMaxUnrolledWork)
    return fail(Twine(work) + " unrolled multiply-adds (or their cost in "
                "other ops) per thread and staging step; at most " +
                Twine(kMaxUnrolledWork) + " compile in reasonable time");
  return checkDeviceLimits(getTileVectors(config), config.getVector(), why,
                           config.getStages(), config.getPad());
}

LogicalResult SearchSpace::checkCompilerLimits(ConfigAttr config,
                                               std::string *why) const {
  if (failed(checkSharedMemory(getSharedMemoryBytes(config), why)))
    return failure();
  return checkUnrolledLoops(estimateUnrolledLoops(config), why);
}

LogicalResult SearchSpace::checkSharedMemory(int64_t bytes,
                                             std::string *why) const {
  if (bytes <= getSharedMemoryLimit())
    return success();
  if (why)
    *why = (Twine(bytes) + " bytes of shared memory per block; " + device.id +
            " allows " + Twine(getSharedMemoryLimit()))
               .str();
  return failure();
}

LogicalResult SearchSpace::checkUnrolledLoops(int64_t loops,
                                              std::string *why) const {
  if (loops <= kMaxKernelLoops)
    return success();
  if (why)
    *why = ("at least " + Twine(loops) +
            " loops after unrolling; the kernel-size limit is " +
            Twine(kMaxKernelLoops))
               .str();
  return failure();
}

LogicalResult SearchSpace::checkDeviceLimits(LoopTiles tiles,
                                             ArrayRef<int64_t> vector,
                                             std::string *why, int64_t stages,
                                             ArrayRef<int64_t> pad) const {
  auto fail = [&](const Twine &message) {
    if (why)
      *why = message.str();
    return failure();
  };
  int64_t threads = getThreadsPerBlock(sketch, tiles, nest);
  if (threads > device.maxThreadsPerBlock)
    return fail(Twine(threads) + " threads per block; " + device.id +
                " allows " + Twine(device.maxThreadsPerBlock));
  if (std::optional<unsigned> level = sketch.getVThreadLevel()) {
    int64_t vthreads = 1;
    for (unsigned loop = 0; loop < nest.size(); ++loop)
      if (!nest.isReduction[loop])
        vthreads *= tiles[loop][*level];
    if (vthreads > kMaxVirtualThreads)
      return fail(Twine(vthreads) + " virtual threads per block; at most " +
                  Twine(kMaxVirtualThreads) + " are allowed");
  }
  if (failed(checkSharedMemory(getSharedMemoryBytes(tiles, stages, pad), why)))
    return failure();
  RegisterEstimate registers = estimateRegisters(tiles, vector);
  if (registers.total() > device.maxRegistersPerThread)
    return fail("about " + Twine(registers.total()) +
                " registers per thread (" + Twine(registers.accumulators) +
                " accumulators, " + Twine(registers.operands) +
                " operands, " + Twine(registers.stagedLoads) +
                " staged loads); " + device.id + " allows " +
                Twine(device.maxRegistersPerThread));
  return success();
}

/// Splits `exponent` into `parts` non-negative parts, uniformly among all
/// such compositions (stars and bars: `parts - 1` bars among
/// `exponent + parts - 1` places, chosen by selection sampling).
static SmallVector<int64_t> sampleComposition(int64_t exponent, unsigned parts,
                                              RandomEngine &rng) {
  SmallVector<int64_t> result(parts, 0);
  int64_t places = exponent + parts - 1;
  int64_t barsLeft = parts - 1;
  unsigned part = 0;
  for (int64_t place = 0; place < places; ++place) {
    int64_t placesLeft = places - place;
    if (static_cast<int64_t>(rng.uniform(placesLeft)) < barsLeft) {
      --barsLeft;
      ++part;
    } else {
      ++result[part];
    }
  }
  return result;
}

SmallVector<SmallVector<int64_t>>
SearchSpace::getValidVectors(LoopTiles tiles) const {
  SmallVector<SmallVector<int64_t>> result;
  if (restriction) {
    // The widths members with these tiles use, per operand.
    const std::vector<ConfigAttr> *group = restriction->getWithTiles(tiles);
    if (!group)
      return {};
    result.resize(sharedFootprints.size());
    for (ConfigAttr member : *group)
      for (auto [index, width] : llvm::enumerate(member.getVector()))
        if (index < result.size() && !llvm::is_contained(result[index], width))
          result[index].push_back(width);
    for (SmallVector<int64_t> &widths : result) {
      if (widths.empty())
        return {};
      llvm::sort(widths);
    }
    return result;
  }
  SmallVector<int64_t> blockTile = getBlockTile(sketch, tiles, nest);
  for (auto [footprint, candidates] :
       llvm::zip(sharedFootprints, vectorCandidates)) {
    // Threads need not divide the tile: the cooperative load is predicated
    // (getCooperativeLoadChunk). A vector must not cross a row.
    int64_t innermost = footprint.getInnermostExtent(blockTile);
    SmallVector<int64_t> &valid = result.emplace_back();
    for (int64_t width : candidates)
      if (innermost % width == 0)
        valid.push_back(width);
    if (valid.empty())
      return {};
  }
  return result;
}

/// Every way of writing `n` (with prime factors `factors`) as an ordered
/// product of `levels` factors.
static std::vector<SmallVector<int64_t>>
getOrderedFactorizations(ArrayRef<std::pair<int64_t, int64_t>> factors,
                         unsigned levels) {
  std::vector<SmallVector<int64_t>> result{SmallVector<int64_t>(levels, 1)};
  for (auto [prime, exponent] : factors) {
    std::vector<SmallVector<int64_t>> next;
    for (const SmallVector<int64_t> &partial : result) {
      // Every composition of `exponent` into `levels` parts.
      SmallVector<int64_t> parts(levels, 0);
      std::function<void(unsigned, int64_t)> place = [&](unsigned level,
                                                         int64_t left) {
        if (level + 1 == levels) {
          parts[level] = left;
          SmallVector<int64_t> tiles = partial;
          for (unsigned l = 0; l < levels; ++l)
            for (int64_t i = 0; i < parts[l]; ++i)
              tiles[l] *= prime;
          next.push_back(std::move(tiles));
          return;
        }
        for (int64_t k = 0; k <= left; ++k) {
          parts[level] = k;
          place(level + 1, left - k);
        }
      };
      place(0, exponent);
    }
    result = std::move(next);
  }
  return result;
}

FailureOr<std::vector<ConfigAttr>>
SearchSpace::enumerate(uint64_t maxPoints, std::string *why) {
  if (restriction)
    return restriction->members;
  uint64_t points = getSizeEstimate();
  if (points > maxPoints) {
    if (why)
      *why = "the space of " + std::to_string(points) +
             " points (tilings x unroll values x vector widths, before the "
             "constraints) exceeds the enumeration cap of " +
             std::to_string(maxPoints);
    return failure();
  }
  MLIRContext *ctx = op->getContext();
  std::vector<std::vector<SmallVector<int64_t>>> perLoop;
  for (unsigned loop = 0; loop < nest.size(); ++loop)
  {
    perLoop.push_back(
        getOrderedFactorizations(primeFactors[loop], getNumFreeLevels(loop)));
    for (SmallVector<int64_t> &levels : perLoop.back())
      appendInstructionLevel(loop, levels);
  }
  std::vector<ConfigAttr> configs;
  SmallVector<int64_t> ones(sketch.getShared().size(), 1);
  SmallVector<size_t> at(nest.size(), 0);
  while (true) {
    SmallVector<SmallVector<int64_t>> tiles;
    for (unsigned loop = 0; loop < nest.size(); ++loop)
      tiles.push_back(perLoop[loop][at[loop]]);
    // The tiles alone (with 1-wide loads) must fit; wider loads only add
    // registers.
    if (fitsTiles(tiles)) {
      SmallVector<SmallVector<int64_t>> widths = getValidVectors(tiles);
      if (widths.size() == ones.size()) {
        SmallVector<size_t> w(widths.size(), 0);
        while (true) {
          SmallVector<int64_t> vector;
          for (auto [index, choice] : llvm::enumerate(w))
            vector.push_back(widths[index][choice]);
          // Only the loop count reads the unroll value: check the
          // smallest, keep the values within the kernel-size limit.
          for (int64_t stages : getStageOptions(tiles))
            if (succeeded(check(ConfigAttr::get(ctx, tiles, kUnrollValues[0],
                                                vector, stages))))
              for (int64_t unroll : kUnrollValues)
                if (isUnrollWithinLimits(tiles, unroll))
                  configs.push_back(
                      ConfigAttr::get(ctx, tiles, unroll, vector, stages));
          unsigned i = 0;
          for (; i < w.size(); ++i) {
            if (++w[i] < widths[i].size())
              break;
            w[i] = 0;
          }
          if (i == w.size())
            break;
        }
      }
    }
    unsigned loop = 0;
    for (; loop < nest.size(); ++loop) {
      if (++at[loop] < perLoop[loop].size())
        break;
      at[loop] = 0;
    }
    if (loop == nest.size())
      break;
  }
  return configs;
}

std::optional<SmallVector<int64_t>>
SearchSpace::sampleVector(LoopTiles tiles, RandomEngine &rng) const {
  SmallVector<SmallVector<int64_t>> valid = getValidVectors(tiles);
  if (valid.size() != sharedFootprints.size())
    return std::nullopt;
  SmallVector<int64_t> vector;
  for (ArrayRef<int64_t> widths : valid)
    vector.push_back(widths[rng.uniform(widths.size())]);
  return vector;
}

/// Per loop, the boundary-block thread counts its tiles may take
/// (getBoundaryBlockThreads; injective sketches only, else none).
static SmallVector<SmallVector<int64_t>>
getBoundaryThreadsOf(SketchAttr sketch, const LoopNest &nest) {
  SmallVector<SmallVector<int64_t>> threads(nest.size());
  if (sketch.getKind() == SketchKind::TwoLevelInjective)
    for (unsigned loop = 0; loop < nest.size(); ++loop)
      threads[loop] = getBoundaryBlockThreads(nest.extents[loop]);
  return threads;
}

FailureOr<ConfigAttr> SearchSpace::sample(RandomEngine &rng, std::string *why) {
  if (restriction) {
    if (!restriction->members.empty())
      return restriction->members[rng.uniform(restriction->members.size())];
    if (why)
      *why = "the replayed dataset measured no config of this sketch";
    return failure();
  }
  MLIRContext *ctx = op->getContext();
  std::string lastReason;
  // Tiles of the last draw when fitsTiles() rejected it: the reason is only
  // spelled out (by check()) if no draw succeeds.
  SmallVector<SmallVector<int64_t>> lastRejected;
  SmallVector<int64_t> ones(sketch.getShared().size(), 1);
  SmallVector<SmallVector<int64_t>> boundaryThreads =
      getBoundaryThreadsOf(sketch, nest);
  for (int attempt = 0; attempt < kMaxSampleTries; ++attempt) {
    SmallVector<SmallVector<int64_t>> tiles;
    for (unsigned loop = 0; loop < nest.size(); ++loop) {
      SmallVector<int64_t> &levels =
          tiles.emplace_back(getNumFreeLevels(loop), 1);
      // An awkward loop of an injective sketch: its dividing tiles (one
      // draw) or one of its boundary-block thread counts, uniformly.
      ArrayRef<int64_t> covering = boundaryThreads[loop];
      if (!covering.empty()) {
        size_t choice = rng.uniform(covering.size() + 1);
        if (choice < covering.size()) {
          levels = {llvm::divideCeilSigned(nest.extents[loop],
                                            covering[choice]),
                    covering[choice]};
          continue;
        }
      }
      for (auto [prime, exponent] : primeFactors[loop]) {
        SmallVector<int64_t> parts =
            sampleComposition(exponent, levels.size(), rng);
        for (auto [level, part] : llvm::zip(levels, parts))
          for (int64_t i = 0; i < part; ++i)
            level *= prime;
      }
      appendInstructionLevel(loop, levels);
    }
    int64_t unroll = kUnrollValues[rng.uniform(std::size(kUnrollValues))];
    if (!fitsTiles(tiles)) {
      lastRejected = std::move(tiles);
      continue;
    }
    lastRejected.clear();
    std::optional<SmallVector<int64_t>> vector = sampleVector(tiles, rng);
    if (!vector)
      continue;
    int64_t stages = 1;
    if (maxStages > 1) {
      SmallVector<int64_t> options = getStageOptions(tiles);
      stages = options[rng.uniform(options.size())];
    }
    auto config = ConfigAttr::get(ctx, tiles, unroll, *vector, stages);
    if (succeeded(check(config, &lastReason)))
      return config;
  }
  if (!lastRejected.empty())
    (void)check(ConfigAttr::get(ctx, lastRejected, kUnrollValues[0], ones),
                &lastReason);
  if (why)
    *why = "no valid config in " + std::to_string(kMaxSampleTries) +
           " draws; the last one failed with: " + lastReason;
  return failure();
}

std::optional<ConfigAttr> SearchSpace::mutateTileSize(ConfigAttr config,
                                                      RandomEngine &rng) {
  MLIRContext *ctx = op->getContext();
  SmallVector<unsigned> loops;
  for (unsigned loop = 0; loop < nest.size(); ++loop)
    if (getNumFreeLevels(loop) > 1 && !primeFactors[loop].empty())
      loops.push_back(loop);
  if (loops.empty())
    return std::nullopt;
  for (int attempt = 0; attempt < kMaxMutationTries; ++attempt) {
    SmallVector<SmallVector<int64_t>> tiles = getTileVectors(config);
    unsigned loop = loops[rng.uniform(loops.size())];
    SmallVector<int64_t> &levels = tiles[loop];
    unsigned numFree = getNumFreeLevels(loop);
    SmallVector<unsigned> sources;
    for (unsigned level = 0; level < numFree; ++level)
      if (levels[level] > 1)
        sources.push_back(level);
    unsigned src = sources[rng.uniform(sources.size())];
    SmallVector<int64_t> divisors;
    for (int64_t d = 2; d <= levels[src]; ++d)
      if (levels[src] % d == 0)
        divisors.push_back(d);
    int64_t factor = divisors[rng.uniform(divisors.size())];
    unsigned dst = rng.uniform(numFree - 1);
    if (dst >= src)
      ++dst;
    levels[src] /= factor;
    levels[dst] *= factor;
    if (restriction) {
      // Only tiles some member has; its other knobs as close as there are.
      if (std::optional<ConfigAttr> member =
              pickMemberWithTiles(tiles, config, rng))
        return member;
      continue;
    }
    // No vector widths make tiles valid that fail with 1-wide loads (a
    // config without widths, as default ones, is checked as it is).
    bool fits = fitsTiles(tiles);
    if (!config.getVector().empty() && !fits)
      continue;

    // Keep the vector widths when they still fit, else draw valid ones;
    // keep the stages the new staging loop allows.
    int64_t stages =
        std::min(config.getStages(), getStageOptions(tiles).back());
    auto mutated = ConfigAttr::get(ctx, tiles, config.getUnroll(),
                                   config.getVector(), stages);
    if (succeeded(check(mutated)))
      return mutated;
    if (!fits)
      continue;
    std::optional<SmallVector<int64_t>> vector = sampleVector(tiles, rng);
    if (!vector)
      continue;
    mutated = ConfigAttr::get(ctx, tiles, config.getUnroll(), *vector, stages);
    if (succeeded(check(mutated)))
      return mutated;
  }
  return std::nullopt;
}

ConfigAttr SearchSpace::mutateUnroll(ConfigAttr config, RandomEngine &rng) {
  if (restriction)
    return pickMemberDifferingIn(config, /*inUnroll=*/true, rng)
        .value_or(config);
  SmallVector<int64_t> others;
  SmallVector<SmallVector<int64_t>> tiles = getTileVectors(config);
  for (int64_t value : kUnrollValues)
    if (value != config.getUnroll() && isUnrollWithinLimits(tiles, value))
      others.push_back(value);
  if (others.empty())
    return config;
  int64_t unroll = others[rng.uniform(others.size())];
  return ConfigAttr::get(op->getContext(), config.getTiles(), unroll,
                         config.getVector(), config.getStages(),
                         config.getPad());
}

uint64_t SearchSpace::getSizeEstimate() const {
  if (restriction)
    return restriction->members.size();
  SmallVector<SmallVector<int64_t>> boundaryThreads =
      getBoundaryThreadsOf(sketch, nest);
  uint64_t size = std::size(kUnrollValues);
  for (unsigned loop = 0; loop < nest.size(); ++loop) {
    uint64_t parts = getNumFreeLevels(loop);
    uint64_t tilings = 1;
    for (auto [prime, exponent] : primeFactors[loop])
      tilings =
          saturatingMul(tilings, binomial(exponent + parts - 1, parts - 1));
    size = saturatingMul(size, tilings + boundaryThreads[loop].size());
  }
  for (const SmallVector<int64_t> &widths : vectorCandidates)
    size = saturatingMul(size, widths.size());
  return saturatingMul(size, maxStages);
}
