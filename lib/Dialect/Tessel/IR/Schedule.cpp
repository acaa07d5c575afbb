//===- Schedule.cpp - Checking a schedule against the op it annotates -----===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/IR/Schedule.h"
#include "tessel/Dialect/Tessel/IR/TensorCore.h"
#include "tessel/Dialect/Tessel/IR/BoundaryBlocks.h"
#include "tessel/Dialect/Tessel/IR/TileShape.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::tessel;

FailureOr<LoopNest> LoopNest::get(linalg::LinalgOp op) {
  LoopNest nest;
  nest.extents = op.getStaticLoopRanges();
  if (llvm::any_of(nest.extents, ShapedType::isDynamic))
    return failure();
  for (utils::IteratorType type : op.getIteratorTypesArray())
    nest.isReduction.push_back(type == utils::IteratorType::reduction);
  return nest;
}

bool tessel::isVectorizedByMaterialization(linalg::LinalgOp op) {
  return llvm::all_of(op.getIndexingMapsArray(),
                      [](AffineMap map) {
                        return map.isProjectedPermutation();
                      }) &&
         succeeded(linalg::vectorizeOpPrecondition(op));
}

static bool hasStaticShape(Type type) {
  auto shaped = dyn_cast<RankedTensorType>(type);
  return shaped && shaped.hasStaticShape();
}

std::optional<AffineMap> tessel::getElementwiseUseMap(linalg::LinalgOp user,
                                                      Value value) {
  if (!user || user.getNumReductionLoops() != 0 || user->getNumResults() != 1)
    return std::nullopt;
  std::optional<AffineMap> found;
  for (OpOperand &operand : user->getOpOperands()) {
    if (operand.get() != value)
      continue;
    if (found)
      return std::nullopt;
    AffineMap map = user.getMatchingIndexingMap(&operand);
    if (!map.isPermutation())
      return std::nullopt;
    found = map;
  }
  return found;
}

std::optional<AffineMap> tessel::getRowEpilogueUseMap(linalg::LinalgOp op,
                                                      linalg::LinalgOp user) {
  if (!op || !user || op.getNumReductionLoops() != 1 ||
      op->getNumResults() != 1 || !op->getResult(0).hasOneUse() ||
      *op->getResult(0).getUsers().begin() != user.getOperation() ||
      user.getNumReductionLoops() != 0 || user->getNumResults() != 1 ||
      user.getNumDpsInits() != 1 ||
      !user.getMatchingIndexingMap(user.getDpsInitOperand(0)).isPermutation())
    return std::nullopt;
  Value value = op->getResult(0);
  OpOperand *use = &*value.getUses().begin();
  if (!user.isDpsInput(use))
    return std::nullopt;
  AffineMap map = user.getMatchingIndexingMap(use);
  ArrayRef<int64_t> shape = cast<ShapedType>(value.getType()).getShape();
  llvm::SmallBitVector seen(user.getNumLoops());
  for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
    if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
      if (constant.getValue() != 0 || shape[dim] != 1)
        return std::nullopt;
      continue;
    }
    auto loop = dyn_cast<AffineDimExpr>(expr);
    if (!loop || seen.test(loop.getPosition()))
      return std::nullopt;
    seen.set(loop.getPosition());
  }
  if (seen.count() + 1 != user.getNumLoops())
    return std::nullopt;
  unsigned rowLoop = seen.find_first_unset();
  SmallVector<int64_t> userExtents = user.getStaticLoopRanges();
  SmallVector<int64_t> opExtents = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned reduction =
      llvm::find(iterators, utils::IteratorType::reduction) - iterators.begin();
  if (ShapedType::isDynamic(userExtents[rowLoop]) ||
      userExtents[rowLoop] != opExtents[reduction])
    return std::nullopt;
  return map;
}

SmallVector<unsigned> tessel::mapEpilogueLoops(AffineMap useMap,
                                               ArrayRef<unsigned> loopOfDim,
                                               unsigned rowLoop) {
  SmallVector<unsigned> loops(useMap.getNumDims(), rowLoop);
  for (auto [dim, expr] : llvm::enumerate(useMap.getResults()))
    if (auto loop = dyn_cast<AffineDimExpr>(expr))
      loops[loop.getPosition()] = loopOfDim[dim];
  return loops;
}

SmallVector<Operation *> tessel::getFusibleConsumers(linalg::LinalgOp op,
                                                     int64_t maxCount) {
  SmallVector<Operation *> chain;
  if (op->getNumResults() != 1)
    return chain;
  Operation *current = op;
  for (int64_t i = 0; i < maxCount; ++i) {
    Value result = current->getResult(0);
    if (!result.hasOneUse())
      break;
    auto user = dyn_cast<linalg::LinalgOp>(*result.getUsers().begin());
    if (!getElementwiseUseMap(user, result) &&
        !(current == op.getOperation() && getRowEpilogueUseMap(op, user)))
      break;
    // A consumer that also reads the single-use result of another linalg op
    // (the sum of two matmuls) could be claimed by both: it stays a kernel
    // of its own, so that it has one owner wherever it is scheduled.
    if (llvm::any_of(user.getDpsInputOperands(), [&](OpOperand *input) {
          Value other = input->get();
          return other != result && other.hasOneUse() &&
                 other.getDefiningOp<linalg::LinalgOp>();
        }))
      break;
    chain.push_back(user);
    current = user;
  }
  return chain;
}

SmallVector<Operation *> tessel::getEpilogueChain(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInits() != 1 ||
      !op.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>())
    return {};
  return getFusibleConsumers(op, std::numeric_limits<int64_t>::max());
}

bool tessel::isInEpilogueChain(Operation *op) {
  // Walk back through single-use values to the op that would root the
  // chain; a chain only passes through all-parallel linalg ops.
  Operation *current = op;
  for (unsigned depth = 0; depth < 64; ++depth) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(current);
    if (!linalgOp)
      return false;
    Operation *previous = nullptr;
    for (OpOperand *input : linalgOp.getDpsInputOperands()) {
      auto producer = input->get().getDefiningOp<linalg::LinalgOp>();
      if (producer && input->get().hasOneUse() &&
          producer->getNumResults() == 1 &&
          (getElementwiseUseMap(linalgOp, input->get()) ||
           getRowEpilogueUseMap(producer, linalgOp))) {
        previous = producer;
        break;
      }
    }
    if (!previous)
      return false;
    auto root = cast<linalg::LinalgOp>(previous);
    if (root.getNumReductionLoops() != 0)
      return llvm::is_contained(getEpilogueChain(root), op);
    current = previous;
  }
  return false;
}

Operation *tessel::getInlinableProducer(linalg::LinalgOp op, int64_t input) {
  if (input < 0 || input >= op.getNumDpsInputs() ||
      !op.hasPureTensorSemantics())
    return nullptr;
  Value value = op.getDpsInputOperand(input)->get();
  if (!value.hasOneUse() || !hasStaticShape(value.getType()))
    return nullptr;
  if (auto pad = value.getDefiningOp<tensor::PadOp>()) {
    Value padding = pad.getConstantPaddingValue();
    if (!padding || !matchPattern(padding, m_Constant()) ||
        !hasStaticShape(pad.getSourceType()) ||
        llvm::any_of(pad.getStaticLow(), ShapedType::isDynamic) ||
        llvm::any_of(pad.getStaticHigh(), ShapedType::isDynamic))
      return nullptr;
    return pad;
  }
  auto producer = value.getDefiningOp<linalg::LinalgOp>();
  if (!producer || isa<linalg::FillOp>(producer) ||
      !producer.hasPureTensorSemantics() || producer->getNumResults() != 1 ||
      producer.getNumDpsInits() != 1 ||
      producer.getNumLoops() != producer.getNumParallelLoops() ||
      producer->getAttr("tessel.sketch") || isInEpilogueChain(producer))
    return nullptr;
  if (llvm::any_of(producer.getStaticLoopRanges(), ShapedType::isDynamic))
    return nullptr;
  OpOperand *init = producer.getDpsInitOperand(0);
  if (!producer.getMatchingIndexingMap(init).isIdentity() ||
      producer.payloadUsesValueFromOperand(init))
    return nullptr;
  for (OpOperand *operand : producer.getDpsInputOperands()) {
    if (!isa<RankedTensorType>(operand->get().getType()))
      continue;
    if (!hasStaticShape(operand->get().getType()) ||
        !producer.getMatchingIndexingMap(operand).isProjectedPermutation())
      return nullptr;
  }
  return producer;
}

SmallVector<int64_t> tessel::getInlinableInputs(linalg::LinalgOp op) {
  SmallVector<int64_t> inputs;
  for (int64_t i = 0, e = op.getNumDpsInputs(); i < e; ++i)
    if (getInlinableProducer(op, i))
      inputs.push_back(i);
  return inputs;
}

static int64_t productFrom(ArrayRef<int64_t> values, unsigned first) {
  int64_t product = 1;
  for (int64_t v : values.drop_front(first))
    product *= v;
  return product;
}

SmallVector<int64_t> tessel::getBlockTile(SketchAttr sketch, ConfigAttr config,
                                          const LoopNest &nest) {
  return getBlockTile(sketch, getTileVectors(config), nest);
}

int64_t tessel::getThreadsPerBlock(SketchAttr sketch, ConfigAttr config,
                                   const LoopNest &nest) {
  return getThreadsPerBlock(sketch, getTileVectors(config), nest);
}

int64_t tessel::getNumBlocks(SketchAttr sketch, ConfigAttr config,
                             const LoopNest &nest) {
  (void)sketch;
  int64_t blocks = 1;
  for (unsigned loop = 0; loop < nest.size(); ++loop)
    if (!nest.isReduction[loop])
      blocks *= config.getLoopTiles(loop).front();
  return blocks;
}

SmallVector<int64_t> tessel::getBoundaryBlockThreads(int64_t extent) {
  constexpr int64_t kMinThreads = 32;
  if (extent <= kMaxThreadsPerBlock)
    return {};
  for (int64_t d = kMinThreads; d <= kMaxThreadsPerBlock; ++d)
    if (extent % d == 0)
      return {};
  SmallVector<int64_t> threads;
  for (int64_t t = kMinThreads; t <= kMaxThreadsPerBlock; t *= 2)
    threads.push_back(t);
  return threads;
}

SmallVector<int64_t> tessel::getFootprintShape(AffineMap map,
                                               ArrayRef<int64_t> tile) {
  return FootprintFunction(map).getShape(tile);
}

int64_t tessel::getFootprint(AffineMap map, ArrayRef<int64_t> tile) {
  return FootprintFunction(map).getElements(tile);
}

/// The `pad` of `config`: one entry per staged operand, on the promoted
/// (not inlined) tiles of a multi_level_tiling sketch, each a multiple of
/// the operand's vector width (rows stay aligned for vector copies).
static LogicalResult
verifySharedPadding(SketchAttr sketch, ConfigAttr config,
                    function_ref<InFlightDiagnostic()> emitError) {
  ArrayRef<int64_t> pad = config.getPad();
  if (pad.empty())
    return success();
  ArrayRef<int64_t> shared = sketch.getShared();
  if (sketch.getKind() != SketchKind::MultiLevelTiling &&
      sketch.getKind() != SketchKind::TensorCore)
    return emitError() << "pad applies to the shared tiles of a "
                          "multi_level_tiling or tensor_core sketch, not "
                       << stringifySketchKind(sketch.getKind());
  if (pad.size() != shared.size())
    return emitError() << "config pads " << pad.size()
                       << " shared tiles but the sketch stages "
                       << shared.size() << " operands";
  ArrayRef<int64_t> vector = config.getVector();
  for (auto [index, operand] : llvm::enumerate(shared)) {
    int64_t elements = pad[index];
    if (elements == 0)
      continue;
    if (llvm::is_contained(sketch.getInlined(), operand))
      return emitError() << "pad " << elements << " of operand " << operand
                         << ": the tile of an inlined producer is not padded";
    int64_t width = vector.empty() ? 1 : vector[index];
    if (elements % width != 0)
      return emitError() << "pad " << elements << " of operand " << operand
                         << " is not a multiple of its vector width " << width;
  }
  return success();
}

LogicalResult
tessel::verifySchedule(linalg::LinalgOp op, SketchAttr sketch,
                       ConfigAttr config,
                       function_ref<InFlightDiagnostic()> emitError) {
  FailureOr<LoopNest> maybeNest = LoopNest::get(op);
  if (failed(maybeNest)) {
    for (auto [loop, extent] : llvm::enumerate(op.getStaticLoopRanges()))
      if (ShapedType::isDynamic(extent))
        return emitError() << "cannot schedule an op with dynamic shapes: "
                              "loop "
                           << loop << " has a dynamic extent";
    return emitError() << "cannot schedule an op with dynamic shapes";
  }
  const LoopNest &nest = *maybeNest;
  int64_t numInputs = op.getNumDpsInputs();
  for (int64_t operand : sketch.getShared())
    if (operand >= numInputs)
      return emitError() << "shared operand " << operand
                         << " does not exist: the op has " << numInputs
                         << " input" << (numInputs == 1 ? "" : "s");
  for (int64_t operand : sketch.getInlined())
    if (operand >= numInputs)
      return emitError() << "inlined operand " << operand
                         << " does not exist: the op has " << numInputs
                         << " input" << (numInputs == 1 ? "" : "s");
  bool hasReduction = llvm::is_contained(nest.isReduction, true);
  if (sketch.getKind() == SketchKind::CrossThreadReduction && !hasReduction)
    return emitError() << "cross_thread_reduction needs an op with a "
                          "reduction loop";
  if (sketch.getKind() == SketchKind::CrossThreadReduction) {
    std::string blocker =
        getCrossThreadReductionBlocker(op, sketch.getFusedConsumers());
    if (!blocker.empty())
      return emitError() << blocker;
  }
  if (!llvm::is_contained(nest.isReduction, false))
    return emitError() << "cannot schedule an op without a parallel loop";
  if (sketch.getKind() == SketchKind::TwoLevelInjective && hasReduction)
    return emitError() << "two_level_injective cannot schedule an op with a "
                          "reduction loop";
  bool tensorCore = sketch.getKind() == SketchKind::TensorCore;
  if (tensorCore) {
    std::string blocker = getTensorCoreBlocker(op);
    if (!blocker.empty())
      return emitError() << blocker;
  }
  if (!config)
    return success();

  if (config.getNumLoops() != nest.size())
    return emitError() << "config describes " << config.getNumLoops()
                       << " loops but the op has " << nest.size();
  for (unsigned loop = 0; loop < nest.size(); ++loop) {
    ArrayRef<int64_t> levels = config.getLoopTiles(loop);
    bool reduction = nest.isReduction[loop];
    unsigned expected = reduction ? sketch.getNumReductionLevels()
                                  : sketch.getNumSpaceLevels();
    if (levels.size() != expected)
      return emitError() << "loop " << loop << " ("
                         << (reduction ? "reduction" : "space") << ") has "
                         << levels.size() << " tile sizes; the sketch \""
                         << sketch.getStructure() << "\" has " << expected
                         << (reduction ? " reduction" : " space") << " levels";
    int64_t product = productFrom(levels, 0);
    if (product == nest.extents[loop])
      continue;
    // An injective op may cover a loop with boundary blocks: the outer
    // level is the block count ceil(extent / block tile), and the threads
    // past the extent idle.
    int64_t blockTile = productFrom(levels, 1);
    int64_t covering = llvm::divideCeilSigned(nest.extents[loop], blockTile);
    if (sketch.getKind() == SketchKind::TwoLevelInjective &&
        levels.front() == covering)
      continue;
    if (sketch.getKind() == SketchKind::TwoLevelInjective)
      return emitError() << "tile sizes of loop " << loop << " multiply to "
                         << product << ": the loop extent " << nest.extents[loop]
                         << " needs " << covering << " blocks of "
                         << blockTile << ", not " << levels.front();
    return emitError() << "tile sizes of loop " << loop << " multiply to "
                       << product << ", not to the loop extent "
                       << nest.extents[loop];
  }
  if (tensorCore) {
    for (auto [loop, mma] : llvm::enumerate(getMmaLevelExtents(op)))
      if (config.getLoopTiles(loop).back() != mma)
        return emitError() << "the innermost tile of loop " << loop
                           << " is one mma.sync instruction: " << mma
                           << ", not " << config.getLoopTiles(loop).back();
  }
  if (int64_t stages = config.getStages(); stages > 1) {
    if ((sketch.getKind() != SketchKind::MultiLevelTiling && !tensorCore) ||
        sketch.getShared().empty())
      return emitError() << "stages " << stages
                         << " pipelines a shared-memory staging loop; the "
                            "sketch stages no operand";
    SmallVector<unsigned> stagingLoops =
        getMultiStepStagingLoops(getTileVectors(config), nest);
    if (stagingLoops.size() != 1)
      return emitError() << "stages " << stages
                         << " pipelines one staging loop; the config has "
                         << stagingLoops.size();
    int64_t trips = config.getLoopTiles(stagingLoops.front()).front();
    if (trips < stages)
      return emitError() << "stages " << stages << " exceed the "
                         << trips << " steps of the staging loop (loop "
                         << stagingLoops.front() << ")";
  }
  int64_t threads = getThreadsPerBlock(sketch, config, nest);
  if (threads > kMaxThreadsPerBlock)
    return emitError() << "config uses " << threads
                       << " threads per block; at most " << kMaxThreadsPerBlock
                       << " are allowed";

  ArrayRef<int64_t> vector = config.getVector();
  if (!vector.empty() && vector.size() != sketch.getShared().size())
    return emitError() << "config has " << vector.size()
                       << " vector widths but the sketch stages "
                       << sketch.getShared().size() << " operands";
  SmallVector<int64_t> blockTile = getBlockTile(sketch, config, nest);
  for (auto [operand, width] : llvm::zip(sketch.getShared(), vector)) {
    OpOperand *opOperand = op.getDpsInputOperand(operand);
    Type elementType = getElementTypeOrSelf(opOperand->get().getType());
    int64_t bytes = width * elementType.getIntOrFloatBitWidth() / 8;
    if (bytes > kMaxVectorBytes)
      return emitError() << "vector width " << width << " of operand "
                         << operand << " loads " << bytes
                         << " bytes; at most " << kMaxVectorBytes
                         << " are allowed";
    AffineMap map = op.getMatchingIndexingMap(opOperand);
    SmallVector<int64_t> shape = getFootprintShape(map, blockTile);
    if (!shape.empty() && shape.back() % width != 0)
      return emitError() << "vector width " << width
                         << " does not divide the innermost extent "
                         << shape.back() << " of the shared tile of operand "
                         << operand;
  }
  return verifySharedPadding(sketch, config, emitError);
}
