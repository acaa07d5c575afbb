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

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELAPPLYTUNED
#include "tessel/Tuning/ApplyTuned/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;
using namespace mlir::tessel;

namespace {
struct TesselApplyTunedPass
    : public tessel::impl::TesselApplyTunedBase<TesselApplyTunedPass> {
  using Base::Base;

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
  TesselApplyTunedOptions options;
  options.db = std::move(db);
  options.target = std::move(target);
  return createTesselApplyTuned(options);
}
