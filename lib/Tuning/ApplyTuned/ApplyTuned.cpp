//===- ApplyTuned.cpp - Schedules from the tuning records -----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/ApplyTuned/ApplyTuned.h"
#include "tessel/Dialect/Tessel/IR/Schedule.h"
#include "tessel/Dialect/Tessel/IR/TesselDialect.h"
#include "tessel/Tuning/Records/RecordsDatabase.h"
#include "tessel/Tuning/Search/Task.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {
struct TesselApplyTunedPass
    : public PassWrapper<TesselApplyTunedPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TesselApplyTunedPass)

  TesselApplyTunedPass() = default;
  TesselApplyTunedPass(const TesselApplyTunedPass &other)
      : PassWrapper(other) {}
  TesselApplyTunedPass(std::string dbPath, std::string targetName) {
    db = dbPath;
    target = targetName;
  }

  StringRef getArgument() const final { return "tessel-apply-tuned"; }
  StringRef getDescription() const final {
    return "Annotate every tunable op with the best schedule of its workload "
           "in a tuning records database";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<TesselDialect>();
  }

  Option<std::string> db{*this, "db",
                         llvm::cl::desc("Records database (tessel-tune --db)")};
  Option<std::string> target{
      *this, "target",
      llvm::cl::desc("Preferred measurer, e.g. sim:h100-sxm (default: GPU "
                     "records first)")};

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (db.empty()) {
      module.emitError("--tessel-apply-tuned needs db=FILE");
      return signalPassFailure();
    }
    auto records =
        RecordsDatabase::open(db, RecordsDatabase::OpenMode::ReadOnly);
    if (!records) {
      module.emitError() << llvm::toString(records.takeError());
      return signalPassFailure();
    }
    llvm::DenseSet<Operation *> fused;
    WalkResult result = module.walk([&](linalg::LinalgOp op) {
      if (fused.contains(op) || isa<linalg::FillOp>(op) ||
          op->getParentOfType<gpu::LaunchOp>() ||
          op->getParentOfType<scf::ForallOp>() ||
          !op.hasPureTensorSemantics() ||
          op->hasAttr(TesselDialect::kSketchAttrName))
        return WalkResult::advance();
      FailureOr<LoopNest> nest = LoopNest::get(op);
      if (failed(nest) || !llvm::is_contained(nest->isReduction, false) ||
          op.getNumReductionLoops() == 0)
        return WalkResult::advance();
      SmallVector<Operation *> consumers = getTaskConsumers(op);
      fused.insert(consumers.begin(), consumers.end());
      std::string key =
          getWorkloadKey(op, consumers, getTaskInlinedInputs(op));
      auto best = (*records)->getBestRecordAnyTarget(key, target);
      if (!best) {
        op->emitError() << llvm::toString(best.takeError());
        return WalkResult::interrupt();
      }
      if (!*best) {
        op->emitRemark("no tuning record for this op in '")
            << db << "'; the default schedule applies";
        return WalkResult::advance();
      }
      MLIRContext *context = op->getContext();
      auto sketch = dyn_cast_or_null<SketchAttr>(
          parseAttribute((*best)->sketch, context));
      auto config = dyn_cast_or_null<ConfigAttr>(
          parseAttribute((*best)->config, context));
      if (!sketch || !config) {
        op->emitError() << "the record of this op in '" << db
                        << "' holds no valid schedule: " << (*best)->sketch
                        << " " << (*best)->config;
        return WalkResult::interrupt();
      }
      if (failed(verifySchedule(op, sketch, config,
                                [&] { return op->emitError(); })))
        return WalkResult::interrupt();
      op->setAttr(TesselDialect::kSketchAttrName, sketch);
      op->setAttr(TesselDialect::kConfigAttrName, config);
      op->emitRemark() << "tuned schedule from " << (*best)->target
                       << ((*best)->simulated ? " (simulated)" : "") << ": "
                       << llvm::formatv("{0:F2}", (*best)->medianUs) << " us";
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace

std::unique_ptr<Pass> tessel::createTesselApplyTunedPass(std::string db,
                                                         std::string target) {
  return std::make_unique<TesselApplyTunedPass>(std::move(db),
                                                std::move(target));
}

void tessel::registerTesselApplyTunedPass() {
  PassRegistration<TesselApplyTunedPass>();
}
