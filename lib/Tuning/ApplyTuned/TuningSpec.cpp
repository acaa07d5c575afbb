//===- TuningSpec.cpp - Tuned schedules as a transform library ------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/ApplyTuned/TuningSpec.h"
#include "tessel/Dialect/Tessel/IR/Schedule.h"
#include "tessel/Dialect/Tessel/IR/TesselDialect.h"
#include "tessel/Dialect/Tessel/TransformOps/TesselTransformOps.h"
#include "tessel/Dialect/Tessel/Transforms/Fusion.h"
#include "tessel/Tuning/ApplyTuned/RecordSelection.h"
#include "tessel/Tuning/ApplyTuned/TunableOps.h"
#include "tessel/Tuning/Records/RecordsDatabase.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/IR/TransformTypes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tessel;

namespace {
/// A workload of the model with the schedule its spec entry sets.
struct SpecEntry {
  int64_t index;
  linalg::LinalgOp op;
  std::string workloadKey;
  SketchAttr sketch;
  ConfigAttr config;
  /// Whether `workloadKey` is a key ignoring float constants, which the ops
  /// of other workloads may share, rather than the op's own.
  bool sharedKey;
};
} // namespace

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}


/// A named sequence `name` taking one `!transform.any_op` marked
/// `argEffect` (transform.readonly or transform.consumed) and returning
/// `resultTypes`, with the body that `bodyBuilder` creates.
static void createSequence(OpBuilder &builder, Location loc, StringRef name,
                           TypeRange resultTypes, StringRef argEffect,
                           transform::SequenceBodyBuilderFn bodyBuilder) {
  auto sequence = transform::NamedSequenceOp::create(
      builder, loc, name, transform::AnyOpType::get(builder.getContext()),
      resultTypes, bodyBuilder);
  sequence.setArgAttr(0, argEffect, builder.getUnitAttr());
}

/// `@match_task<N>`: succeeds on the ops of `entry`'s workload and yields
/// them.
static void buildMatcher(OpBuilder &builder, const SpecEntry &entry,
                         StringRef name) {
  auto anyOp = transform::AnyOpType::get(builder.getContext());
  createSequence(builder, entry.op->getLoc(), name, anyOp,
                 transform::TransformDialect::kArgReadOnlyAttrName,
                 [&](OpBuilder &b, Location loc, BlockArgument op) {
                   transform::MatchOperationNameOp::create(
                       b, loc, op,
                       b.getStrArrayAttr({entry.op->getName().getStringRef()}));
                   transform::MatchWorkloadOp::create(b, loc, op,
                                                      entry.workloadKey);
                   transform::YieldOp::create(b, loc, ValueRange{op});
                 });
}

/// `@annotate_task<N>`: sets the schedule of `entry` on its operand.
static void buildAction(OpBuilder &builder, const SpecEntry &entry,
                        StringRef name) {
  auto anyParam = transform::AnyParamType::get(builder.getContext());
  createSequence(
      builder, entry.op->getLoc(), name, TypeRange{},
      transform::TransformDialect::kArgReadOnlyAttrName,
      [&](OpBuilder &b, Location loc, BlockArgument op) {
        Value sketch =
            transform::ParamConstantOp::create(b, loc, anyParam, entry.sketch);
        Value config =
            transform::ParamConstantOp::create(b, loc, anyParam, entry.config);
        transform::AnnotateOp::create(b, loc, op,
                                      TesselDialect::kSketchAttrName, sketch);
        transform::AnnotateOp::create(b, loc, op,
                                      TesselDialect::kConfigAttrName, config);
        transform::YieldOp::create(b, loc);
      });
}

/// `@__transform_main`: one foreach_match over every matcher/action pair.
static void buildEntryPoint(OpBuilder &builder, Location loc,
                            ArrayRef<Attribute> matchers,
                            ArrayRef<Attribute> actions) {
  auto anyOp = transform::AnyOpType::get(builder.getContext());
  createSequence(builder, loc,
                 transform::TransformDialect::kTransformEntryPointSymbolName,
                 TypeRange{}, transform::TransformDialect::kArgConsumedAttrName,
                 [&](OpBuilder &b, Location loc, BlockArgument root) {
                   transform::ForeachMatchOp::create(
                       b, loc, anyOp, TypeRange{}, root, ValueRange{},
                       /*restrict_root=*/false, /*flatten_results=*/false,
                       b.getArrayAttr(matchers), b.getArrayAttr(actions));
                   transform::YieldOp::create(b, loc);
                 });
}

llvm::Expected<OwningOpRef<ModuleOp>>
tessel::buildTuningSpec(ModuleOp model, RecordsDatabase &db,
                        StringRef preferredTarget, TuningSpecSummary *summary) {
  MLIRContext *context = model->getContext();
  DialectRegistry registry;
  registry.insert<transform::TransformDialect>();
  registerTransformDialectExtension(registry);
  context->appendDialectRegistry(registry);
  context->loadDialect<transform::TransformDialect, TesselDialect>();

  // The spec matches the fused model (the tasks' ops): it applies after
  // `--tessel-fuse`.
  if (failed(applyTesselFusion(model)))
    return llvm::createStringError("tuning spec: fusion did not converge");

  // The distinct workloads in walk order, the first op of each standing for
  // all of them.
  llvm::MapVector<StringRef, const TunableOp *> workloads;
  SmallVector<TunableOp> tunableOps = getTunableOps(model);
  for (const TunableOp &tunable : tunableOps)
    workloads.insert({tunable.workloadKey, &tunable});
  if (workloads.empty())
    return makeError("the model has no tunable op (a linalg op on static "
                     "tensors with a parallel and a reduction loop)");

  // One entry per key that records were found under: a workload's own key,
  // else the key of a run that ignored float constants, which several
  // workloads may share (its matcher matches them all).
  SmallVector<SpecEntry> entries;
  llvm::StringSet<> entryKeys;
  int64_t annotated = 0;
  for (auto [index, workload] : llvm::enumerate(workloads)) {
    const TunableOp &tunable = *workload.second;
    // The fastest record this version compiles (RecordSelection.h).
    linalg::LinalgOp op = tunable.op;
    auto selected = selectCompilableRecord(
        db, op, tunable.getLookupKeys(), preferredTarget,
        [&](const BestRecord &record, StringRef why) {
          op->emitWarning() << "tuning spec: skipping the record from "
                            << record.target << " ("
                            << llvm::formatv("{0:F2}", record.medianUs)
                            << " us): its schedule does not compile with "
                               "this version: "
                            << why;
        });
    if (!selected)
      return selected.takeError();
    if (!*selected)
      continue;
    ++annotated;
    StringRef key = (*selected)->key;
    if (!entryKeys.insert(key).second)
      continue;
    entries.push_back({static_cast<int64_t>(index), tunable.op, key.str(),
                       (*selected)->sketch, (*selected)->config,
                       key != tunable.workloadKey});
  }
  // foreach_match applies the first matcher that matches an op: the entries
  // of workloads' own keys go first, so that they win over a shared key.
  std::stable_partition(
      entries.begin(), entries.end(),
      [](const SpecEntry &entry) { return !entry.sharedKey; });
  if (entries.empty())
    return makeError("none of the model's " + llvm::Twine(workloads.size()) +
                     " workloads has a tuning record");

  Location loc = model->getLoc();
  OwningOpRef<ModuleOp> spec = ModuleOp::create(loc);
  (*spec)->setAttr(transform::TransformDialect::kWithNamedSequenceAttrName,
                   UnitAttr::get(context));
  OpBuilder builder = OpBuilder::atBlockEnd(spec->getBody());
  SmallVector<Attribute> matchers, actions;
  for (const SpecEntry &entry : entries) {
    std::string matcher = "match_task" + std::to_string(entry.index);
    std::string action = "annotate_task" + std::to_string(entry.index);
    buildMatcher(builder, entry, matcher);
    buildAction(builder, entry, action);
    matchers.push_back(SymbolRefAttr::get(context, matcher));
    actions.push_back(SymbolRefAttr::get(context, action));
  }
  buildEntryPoint(builder, loc, matchers, actions);
  if (failed(verify(*spec)))
    return makeError("the tuning spec does not verify");
  if (summary)
    *summary = {static_cast<int64_t>(workloads.size()), annotated};
  return spec;
}

llvm::Expected<TuningSpecSummary>
tessel::exportTuningSpec(ModuleOp model, RecordsDatabase &db,
                         StringRef preferredTarget, llvm::raw_ostream &os) {
  TuningSpecSummary summary;
  auto spec = buildTuningSpec(model, db, preferredTarget, &summary);
  if (!spec)
    return spec.takeError();
  (*spec)->print(os);
  os << "\n";
  return summary;
}
