//===- Bridge.cpp - ETO's bridge operators (Definition 5) -----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Eto/Bridge.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <memory>

using namespace mlir;
using namespace mlir::tessel;

/// The attribute where named linalg ops cache their indexing maps; stale
/// once the strides change.
static constexpr llvm::StringLiteral kMemoizedMapsAttrName =
    "linalg.memoized_indexing_maps";

ExtentOrder tessel::compareExtents(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  if (a.size() != b.size())
    return ExtentOrder::Mismatched;
  bool smaller = false, larger = false;
  for (auto [x, y] : llvm::zip_equal(a, b)) {
    smaller |= x < y;
    larger |= x > y;
  }
  if (smaller && larger)
    return ExtentOrder::Incomparable;
  if (smaller)
    return ExtentOrder::Smaller;
  if (larger)
    return ExtentOrder::Larger;
  return ExtentOrder::Equal;
}

SmallVector<int64_t> tessel::getLoopExtents(const TuningTask &task) {
  linalg::LinalgOp op = task.getTargetOp();
  if (!op)
    return {};
  return op.getStaticLoopRanges();
}

/// The sketch without its fused consumers and inlined producers.
static SketchAttr stripSketch(SketchAttr sketch) {
  return SketchAttr::get(sketch.getContext(), sketch.getKind(),
                         sketch.getStructure(), sketch.getShared(),
                         sketch.getRegisterAccumulator(),
                         /*fusedConsumers=*/0);
}

bool tessel::haveSameSketchStructure(ArrayRef<SketchAttr> a,
                                     ArrayRef<SketchAttr> b) {
  llvm::DenseSet<Attribute> left, right;
  for (SketchAttr sketch : a)
    left.insert(stripSketch(sketch));
  for (SketchAttr sketch : b)
    right.insert(stripSketch(sketch));
  return left == right;
}

//===----------------------------------------------------------------------===//
// Which ops
//===----------------------------------------------------------------------===//

static std::string getOpName(Operation *op) {
  return op->getName().getStringRef().str();
}

/// Whether the op is one of the named ops bridges are made of.
static bool isBridgeKind(Operation *op) {
  StringRef name = op->getName().getStringRef();
  return name == "linalg.matmul" || name == "linalg.batch_matmul" ||
         name.starts_with("linalg.conv_") ||
         name.starts_with("linalg.depthwise_conv_") ||
         name.starts_with("linalg.pooling_");
}

/// Whether `name` is an attribute that bridges reset or drop.
static bool isDefaultedAttr(StringRef name) {
  return name == "strides" || name == "dilations" ||
         name == kMemoizedMapsAttrName || name.starts_with("tessel.");
}

/// The largest value of `expr` over the loop box [0, extents), for
/// expressions that grow with every dimension (sums of dimensions times
/// non-negative constants, plus non-negative constants); none otherwise.
static std::optional<int64_t> getLargestIndex(AffineExpr expr,
                                              ArrayRef<int64_t> extents) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return extents[dim.getPosition()] - 1;
  if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
    if (constant.getValue() < 0)
      return std::nullopt;
    return constant.getValue();
  }
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return std::nullopt;
  if (binary.getKind() == AffineExprKind::Add) {
    std::optional<int64_t> lhs = getLargestIndex(binary.getLHS(), extents);
    std::optional<int64_t> rhs = getLargestIndex(binary.getRHS(), extents);
    if (!lhs || !rhs)
      return std::nullopt;
    return *lhs + *rhs;
  }
  if (binary.getKind() == AffineExprKind::Mul) {
    auto factor = dyn_cast<AffineConstantExpr>(binary.getRHS());
    std::optional<int64_t> lhs = getLargestIndex(binary.getLHS(), extents);
    if (!factor || factor.getValue() < 0 || !lhs)
      return std::nullopt;
    return *lhs * factor.getValue();
  }
  return std::nullopt;
}

/// A detached clone of `op` with unit strides and dilations, its cached maps
/// and Tessel's attributes dropped.
static OwningOpRef<Operation *> cloneWithDefaults(linalg::LinalgOp op) {
  OwningOpRef<Operation *> clone(op->clone());
  for (NamedAttribute attr : llvm::to_vector(clone->getAttrs())) {
    StringRef name = attr.getName().getValue();
    if (name == "strides" || name == "dilations") {
      if (auto values = dyn_cast<DenseIntElementsAttr>(attr.getValue())) {
        clone->setAttr(
            attr.getName(),
            DenseIntElementsAttr::get(
                values.getType(),
                APInt(values.getElementType().getIntOrFloatBitWidth(), 1)));
        continue;
      }
    }
    if (isDefaultedAttr(name) && name != "strides" && name != "dilations")
      clone->removeAttr(attr.getName());
  }
  return clone;
}

llvm::Error tessel::checkBridgeable(linalg::LinalgOp op) {
  std::string name = getOpName(op);
  auto fail = [&](const Twine &why) {
    return llvm::createStringError("cannot build bridges of '" + name +
                                   "': " + why.str());
  };
  if (!isBridgeKind(op))
    return fail("bridges support linalg.matmul, linalg.batch_matmul and the "
                "named convolution (conv_*, depthwise_conv_*) and pooling "
                "(pooling_*) ops");
  if (!op.hasPureTensorSemantics())
    return fail("it works on buffers, not tensors");
  if (op.getNumDpsInits() != 1 || op->getNumResults() != 1)
    return fail("it has " + Twine(op.getNumDpsInits()) +
                " inits, bridges need one");
  if (llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic))
    return fail("its loop extents are dynamic");
  for (OpOperand &operand : op->getOpOperands())
    if (!isa<RankedTensorType>(operand.get().getType()))
      return fail("operand " + Twine(operand.getOperandNumber()) +
                  " is not a ranked tensor");
  OwningOpRef<Operation *> clone = cloneWithDefaults(op);
  SmallVector<int64_t> ones(op.getNumLoops(), 1);
  for (AffineMap map : cast<linalg::LinalgOp>(*clone).getIndexingMapsArray())
    for (AffineExpr expr : map.getResults())
      if (!getLargestIndex(expr, ones))
        return fail("an indexing map is not a sum of loop dimensions with "
                    "unit strides");
  return llvm::Error::success();
}

/// What two ops must share to be bridged: the op, the operands' element
/// types and ranks, and every attribute that bridges keep.
static std::string getBridgeSignature(linalg::LinalgOp op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op->getName().getStringRef();
  for (Type type : op->getOperandTypes()) {
    auto shaped = cast<ShapedType>(type);
    os << " " << shaped.getRank() << "x" << shaped.getElementType();
  }
  for (NamedAttribute attr : op->getAttrs())
    if (!isDefaultedAttr(attr.getName().getValue()))
      os << " " << attr.getName().getValue() << "=" << attr.getValue();
  return text;
}

//===----------------------------------------------------------------------===//
// Building
//===----------------------------------------------------------------------===//

llvm::Expected<TuningTask>
tessel::buildTaskWithExtents(linalg::LinalgOp like, ArrayRef<int64_t> extents,
                             MLIRContext *context,
                             const TaskExtractionOptions &options) {
  if (llvm::Error error = checkBridgeable(like))
    return std::move(error);
  std::string name = getOpName(like);
  if (static_cast<int64_t>(extents.size()) != like.getNumLoops())
    return llvm::createStringError(
        "'" + name + "' has " + std::to_string(like.getNumLoops()) +
        " loops, " + std::to_string(extents.size()) + " extents given");
  if (llvm::any_of(extents, [](int64_t extent) { return extent < 1; }))
    return llvm::createStringError("loop extents of '" + name +
                                   "' must be at least 1");

  OwningOpRef<Operation *> clone = cloneWithDefaults(like);
  auto cloneOp = cast<linalg::LinalgOp>(*clone);
  SmallVector<RankedTensorType> types;
  for (auto [operand, map] : llvm::zip_equal(cloneOp->getOpOperands(),
                                             cloneOp.getIndexingMapsArray())) {
    auto type = cast<RankedTensorType>(operand.get().getType());
    SmallVector<int64_t> shape;
    for (AffineExpr expr : map.getResults())
      shape.push_back(*getLargestIndex(expr, extents) + 1);
    types.push_back(RankedTensorType::get(shape, type.getElementType()));
  }

  Location loc = UnknownLoc::get(context);
  OpBuilder builder(context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());
  SmallVector<Type> argumentTypes(types.begin(), types.end() - 1);
  RankedTensorType resultType = types.back();
  auto func = func::FuncOp::create(
      builder, loc, kTaskFunctionName,
      builder.getFunctionType(argumentTypes, {resultType}));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToEnd(entry);
  Type element = resultType.getElementType();
  Value zero = arith::ConstantOp::create(
      builder, loc, cast<TypedAttr>(builder.getZeroAttr(element)));
  Value empty =
      tensor::EmptyOp::create(builder, loc, resultType.getShape(), element);
  Value init = linalg::FillOp::create(builder, loc, zero, empty).getResult(0);
  SmallVector<Value> operands(entry->getArguments());
  operands.push_back(init);
  clone->setOperands(operands);
  clone->getResult(0).setType(resultType);
  Operation *target = builder.insert(clone.release());
  func::ReturnOp::create(builder, loc, target->getResults());

  if (failed(verify(*module)))
    return llvm::createStringError("the module of the '" + name +
                                   "' bridge does not verify");
  if (cast<linalg::LinalgOp>(target).getStaticLoopRanges() !=
      SmallVector<int64_t>(extents))
    return llvm::createStringError("the built '" + name +
                                   "' has other loop extents than asked");

  llvm::Expected<std::vector<TuningTask>> tasks =
      extractTasks(*module, context, options);
  if (!tasks)
    return tasks.takeError();
  if (tasks->size() != 1)
    return llvm::createStringError("the module of the '" + name +
                                   "' bridge gave " +
                                   std::to_string(tasks->size()) + " tasks");
  TuningTask task = std::move(tasks->front());
  task.weight = 0;
  return std::move(task);
}

llvm::Expected<TuningTask>
tessel::buildBridge(const TuningTask &alpha, const TuningTask &beta,
                    MLIRContext *context,
                    const TaskExtractionOptions &options) {
  linalg::LinalgOp alphaOp = alpha.getTargetOp();
  linalg::LinalgOp betaOp = beta.getTargetOp();
  if (!alphaOp || !betaOp)
    return llvm::createStringError("a task without a target op");
  if (getBridgeSignature(alphaOp) != getBridgeSignature(betaOp))
    return llvm::createStringError(
        "no bridge between '" + getOpName(alphaOp) + "' and '" +
        getOpName(betaOp) +
        "': they differ in op, element types or attributes");
  SmallVector<int64_t> extents = alphaOp.getStaticLoopRanges();
  for (auto [extent, other] :
       llvm::zip_equal(extents, betaOp.getStaticLoopRanges()))
    extent = std::min(extent, other);
  return buildTaskWithExtents(alphaOp, extents, context, options);
}

llvm::Expected<std::vector<BridgeTask>>
tessel::findOneHopBridges(ArrayRef<TuningTask> tasks, MLIRContext *context,
                          const BridgeOptions &options) {
  std::vector<const TuningTask *> pointers;
  for (const TuningTask &task : tasks)
    pointers.push_back(&task);
  return findOneHopBridges(pointers, context, options);
}

llvm::Expected<std::vector<BridgeTask>>
tessel::findOneHopBridges(ArrayRef<const TuningTask *> tasks,
                          MLIRContext *context, const BridgeOptions &options) {
  // Tasks that can be bridged, their signatures and extents; the keys that
  // a bridge must not repeat.
  std::vector<std::string> signatures(tasks.size());
  std::vector<SmallVector<int64_t>> extents(tasks.size());
  llvm::StringSet<> known;
  for (auto [index, task] : llvm::enumerate(tasks)) {
    known.insert(task->workloadKey);
    linalg::LinalgOp op = task->getTargetOp();
    if (!op)
      continue;
    if (llvm::Error error = checkBridgeable(op)) {
      llvm::consumeError(std::move(error));
      continue;
    }
    signatures[index] = getBridgeSignature(op);
    extents[index] = op.getStaticLoopRanges();
    llvm::Expected<TuningTask> plain =
        buildTaskWithExtents(op, extents[index], context, options.extraction);
    if (!plain)
      return plain.takeError();
    known.insert(plain->workloadKey);
  }

  std::vector<BridgeTask> bridges;
  // Bridges built so far by (signature, extents): accepted or repeating a
  // key (null), or kept aside because their sketches differed from the
  // pair's that made them (a later pair of the same kind may match).
  std::map<std::pair<std::string, SmallVector<int64_t>>,
           std::unique_ptr<TuningTask>>
      built;
  for (size_t alpha = 0; alpha < tasks.size(); ++alpha) {
    for (size_t beta = alpha + 1; beta < tasks.size(); ++beta) {
      if (signatures[alpha].empty() || signatures[alpha] != signatures[beta] ||
          compareExtents(extents[alpha], extents[beta]) !=
              ExtentOrder::Incomparable)
        continue;
      if (options.requireSameSketches &&
          !haveSameSketchStructure(tasks[alpha]->sketches,
                                   tasks[beta]->sketches))
        continue;
      SmallVector<int64_t> minimum = extents[alpha];
      for (auto [extent, other] : llvm::zip_equal(minimum, extents[beta]))
        extent = std::min(extent, other);
      auto [it, inserted] = built.try_emplace({signatures[alpha], minimum});
      if (inserted) {
        llvm::Expected<TuningTask> bridge = buildTaskWithExtents(
            tasks[alpha]->getTargetOp(), minimum, context, options.extraction);
        if (!bridge)
          return bridge.takeError();
        if (!known.insert(bridge->workloadKey).second)
          continue;
        it->second = std::make_unique<TuningTask>(std::move(*bridge));
      }
      if (!it->second)
        continue;
      if (options.requireSameSketches &&
          !haveSameSketchStructure(it->second->sketches,
                                   tasks[alpha]->sketches))
        continue;
      bridges.push_back({std::move(*it->second), alpha, beta});
      it->second.reset();
    }
  }
  return std::move(bridges);
}
