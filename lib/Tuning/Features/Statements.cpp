//===- Statements.cpp - The statements of a scheduled kernel ---------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Features/Statements.h"

#include "tessel/Dialect/Tessel/IR/TensorCore.h"
#include "tessel/Dialect/Tessel/IR/TileShape.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::features;

//===----------------------------------------------------------------------===//
// Operation counts
//===----------------------------------------------------------------------===//

/// Whether `op` is an `arith.mulf` that forms an FMA with its only user.
static bool isFusedMultiply(Operation *op) {
  if (!isa<arith::MulFOp>(op) || !op->getResult(0).hasOneUse())
    return false;
  return isa<arith::AddFOp>(*op->getResult(0).getUsers().begin());
}

/// Whether `op` is an `arith.addf` with an operand from a fused multiply.
static bool isFusedAdd(Operation *op) {
  if (!isa<arith::AddFOp>(op))
    return false;
  return llvm::any_of(op->getOperands(), [](Value operand) {
    Operation *def = operand.getDefiningOp();
    return def && isFusedMultiply(def);
  });
}

static std::optional<OpKind> classify(Operation *op) {
  if (isFusedMultiply(op))
    return std::nullopt;
  if (isFusedAdd(op) || isa<math::FmaOp>(op))
    return FloatFma;
  auto isFloat = [](Value v) {
    return isa<FloatType>(getElementTypeOrSelf(v.getType()));
  };
  if (isa<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp,
          arith::FPToSIOp, arith::FPToUIOp, arith::BitcastOp>(op))
    return llvm::any_of(op->getOperands(), isFloat) || isFloat(op->getResult(0))
               ? std::optional<OpKind>(FloatCast)
               : std::optional<OpKind>(IntOther);
  if (isa<math::MathDialect>(op->getDialect()))
    return FloatMath;
  if (isa<arith::CmpFOp>(op))
    return FloatCmp;
  if (isa<arith::CmpIOp>(op))
    return IntCmp;
  if (isa<arith::SelectOp>(op))
    return isFloat(op->getResult(0)) ? FloatMinMax : IntMinMax;
  if (isFloat(op->getResult(0))) {
    if (isa<arith::AddFOp>(op))
      return FloatAdd;
    if (isa<arith::SubFOp, arith::NegFOp>(op))
      return FloatSub;
    if (isa<arith::MulFOp>(op))
      return FloatMul;
    if (isa<arith::DivFOp>(op))
      return FloatDiv;
    if (isa<arith::RemFOp>(op))
      return FloatMod;
    if (isa<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
            arith::MinNumFOp>(op))
      return FloatMinMax;
    return FloatMath;
  }
  if (isa<arith::AddIOp>(op))
    return IntAdd;
  if (isa<arith::SubIOp>(op))
    return IntSub;
  if (isa<arith::MulIOp>(op))
    return IntMul;
  if (isa<arith::DivSIOp, arith::DivUIOp, arith::CeilDivSIOp,
          arith::CeilDivUIOp, arith::FloorDivSIOp>(op))
    return IntDiv;
  if (isa<arith::RemSIOp, arith::RemUIOp>(op))
    return IntMod;
  if (isa<arith::MaxSIOp, arith::MaxUIOp, arith::MinSIOp, arith::MinUIOp>(op))
    return IntMinMax;
  return IntOther;
}

OpCounts features::countOperations(linalg::LinalgOp op) {
  OpCounts counts{};
  // The same operations as computeKernelFacts counts: arith and math ops on
  // non-index values, constants excluded (there, a contraction's operand
  // extensions are not counted; here they stay visible as casts).
  op.getBlock()->walk([&](Operation *inner) {
    Dialect *dialect = inner->getDialect();
    if (!dialect || isa<arith::ConstantOp>(inner) ||
        inner->getNumResults() != 1)
      return;
    if (!isa<arith::ArithDialect, math::MathDialect>(dialect))
      return;
    if (inner->getResult(0).getType().isIndex())
      return;
    if (std::optional<OpKind> kind = classify(inner))
      counts[*kind] += 1;
  });
  return counts;
}

//===----------------------------------------------------------------------===//
// Geometry
//===----------------------------------------------------------------------===//

static int64_t product(ArrayRef<int64_t> values) {
  int64_t result = 1;
  for (int64_t v : values)
    result *= v;
  return result;
}

static int64_t getElementBytes(Value value) {
  Type type = getElementTypeOrSelf(value.getType());
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

static SmallVector<int64_t> getShape(Value value) {
  if (auto shaped = dyn_cast<ShapedType>(value.getType()))
    return SmallVector<int64_t>(shaped.getShape());
  return {};
}

/// Coefficient of `dim` in the affine expression `expr` (0 for non-linear
/// uses).
static int64_t getCoefficient(AffineExpr expr, unsigned dim,
                              unsigned numDims) {
  if (!expr.isFunctionOfDim(dim))
    return 0;
  MLIRContext *ctx = expr.getContext();
  SmallVector<AffineExpr> zero(numDims, getAffineConstantExpr(0, ctx));
  SmallVector<AffineExpr> one = zero;
  one[dim] = getAffineConstantExpr(1, ctx);
  auto at = [&](ArrayRef<AffineExpr> dims) {
    auto c = dyn_cast<AffineConstantExpr>(
        expr.replaceDims(dims).replaceSymbols({}));
    return c ? c.getValue() : 0;
  };
  return at(one) - at(zero);
}

int64_t features::getAddressCoefficient(AffineMap map,
                                        ArrayRef<int64_t> layout,
                                        unsigned dim) {
  int64_t coefficient = 0;
  int64_t rowStride = 1;
  for (int64_t r = map.getNumResults() - 1; r >= 0; --r) {
    coefficient +=
        getCoefficient(map.getResult(r), dim, map.getNumDims()) * rowStride;
    if (static_cast<size_t>(r) < layout.size())
      rowStride *= std::max<int64_t>(1, layout[r]);
  }
  return coefficient;
}

double Statement::getExecutions() const {
  double executions = 1;
  for (const StatementLoop &loop : loops)
    executions *= static_cast<double>(loop.trip);
  return executions;
}

double Statement::getInnerElements(const BufferAccess &buffer,
                                   unsigned loop) const {
  if (loop < loops.size() && loops[loop].dim < 0) {
    // Linear loops of a copy: the elements they enumerate.
    double elements = 1;
    for (const StatementLoop &inner : ArrayRef(loops).drop_front(loop))
      if (inner.dim < 0)
        elements *= static_cast<double>(inner.trip);
    return elements;
  }
  SmallVector<int64_t> covered(baseTile);
  for (const StatementLoop &inner : ArrayRef(loops).drop_front(loop))
    if (inner.dim >= 0)
      covered[inner.dim] += (inner.trip - 1) * inner.step;
  return static_cast<double>(getFootprint(buffer.map, covered));
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

namespace {
/// One tiling level of the sketch structure.
struct Level {
  bool reduction;
  unsigned index;
};
} // namespace

/// Sketches with a shared-memory staging level, a level bound to threads
/// (or warps) and register levels below it.
static bool hasStagedLevels(SketchAttr sketch) {
  return sketch.getKind() == SketchKind::MultiLevelTiling ||
         sketch.getKind() == SketchKind::TensorCore;
}

/// The tiling levels in the order of the materialized loop nest.
static SmallVector<Level> getLevelOrder(SketchAttr sketch) {
  SmallVector<Level> order;
  unsigned space = 0, reduction = 0;
  for (char c : sketch.getStructure()) {
    if (c == 'R')
      order.push_back({true, reduction++});
    else
      order.push_back({false, space++});
  }
  // The staging loop (R0) runs right inside the block loop, around the
  // virtual-thread and thread loops.
  if (hasStagedLevels(sketch)) {
    auto staging = llvm::find_if(order, [](Level l) { return l.reduction; });
    if (staging != order.end() && staging != order.begin()) {
      Level level = *staging;
      order.erase(staging);
      order.insert(order.begin() + 1, level);
    }
  }
  return order;
}

static LoopPosition getPosition(unsigned level, unsigned numLevels) {
  if (level == 0)
    return LoopPosition::Outer;
  if (level + 1 == numLevels)
    return LoopPosition::Inner;
  return LoopPosition::Middle;
}

/// Checks what verifySchedule checks of the config's shape, silently.
static bool fits(linalg::LinalgOp op, const LoopNest &nest, SketchAttr sketch,
                 ConfigAttr config) {
  if (!sketch || !config || config.getNumLoops() != nest.size())
    return false;
  for (unsigned loop = 0; loop < nest.size(); ++loop) {
    ArrayRef<int64_t> levels = config.getLoopTiles(loop);
    unsigned expected = nest.isReduction[loop] ? sketch.getNumReductionLevels()
                                               : sketch.getNumSpaceLevels();
    if (levels.size() != expected || product(levels) != nest.extents[loop] ||
        llvm::any_of(levels, [](int64_t t) { return t < 1; }))
      return false;
  }
  for (int64_t operand : sketch.getShared())
    if (operand < 0 || operand >= op.getNumDpsInputs())
      return false;
  return true;
}

namespace {
/// Builds the statements of one kernel.
class KernelBuilder {
public:
  KernelBuilder(linalg::LinalgOp op, SketchAttr sketch, ConfigAttr config,
          const LoopNest &nest)
      : op(op), sketch(sketch), config(config), nest(nest) {
    blockTile = getBlockTile(sketch, config, nest);
    threads = getThreadsPerBlock(sketch, config, nest);
    blocks = getNumBlocks(sketch, config, nest);
    if (std::optional<unsigned> level = sketch.getVThreadLevel())
      for (unsigned loop = 0; loop < nest.size(); ++loop)
        if (!nest.isReduction[loop])
          vthreads *= config.getLoopTiles(loop)[*level];
    std::optional<unsigned> threadLevel = getBoundThreadLevel(sketch);
    std::optional<unsigned> reductionThreadLevel =
        sketch.getReductionThreadLevel();
    threadTile.assign(nest.size(), 1);
    for (unsigned loop = 0; loop < nest.size(); ++loop) {
      std::optional<unsigned> level =
          nest.isReduction[loop] ? reductionThreadLevel : threadLevel;
      threadTile[loop] =
          blockTile[loop] / (level ? config.getLoopTiles(loop)[*level] : 1);
    }
  }

  Statement buildCompute();
  Statement buildCopy(unsigned operand, int64_t width);
  Statement buildConsumer(linalg::LinalgOp consumer,
                          ArrayRef<linalg::LinalgOp> earlier, bool last);

private:
  /// Loops of the op's space or reduction loops at tiling `level`.
  void addLevelLoops(Statement &s, Level level);
  Statement initStatement() const {
    Statement s;
    s.blocks = blocks;
    s.threads = threads;
    s.vthreads = vthreads;
    s.tensorCore = sketch.getKind() == SketchKind::TensorCore;
    s.tf32 = s.tensorCore && isTf32Contraction(op);
    return s;
  }

  linalg::LinalgOp op;
  SketchAttr sketch;
  ConfigAttr config;
  const LoopNest &nest;
  SmallVector<int64_t> blockTile, threadTile;
  int64_t threads = 1, blocks = 1, vthreads = 1;
};
} // namespace

void KernelBuilder::addLevelLoops(Statement &s, Level level) {
  bool multiLevel = hasStagedLevels(sketch);
  unsigned numLevels = level.reduction ? sketch.getNumReductionLevels()
                                       : sketch.getNumSpaceLevels();
  std::optional<unsigned> threadLevel =
      level.reduction ? sketch.getReductionThreadLevel()
                      : getBoundThreadLevel(sketch);
  // Register-level reduction loops are unrolled when all their iterations
  // fit the config's unroll budget.
  int64_t levelTrips = 1;
  for (unsigned loop = 0; loop < nest.size(); ++loop)
    if (nest.isReduction[loop] == level.reduction)
      levelTrips *= config.getLoopTiles(loop)[level.index];

  for (unsigned loop = 0; loop < nest.size(); ++loop) {
    if (nest.isReduction[loop] != level.reduction)
      continue;
    ArrayRef<int64_t> levels = config.getLoopTiles(loop);
    if (levels[level.index] == 1)
      continue;
    StatementLoop l;
    l.trip = levels[level.index];
    l.reduction = level.reduction;
    l.position = getPosition(level.index, numLevels);
    l.dim = loop;
    l.step = product(levels.drop_front(level.index + 1));
    if (!level.reduction && level.index == 0)
      l.binding = LoopBinding::Block;
    else if (threadLevel && level.index == *threadLevel)
      l.binding = LoopBinding::Thread;
    else if (!level.reduction && level.index == sketch.getVThreadLevel())
      l.binding = LoopBinding::VThread;
    if (multiLevel && level.index + 1 == numLevels && level.index > 0) {
      l.vectorized = true;
    } else if (multiLevel && l.binding == LoopBinding::VThread) {
      l.unrolled = true;
    } else if (multiLevel && !level.reduction && threadLevel &&
               level.index > *threadLevel) {
      l.unrolled = true;
    } else if (multiLevel && level.reduction && level.index > 0) {
      l.unrolled = levelTrips <= config.getUnroll();
    }
    s.loops.push_back(l);
  }
}

Statement KernelBuilder::buildCompute() {
  Statement s = initStatement();
  for (Level level : getLevelOrder(sketch))
    addLevelLoops(s, level);
  s.baseTile.assign(nest.size(), 1);
  s.opsPerIteration = countOperations(op);

  ArrayRef<int64_t> shared = sketch.getShared();
  for (auto [index, input] : llvm::enumerate(op.getDpsInputOperands())) {
    BufferAccess b;
    b.access = AccessKind::Read;
    b.map = op.getMatchingIndexingMap(input);
    b.elementBytes = getElementBytes(input->get());
    if (llvm::is_contained(shared, static_cast<int64_t>(index))) {
      b.scope = BufferScope::Shared;
      b.layout = getFootprintShape(b.map, blockTile);
      b.uniqueShape = b.layout;
    } else {
      b.layout = getShape(input->get());
      b.uniqueShape = getFootprintShape(b.map, nest.extents);
    }
    s.buffers.push_back(b);
  }
  for (OpOperand &init : op.getDpsInitsMutable()) {
    BufferAccess b;
    b.access = op.payloadUsesValueFromOperand(&init) ? AccessKind::ReadWrite
                                                     : AccessKind::Write;
    b.map = op.getMatchingIndexingMap(&init);
    b.elementBytes = getElementBytes(init.get());
    if (sketch.getRegisterAccumulator()) {
      b.scope = BufferScope::Local;
      b.layout = getFootprintShape(b.map, threadTile);
      b.uniqueShape = b.layout;
    } else {
      b.layout = getShape(init.get());
      b.uniqueShape = getFootprintShape(b.map, nest.extents);
    }
    s.buffers.push_back(b);
  }
  return s;
}

Statement KernelBuilder::buildCopy(unsigned operand, int64_t width) {
  Statement s = initStatement();
  s.vthreads = 1;
  // Once per block and staging step.
  for (Level level : getLevelOrder(sketch))
    if (level.index == 0)
      for (unsigned loop = 0; loop < nest.size(); ++loop) {
        ArrayRef<int64_t> levels = config.getLoopTiles(loop);
        if (nest.isReduction[loop] != level.reduction || levels[0] == 1 ||
            (level.reduction &&
             sketch.getKind() == SketchKind::CrossThreadReduction))
          continue;
        StatementLoop l;
        l.trip = levels[0];
        l.reduction = level.reduction;
        l.dim = loop;
        l.step = blockTile[loop];
        l.binding = level.reduction ? LoopBinding::Serial : LoopBinding::Block;
        s.loops.push_back(l);
      }
  s.baseTile = blockTile;

  // The elements of the staged tile: rounds of at most one vector of
  // `width` per thread, as materialized (getCooperativeLoadChunk); when the
  // threads do not divide the tile, fewer threads load in each round.
  OpOperand *input = op.getDpsInputOperand(operand);
  AffineMap map = op.getMatchingIndexingMap(input);
  width = std::max<int64_t>(1, width);
  SmallVector<int64_t> shape = getFootprintShape(map, blockTile);
  int64_t footprint = getFootprint(map, blockTile);
  int64_t chunk = 1;
  for (int64_t extent : getCooperativeLoadChunk(shape, threads, width))
    chunk *= extent;
  int64_t chunks = std::max<int64_t>(1, footprint / chunk);
  int64_t loadingThreads = std::max<int64_t>(1, chunk / width);
  auto addLinear = [&](int64_t trip, int64_t step, LoopPosition position,
                       LoopBinding binding, bool vectorized) {
    if (trip == 1)
      return;
    StatementLoop l;
    l.trip = trip;
    l.step = step;
    l.position = position;
    l.binding = binding;
    l.vectorized = vectorized;
    s.loops.push_back(l);
  };
  addLinear(chunks, chunk, LoopPosition::Middle, LoopBinding::Serial, false);
  addLinear(loadingThreads, width, LoopPosition::Middle, LoopBinding::Thread,
            false);
  addLinear(width, 1, LoopPosition::Inner, LoopBinding::Serial, true);

  BufferAccess source;
  source.access = AccessKind::Read;
  source.map = map;
  source.elementBytes = getElementBytes(input->get());
  source.layout = getShape(input->get());
  source.uniqueShape = getFootprintShape(map, nest.extents);
  BufferAccess target = source;
  target.access = AccessKind::Write;
  target.scope = BufferScope::Shared;
  target.layout = getFootprintShape(map, blockTile);
  target.uniqueShape = target.layout;
  s.buffers = {source, target};
  return s;
}

/// For each loop of an elementwise consumer of `op`, the loop of `op` that
/// computes the same result index; empty when there is no such mapping.
static SmallVector<unsigned> mapConsumerLoops(linalg::LinalgOp op,
                                              linalg::LinalgOp consumer) {
  if (op.getNumDpsInits() != 1 || consumer.getNumDpsInits() != 1 ||
      consumer.getNumReductionLoops() != 0)
    return {};
  AffineMap opMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  AffineMap consumerMap =
      consumer.getMatchingIndexingMap(consumer.getDpsInitOperand(0));
  if (!consumerMap.isPermutation() ||
      consumerMap.getNumResults() != opMap.getNumResults())
    return {};
  SmallVector<unsigned> loops(consumer.getNumLoops());
  for (unsigned r = 0; r < opMap.getNumResults(); ++r) {
    auto opDim = dyn_cast<AffineDimExpr>(opMap.getResult(r));
    if (!opDim)
      return {};
    loops[cast<AffineDimExpr>(consumerMap.getResult(r)).getPosition()] =
        opDim.getPosition();
  }
  return loops;
}

Statement KernelBuilder::buildConsumer(linalg::LinalgOp consumer,
                                 ArrayRef<linalg::LinalgOp> earlier,
                                 bool last) {
  Statement s = initStatement();
  SmallVector<int64_t> extents = consumer.getStaticLoopRanges();
  SmallVector<unsigned> opLoops = mapConsumerLoops(op, consumer);
  SmallVector<int64_t> perThread(extents.size(), 1);
  if (opLoops.empty()) {
    // No per-thread layout to follow: one serial loop per consumer loop.
    s.vthreads = 1;
    for (auto [dim, extent] : llvm::enumerate(extents))
      if (extent > 1) {
        StatementLoop l;
        l.trip = extent;
        l.dim = dim;
        s.loops.push_back(l);
      }
    perThread = extents;
  } else {
    // The op's space levels up to the thread level; the rest of a thread's
    // tile is one vectorized loop per consumer loop.
    unsigned numLevels = sketch.getNumSpaceLevels();
    unsigned threadLevel = getBoundThreadLevel(sketch).value_or(0);
    for (Level level : getLevelOrder(sketch)) {
      if (level.reduction || level.index > threadLevel)
        continue;
      for (auto [dim, opLoop] : llvm::enumerate(opLoops)) {
        ArrayRef<int64_t> levels = config.getLoopTiles(opLoop);
        if (levels[level.index] == 1)
          continue;
        StatementLoop l;
        l.trip = levels[level.index];
        l.position = getPosition(level.index, numLevels);
        l.dim = dim;
        l.step = product(levels.drop_front(level.index + 1));
        if (level.index == 0)
          l.binding = LoopBinding::Block;
        else if (level.index == threadLevel)
          l.binding = LoopBinding::Thread;
        else if (level.index == sketch.getVThreadLevel()) {
          l.binding = LoopBinding::VThread;
          l.unrolled = true;
        }
        s.loops.push_back(l);
      }
    }
    for (auto [dim, opLoop] : llvm::enumerate(opLoops)) {
      ArrayRef<int64_t> levels = config.getLoopTiles(opLoop);
      perThread[dim] = threadTile[opLoop];
      int64_t rest = product(levels.drop_front(threadLevel + 1));
      if (rest == 1)
        continue;
      StatementLoop l;
      l.trip = rest;
      l.position = LoopPosition::Inner;
      l.dim = dim;
      l.vectorized = true;
      s.loops.push_back(l);
    }
  }
  s.baseTile.assign(extents.size(), 1);
  s.opsPerIteration = countOperations(consumer);

  bool registers = sketch.getRegisterAccumulator();
  auto addBuffer = [&](OpOperand *operand, AccessKind access, bool fused) {
    BufferAccess b;
    b.access = access;
    b.map = consumer.getMatchingIndexingMap(operand);
    b.elementBytes = getElementBytes(operand->get());
    b.serialReuse = fused && access == AccessKind::Read;
    if (fused && registers) {
      b.scope = BufferScope::Local;
      b.layout = getFootprintShape(b.map, perThread);
      b.uniqueShape = b.layout;
    } else {
      b.layout = getShape(operand->get());
      b.uniqueShape = getFootprintShape(b.map, extents);
    }
    s.buffers.push_back(b);
  };
  for (OpOperand *input : consumer.getDpsInputOperands()) {
    Operation *producer = input->get().getDefiningOp();
    bool fused = producer == op.getOperation() ||
                 llvm::is_contained(earlier, producer);
    addBuffer(input, AccessKind::Read, fused);
  }
  for (OpOperand &init : consumer.getDpsInitsMutable())
    addBuffer(&init,
              consumer.payloadUsesValueFromOperand(&init)
                  ? AccessKind::ReadWrite
                  : AccessKind::Write,
              /*fused=*/!last);
  return s;
}

FailureOr<KernelStatements>
features::buildStatements(linalg::LinalgOp op,
                          ArrayRef<linalg::LinalgOp> consumers,
                          SketchAttr sketch, ConfigAttr config) {
  FailureOr<LoopNest> nest = LoopNest::get(op);
  if (failed(nest) || !fits(op, *nest, sketch, config))
    return failure();
  for (linalg::LinalgOp consumer : consumers)
    if (llvm::any_of(consumer.getStaticLoopRanges(), ShapedType::isDynamic))
      return failure();

  KernelBuilder builder(op, sketch, config, *nest);
  KernelStatements kernel;
  kernel.compute = builder.buildCompute();
  ArrayRef<int64_t> vector = config.getVector();
  for (auto [i, operand] : llvm::enumerate(sketch.getShared()))
    kernel.copies.push_back(
        builder.buildCopy(operand, i < vector.size() ? vector[i] : 1));
  for (auto [i, consumer] : llvm::enumerate(consumers))
    kernel.consumers.push_back(builder.buildConsumer(
        consumer, consumers.take_front(i), i + 1 == consumers.size()));
  return kernel;
}
