//===- Task.cpp - Tuning tasks extracted from a model ---------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Search/Task.h"
#include "tessel/Dialect/Tessel/Transforms/Fusion.h"
#include "tessel/Dialect/Tessel/IR/Schedule.h"
#include "tessel/Dialect/Tessel/IR/TesselDialect.h"
#include "tessel/Dialect/Tessel/Transforms/KernelFacts.h"
#include "tessel/Dialect/Tessel/Transforms/FusionAnalysis.h"
#include "tessel/Tuning/Search/SketchRules.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>

using namespace mlir;
using namespace mlir::tessel;

//===----------------------------------------------------------------------===//
// Workload keys
//===----------------------------------------------------------------------===//

/// Whether `value` is defined by a constant-like op (scalar constants that
/// bodies and fills capture).
static bool isConstant(Value value) {
  Operation *def = value.getDefiningOp();
  return def && def->hasTrait<OpTrait::ConstantLike>() &&
         def->getNumOperands() == 0 && def->getNumRegions() == 0;
}

StringRef tessel::stringifyTaskEquality(TaskEquality equality) {
  switch (equality) {
  case TaskEquality::Structural:
    return "structural";
  case TaskEquality::IgnoreFloatConstants:
    return "ignore-float-constants";
  }
  llvm_unreachable("unknown TaskEquality");
}

std::optional<TaskEquality> tessel::parseTaskEquality(StringRef name) {
  for (TaskEquality equality :
       {TaskEquality::Structural, TaskEquality::IgnoreFloatConstants})
    if (name == stringifyTaskEquality(equality))
      return equality;
  return std::nullopt;
}

/// Whether `attr`, the value of a constant, is left out of keys under
/// `equality`: a floating-point scalar or tensor under IgnoreFloatConstants.
static bool isIgnoredConstantValue(Attribute attr, TaskEquality equality) {
  if (equality != TaskEquality::IgnoreFloatConstants)
    return false;
  if (isa_and_nonnull<FloatAttr>(attr))
    return true;
  auto elements = dyn_cast_or_null<ElementsAttr>(attr);
  return elements && isa<FloatType>(elements.getElementType());
}

static void printConstant(Value value, TaskEquality equality, raw_ostream &os) {
  Operation *def = value.getDefiningOp();
  // The value attribute of arith.constant and the like carries its type.
  Attribute attr = def->getAttr("value");
  if (isIgnoredConstantValue(attr, equality)) {
    os << "cst:" << value.getType();
    return;
  }
  if (isa_and_nonnull<TypedAttr>(attr)) {
    attr.print(os);
    return;
  }
  def->getAttrDictionary().print(os);
  os << ":" << value.getType();
}

/// Prints the ops of `region` with values numbered by position: block
/// arguments `%aN`, results `%rN`, constants captured from above by value,
/// other captured values `%extN`.
static void printBody(Region &region, TaskEquality equality, raw_ostream &os,
                      DenseMap<Value, std::string> &names, int64_t &next) {
  for (Block &block : region) {
    os << "^(";
    llvm::interleaveComma(block.getArguments(), os, [&](BlockArgument arg) {
      std::string name = "%a" + std::to_string(next++);
      names[arg] = name;
      os << name << ":" << arg.getType();
    });
    os << ")";
    for (Operation &inner : block) {
      os << " ";
      for (Value result : inner.getResults())
        names[result] = "%r" + std::to_string(next++);
      llvm::interleaveComma(inner.getResults(), os,
                            [&](Value result) { os << names[result]; });
      if (inner.getNumResults())
        os << "=";
      os << inner.getName().getStringRef() << "(";
      llvm::interleaveComma(inner.getOperands(), os, [&](Value operand) {
        auto it = names.find(operand);
        if (it != names.end())
          os << it->second;
        else if (isConstant(operand))
          printConstant(operand, equality, os);
        else
          os << "%ext:" << operand.getType();
      });
      os << ")";
      if (inner.hasTrait<OpTrait::ConstantLike>() &&
          isIgnoredConstantValue(inner.getAttr("value"), equality))
        os << "{cst}";
      else if (!inner.getAttrDictionary().empty())
        inner.getAttrDictionary().print(os);
      if (inner.getNumResults()) {
        os << ":";
        llvm::interleaveComma(inner.getResultTypes(), os);
      }
      for (Region &nested : inner.getRegions()) {
        os << "{";
        printBody(nested, equality, os, names, next);
        os << "}";
      }
      os << ";";
    }
  }
}

/// How the task module gets the init `value` of a target op.
static void printInit(Value value, TaskEquality equality, raw_ostream &os) {
  if (auto fill = value.getDefiningOp<linalg::FillOp>()) {
    os << "fill(";
    Value scalar = fill.getInputs()[0];
    if (isConstant(scalar))
      printConstant(scalar, equality, os);
    else
      os << "arg";
    os << ")";
    return;
  }
  if (value.getDefiningOp<tensor::EmptyOp>()) {
    os << "empty";
    return;
  }
  os << "arg";
}

/// Attributes that decide what an op computes besides its maps, iterators
/// and body: strides, dilations, casts. Tessel's own are left out.
static void printAttributes(Operation *op, raw_ostream &os) {
  os << "{";
  bool first = true;
  for (NamedAttribute attr : op->getAttrDictionary()) {
    StringRef name = attr.getName().getValue();
    if (name == "indexing_maps" || name == "iterator_types" ||
        name == "operandSegmentSizes" ||
        name == "linalg.memoized_indexing_maps" || name.starts_with("tessel."))
      continue;
    if (!first)
      os << ",";
    first = false;
    os << name << "=";
    attr.getValue().print(os);
  }
  os << "}";
}

/// The key of one op. `chained` is the value the op reads from the previous
/// op of a fused chain (null for the target op).
static void printOpKey(linalg::LinalgOp op, Value chained,
                       TaskEquality equality, raw_ostream &os) {
  os << op->getName().getStringRef() << " ins(";
  llvm::interleaveComma(op.getDpsInputOperands(), os, [&](OpOperand *input) {
    if (chained && input->get() == chained)
      os << "chain:";
    os << input->get().getType();
  });
  os << ") outs(";
  llvm::interleaveComma(op.getDpsInitsMutable(), os, [&](OpOperand &init) {
    printInit(init.get(), equality, os);
    os << ":" << init.get().getType();
  });
  os << ") maps[";
  llvm::interleaveComma(op.getIndexingMapsArray(), os,
                        [&](AffineMap map) { map.print(os); });
  os << "] iters[";
  llvm::interleaveComma(op.getIteratorTypesArray(), os,
                        [&](utils::IteratorType type) {
                          os << utils::stringifyIteratorType(type);
                        });
  os << "] attrs";
  printAttributes(op, os);
  if (isa<linalg::GenericOp>(op)) {
    DenseMap<Value, std::string> names;
    int64_t next = 0;
    os << " body{";
    printBody(op->getRegion(0), equality, os, names, next);
    os << "}";
  }
}

/// The key of an inlined producer: the linalg key, or for a pad its source,
/// result, padding and value.
static void printProducerKey(Operation *producer, TaskEquality equality,
                             raw_ostream &os) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(producer)) {
    printOpKey(linalgOp, Value(), equality, os);
    return;
  }
  auto pad = cast<tensor::PadOp>(producer);
  os << pad->getName().getStringRef() << " " << pad.getSourceType() << " -> "
     << pad.getResultType() << " low[";
  llvm::interleaveComma(pad.getStaticLow(), os);
  os << "] high[";
  llvm::interleaveComma(pad.getStaticHigh(), os);
  os << "] value(";
  printConstant(pad.getConstantPaddingValue(), equality, os);
  os << ")";
}

std::string tessel::getWorkloadKey(linalg::LinalgOp op,
                                   ArrayRef<Operation *> consumers,
                                   ArrayRef<int64_t> inlinedInputs,
                                   TaskEquality equality) {
  std::string key;
  llvm::raw_string_ostream os(key);
  printOpKey(op, Value(), equality, os);
  for (int64_t input : inlinedInputs) {
    os << " | inlined " << input << " ";
    printProducerKey(op.getDpsInputOperand(input)->get().getDefiningOp(),
                     equality, os);
  }
  Value chained = op->getNumResults() ? op->getResult(0) : Value();
  for (Operation *consumer : consumers) {
    os << " | fused ";
    printOpKey(cast<linalg::LinalgOp>(consumer), chained, equality, os);
    chained = consumer->getResult(0);
  }
  return key;
}

//===----------------------------------------------------------------------===//
// Descriptions
//===----------------------------------------------------------------------===//

static void printShape(Type type, raw_ostream &os) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped) {
    os << type;
    return;
  }
  if (shaped.getRank() == 0)
    os << "scalar";
  llvm::interleave(shaped.getShape(), os, "x");
}

/// "s1", "s2", or "s1x2" for the strides or dilations attribute `name`.
static void printWindowAttr(Operation *op, StringRef name, StringRef prefix,
                            int64_t skipValue, raw_ostream &os) {
  auto attr = op->getAttrOfType<DenseIntElementsAttr>(name);
  if (!attr)
    return;
  SmallVector<int64_t> values;
  for (const APInt &v : attr.getValues<APInt>())
    values.push_back(v.getSExtValue());
  if (values.empty())
    return;
  bool uniform = llvm::all_equal(values);
  if (uniform && values.front() == skipValue)
    return;
  os << " " << prefix;
  if (uniform)
    os << values.front();
  else
    llvm::interleave(values, os, "x");
}

static std::string describeOp(linalg::LinalgOp op, int64_t fusedConsumers,
                              ArrayRef<int64_t> inlinedInputs) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op->getName().stripDialect() << " ";
  llvm::interleave(
      op.getDpsInputOperands(), os,
      [&](OpOperand *input) { printShape(input->get().getType(), os); },
      " * ");
  if (isa<linalg::GenericOp>(op)) {
    os << " -> ";
    llvm::interleave(
        op.getDpsInitsMutable(), os,
        [&](OpOperand &init) { printShape(init.get().getType(), os); }, ", ");
    os << " [";
    for (utils::IteratorType type : op.getIteratorTypesArray())
      os << (type == utils::IteratorType::parallel ? "p" : "r");
    os << "]";
  }
  printWindowAttr(op, "strides", "s", /*skipValue=*/-1, os);
  printWindowAttr(op, "dilations", "d", /*skipValue=*/1, os);
  Type element = getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
  os << " " << element;
  if (fusedConsumers)
    os << " +" << fusedConsumers << " fused";
  for (int64_t input : inlinedInputs) {
    Operation *producer = op.getDpsInputOperand(input)->get().getDefiningOp();
    os << " +" << producer->getName().stripDialect() << " inlined";
  }
  return text;
}

//===----------------------------------------------------------------------===//
// Standalone modules
//===----------------------------------------------------------------------===//

namespace {
/// Builds `func.func @main` around an op and its fused consumers.
class TaskModuleBuilder {
public:
  TaskModuleBuilder(MLIRContext *context, Location loc)
      : builder(context), loc(loc) {}

  /// Builds the module; fails when the module does not verify.
  FailureOr<OwningOpRef<ModuleOp>> build(linalg::LinalgOp op,
                                         ArrayRef<Operation *> consumers,
                                         ArrayRef<int64_t> inlinedInputs);

private:
  /// A value of the function for `value`: a clone of a scalar constant, or
  /// a new argument.
  Value getCaptured(Value value);
  Value addArgument(Type type);
  Value createEmpty(Type type);
  /// Clones `op`, its captured values mapped, and sets every operand: the
  /// chained value where `op` reads `chained`, inits from `getInit`, the
  /// other inputs new arguments.
  Operation *cloneWithOperands(linalg::LinalgOp op, Value chained,
                               Value chainedClone, bool isTarget);
  /// Clones the inlined producer `producer` (a linalg op or a tensor.pad)
  /// on new arguments; returns its result.
  Value cloneProducer(Operation *producer);

  OpBuilder builder;
  Location loc;
  func::FuncOp func;
  Block *entry = nullptr;
  /// Where constants go: the start of the entry block.
  OpBuilder::InsertPoint constantsEnd;
  DenseMap<Value, Value> constants;
  /// Inputs of the target op that clones of inlined producers compute.
  DenseMap<Value, Value> produced;
};
} // namespace

Value TaskModuleBuilder::addArgument(Type type) {
  return entry->addArgument(type, loc);
}

Value TaskModuleBuilder::getCaptured(Value value) {
  if (!isConstant(value))
    return addArgument(value.getType());
  auto it = constants.find(value);
  if (it != constants.end())
    return it->second;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(entry);
  Value clone = builder.clone(*value.getDefiningOp())->getResult(0);
  constants[value] = clone;
  return clone;
}

Value TaskModuleBuilder::createEmpty(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  return tensor::EmptyOp::create(builder, loc, tensor.getShape(),
                                 tensor.getElementType(), tensor.getEncoding());
}

Operation *TaskModuleBuilder::cloneWithOperands(linalg::LinalgOp op,
                                                Value chained,
                                                Value chainedClone,
                                                bool isTarget) {
  // Values the body captures (such as scalar constants).
  IRMapping mapping;
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(op->getRegions(), captured);
  for (Value value : captured)
    mapping.map(value, getCaptured(value));

  SmallVector<Value> operands;
  for (OpOperand *input : op.getDpsInputOperands()) {
    Value value = input->get();
    if (chained && value == chained)
      operands.push_back(chainedClone);
    else if (Value clone = isTarget ? produced.lookup(value) : Value())
      operands.push_back(clone);
    else if (isa<ShapedType>(value.getType()))
      operands.push_back(addArgument(value.getType()));
    else
      operands.push_back(getCaptured(value));
  }
  for (OpOperand &init : op.getDpsInitsMutable()) {
    Value value = init.get();
    if (auto fill = value.getDefiningOp<linalg::FillOp>(); fill && isTarget) {
      Value scalar = getCaptured(fill.getInputs()[0]);
      Value empty = createEmpty(value.getType());
      Operation *clone = builder.clone(*fill);
      clone->setOperand(0, scalar);
      clone->setOperand(1, empty);
      operands.push_back(clone->getResult(0));
    } else if (value.getDefiningOp<tensor::EmptyOp>()) {
      operands.push_back(createEmpty(value.getType()));
    } else {
      operands.push_back(addArgument(value.getType()));
    }
  }
  Operation *clone = builder.clone(*op, mapping);
  for (auto [index, operand] : llvm::enumerate(operands))
    clone->setOperand(index, operand);
  // Schedules of the model do not carry over.
  for (NamedAttribute attr : llvm::to_vector(clone->getDiscardableAttrs()))
    if (attr.getName().getValue().starts_with("tessel."))
      clone->removeDiscardableAttr(attr.getName());
  return clone;
}

Value TaskModuleBuilder::cloneProducer(Operation *producer) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(producer))
    return cloneWithOperands(linalgOp, Value(), Value(), false)->getResult(0);
  auto pad = cast<tensor::PadOp>(producer);
  IRMapping mapping;
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(pad->getRegions(), captured);
  for (Value value : captured)
    mapping.map(value, getCaptured(value));
  mapping.map(pad.getSource(), addArgument(pad.getSourceType()));
  return builder.clone(*pad, mapping)->getResult(0);
}

FailureOr<OwningOpRef<ModuleOp>>
TaskModuleBuilder::build(linalg::LinalgOp op, ArrayRef<Operation *> consumers,
                         ArrayRef<int64_t> inlinedInputs) {
  MLIRContext *ctx = builder.getContext();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());
  func = func::FuncOp::create(builder, loc, kTaskFunctionName,
                              FunctionType::get(ctx, {}, {}));
  entry = func.addEntryBlock();
  builder.setInsertionPointToEnd(entry);

  for (int64_t input : inlinedInputs) {
    Value value = op.getDpsInputOperand(input)->get();
    produced[value] = cloneProducer(value.getDefiningOp());
  }
  Operation *target = cloneWithOperands(op, Value(), Value(), true);
  target->setAttr(kTaskTargetAttrName, UnitAttr::get(ctx));
  Operation *last = target;
  Value chained = op->getNumResults() ? op->getResult(0) : Value();
  for (Operation *consumer : consumers) {
    last = cloneWithOperands(cast<linalg::LinalgOp>(consumer), chained,
                             last->getResult(0), false);
    chained = consumer->getResult(0);
  }
  func::ReturnOp::create(builder, loc, last->getResults());
  func.setType(FunctionType::get(ctx, entry->getArgumentTypes(),
                                 last->getResultTypes()));

  // The dialect verifier does not know the target marker: verify without it.
  target->removeAttr(kTaskTargetAttrName);
  if (failed(verify(*module)))
    return failure();
  target->setAttr(kTaskTargetAttrName, UnitAttr::get(ctx));
  return std::move(module);
}

//===----------------------------------------------------------------------===//
// Extraction
//===----------------------------------------------------------------------===//

linalg::LinalgOp TuningTask::getTargetOp() const {
  linalg::LinalgOp target;
  if (!module)
    return target;
  module.get()->walk([&](linalg::LinalgOp op) {
    if (!op->hasAttr(kTaskTargetAttrName))
      return WalkResult::advance();
    target = op;
    return WalkResult::interrupt();
  });
  return target;
}

static double getIterations(linalg::LinalgOp op) {
  double iterations = 1;
  for (int64_t extent : op.getStaticLoopRanges())
    iterations *= static_cast<double>(extent);
  return iterations;
}

/// The fused consumers of a task rooted at `op`: the fusible chain when the
/// init of `op` is a fill (materialization needs the init computed in the
/// kernel; the task module gives the fill to `op` alone), none otherwise.
SmallVector<Operation *> tessel::getTaskConsumers(linalg::LinalgOp op) {
  return getEpilogueChain(op);
}

SmallVector<int64_t> tessel::getTaskInlinedInputs(linalg::LinalgOp op) {
  SmallVector<int64_t> inputs;
  for (SketchAttr sketch : generateSketches(op, /*fusedConsumers=*/0))
    for (int64_t input : sketch.getInlined())
      if (!llvm::is_contained(inputs, input))
        inputs.push_back(input);
  llvm::sort(inputs);
  return inputs;
}

/// Whether `op` is a producer that the task of its only user inlines.
static bool isInlinedIntoTask(linalg::LinalgOp op) {
  if (op->getNumResults() != 1 || !op->getResult(0).hasOneUse())
    return false;
  OpOperand &use = *op->getResult(0).getUses().begin();
  auto user = dyn_cast<linalg::LinalgOp>(use.getOwner());
  if (!user || !user.isDpsInput(&use) || user.getNumReductionLoops() == 0)
    return false;
  int64_t input = use.getOperandNumber();
  return llvm::is_contained(getTaskInlinedInputs(user), input);
}

/// Why `op`, which has dynamic loop ranges or only reduction loops (the
/// fusion gives reductions to a scalar a parallel loop), cannot be
/// scheduled.
static std::string getUntunableReason(linalg::LinalgOp op) {
  std::string reason;
  llvm::raw_string_ostream os(reason);
  auto dynamic = llvm::find_if(op->getOperandTypes(), [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return shaped && !shaped.hasStaticShape();
  });
  // Static operand shapes make static loop ranges.
  if (dynamic != op->getOperandTypes().end())
    os << "its shapes are dynamic (" << *dynamic
       << "); Tessel schedules static shapes only";
  else
    os << "it has no parallel loop to map to blocks and threads";
  return reason;
}

void tessel::emitUntunableOps(ArrayRef<UntunableOp> ops,
                              DiagnosticSeverity severity) {
  for (const UntunableOp &untunable : ops) {
    InFlightDiagnostic diagnostic = severity == DiagnosticSeverity::Error
                                        ? untunable.op->emitError()
                                        : untunable.op->emitWarning();
    diagnostic << "'" << untunable.op->getName()
               << "' is not tuned: " << untunable.reason;
  }
}

llvm::Expected<std::vector<TuningTask>>
tessel::extractTasks(ModuleOp module, MLIRContext *context,
                     const TaskExtractionOptions &options) {
  if (context != module->getContext())
    return llvm::createStringError(
        "extractTasks: the module belongs to another context");
  if (options.fuse && failed(applyTesselFusion(module)))
    return llvm::createStringError("extractTasks: fusion did not converge");
  std::vector<TuningTask> tasks;
  llvm::StringMap<size_t> byKey;
  llvm::DenseSet<Operation *> fused;
  std::optional<std::string> error;
  module.walk([&](linalg::LinalgOp op) {
    if (fused.contains(op) || isa<linalg::FillOp>(op) ||
        op->getParentOfType<gpu::LaunchOp>() ||
        op->getParentOfType<scf::ForallOp>())
      return WalkResult::advance();
    if (!op.hasPureTensorSemantics()) {
      std::string where;
      llvm::raw_string_ostream os(where);
      os << op->getLoc();
      error = "extractTasks needs linalg ops on tensors; '" +
              op->getName().getStringRef().str() + "' at " + where +
              " works on buffers";
      return WalkResult::interrupt();
    }
    FailureOr<LoopNest> nest = LoopNest::get(op);
    if (failed(nest) || !llvm::is_contained(nest->isReduction, false)) {
      // Loop-less ops get a kernel of one loop (ExpandScalarOps).
      bool needsSchedule = failed(nest) || op.getNumLoops() > 0;
      if (options.untunable && needsSchedule && !isInlinedIntoTask(op))
        options.untunable->push_back({op, getUntunableReason(op)});
      return WalkResult::advance();
    }
    if (op.getNumReductionLoops() == 0 && !options.includeSimpleTasks)
      return WalkResult::advance();
    // Producers inlined into a task are not tasks of their own.
    if (op.getNumReductionLoops() == 0 && isInlinedIntoTask(op))
      return WalkResult::advance();

    SmallVector<Operation *> consumers = getTaskConsumers(op);
    fused.insert(consumers.begin(), consumers.end());
    SmallVector<int64_t> inlinedInputs = getTaskInlinedInputs(op);
    std::string key =
        getWorkloadKey(op, consumers, inlinedInputs, options.equality);
    auto [it, inserted] = byKey.try_emplace(key, tasks.size());
    if (!inserted) {
      ++tasks[it->second].weight;
      return WalkResult::advance();
    }

    TuningTask task;
    task.keyIgnoringFloatConstants =
        options.equality == TaskEquality::IgnoreFloatConstants
            ? key
            : getWorkloadKey(op, consumers, inlinedInputs,
                             TaskEquality::IgnoreFloatConstants);
    task.workloadKey = std::move(key);
    task.opKind = op->getName().stripDialect().str();
    task.weight = 1;
    task.fusedConsumers = consumers.size();
    task.inlinedInputs = inlinedInputs;
    task.flops = getIterations(op) * countBodyOperations(op);
    for (int64_t input : inlinedInputs)
      if (auto producer = op.getDpsInputOperand(input)
                              ->get()
                              .getDefiningOp<linalg::LinalgOp>())
        task.flops += getIterations(producer) * countBodyOperations(producer);
    for (Operation *consumer : consumers)
      task.flops += getIterations(cast<linalg::LinalgOp>(consumer)) *
                    countBodyOperations(cast<linalg::LinalgOp>(consumer));
    task.description = describeOp(op, consumers.size(), inlinedInputs);
    TaskModuleBuilder builder(context, UnknownLoc::get(context));
    FailureOr<OwningOpRef<ModuleOp>> taskModule =
        builder.build(op, consumers, inlinedInputs);
    if (failed(taskModule)) {
      error = "cannot build a standalone module for " + task.description;
      return WalkResult::interrupt();
    }
    task.module = std::move(*taskModule);
    SketchOptions sketchOptions;
    sketchOptions.includeCrossThreadReduction =
        options.includeCrossThreadReduction;
    sketchOptions.includeTensorCore = options.includeTensorCore;
    sketchOptions.includeTf32 = options.includeTf32;
    task.sketches = generateSketches(task.getTargetOp(), task.fusedConsumers,
                                     sketchOptions);
    tasks.push_back(std::move(task));
    return WalkResult::advance();
  });
  if (error)
    return llvm::createStringError(*error);
  return std::move(tasks);
}

OwningOpRef<ModuleOp> tessel::applySchedule(TuningTask &task, SketchAttr sketch,
                                            ConfigAttr config) {
  OwningOpRef<ModuleOp> clone(cast<ModuleOp>(task.module->clone()));
  clone->walk([&](linalg::LinalgOp op) {
    if (!op->hasAttr(kTaskTargetAttrName))
      return;
    op->removeAttr(kTaskTargetAttrName);
    op->setAttr(TesselDialect::kSketchAttrName, sketch);
    if (config)
      op->setAttr(TesselDialect::kConfigAttrName, config);
  });
  return clone;
}

int64_t tessel::countTasksIgnoringFloatConstants(ArrayRef<TuningTask> tasks) {
  llvm::StringSet<> keys;
  for (const TuningTask &task : tasks)
    keys.insert(task.keyIgnoringFloatConstants);
  return keys.size();
}

std::string tessel::getTaskEqualityHint(ArrayRef<TuningTask> tasks) {
  int64_t merged = countTasksIgnoringFloatConstants(tasks);
  if (merged == static_cast<int64_t>(tasks.size()))
    return "";
  return llvm::formatv("{0} tasks are {1} when the values of float constants "
                       "do not count (--task-equality=ignore-float-constants)",
                       tasks.size(), merged)
      .str();
}

void tessel::printTaskTable(llvm::raw_ostream &os,
                            llvm::ArrayRef<TuningTask> tasks) {
  os << llvm::formatv("{0,4} {1,6} {2,12} {3}\n", "task", "weight", "MFLOP",
                      "kernel");
  double total = 0;
  for (auto [index, task] : llvm::enumerate(tasks)) {
    os << llvm::formatv("{0,4} {1,6} {2,12:F1} {3}\n", index, task.weight,
                        task.flops / 1e6, task.describe());
    total += task.flops * task.weight;
  }
  os << llvm::formatv("{0} tasks, {1:F1} GFLOP per model run\n", tasks.size(),
                      total / 1e9);
}
