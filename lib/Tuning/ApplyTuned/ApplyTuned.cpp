//===- ApplyTuned.cpp - Schedules from the tuning records -----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/ApplyTuned/ApplyTuned.h"
#include "tessel/Dialect/Tessel/IR/Schedule.h"
#include "tessel/Dialect/Tessel/IR/TesselDialect.h"
#include "tessel/Dialect/Tessel/Transforms/Fusion.h"
#include "tessel/Tuning/ApplyTuned/TunableOps.h"
#include "tessel/Tuning/Records/RecordsDatabase.h"

#include "mlir/AsmParser/AsmParser.h"
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
    if (fuse && failed(applyTesselFusion(module))) {
      module.emitError("--tessel-apply-tuned: fusion did not converge");
      return signalPassFailure();
    }
    for (const TunableOp &tunable : getTunableOps(module)) {
      linalg::LinalgOp op = tunable.op;
      // Its own records first, then those of a run that ignored float
      // constants (--task-equality=ignore-float-constants).
      auto findBest = [&]() -> llvm::Expected<std::optional<BestRecord>> {
        for (StringRef key : tunable.getLookupKeys()) {
          auto found = (*records)->getBestRecordAnyTarget(key, target);
          if (!found || *found)
            return found;
        }
        return std::nullopt;
      };
      llvm::Expected<std::optional<BestRecord>> best = findBest();
      if (!best) {
        op->emitError() << llvm::toString(best.takeError());
        return signalPassFailure();
      }
      if (!*best) {
        op->emitRemark("no tuning record for this op in '")
            << db << "'; the default schedule applies";
        continue;
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
        return signalPassFailure();
      }
      if (failed(verifySchedule(op, sketch, config,
                                [&] { return op->emitError(); })))
        return signalPassFailure();
      op->setAttr(TesselDialect::kSketchAttrName, sketch);
      op->setAttr(TesselDialect::kConfigAttrName, config);
      op->emitRemark() << "tuned schedule from " << (*best)->target
                       << ((*best)->simulated ? " (simulated)" : "") << ": "
                       << llvm::formatv("{0:F2}", (*best)->medianUs) << " us";
    }
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
