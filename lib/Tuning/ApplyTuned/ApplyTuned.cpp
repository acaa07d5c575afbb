//===- ApplyTuned.cpp - Schedules from the tuning records -----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/ApplyTuned/ApplyTuned.h"
#include "tessel/Dialect/Tessel/IR/Schedule.h"
#include "tessel/Dialect/Tessel/IR/TesselDialect.h"
#include "tessel/Dialect/Tessel/Transforms/Fusion.h"
#include "tessel/Tuning/ApplyTuned/RecordSelection.h"
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
      // constants (--task-equality=ignore-float-constants); the fastest
      // one that this version compiles.
      int skipped = 0;
      auto selected = selectCompilableRecord(
          **records, op, tunable.getLookupKeys(), target,
          [&](const BestRecord &record, StringRef why) {
            ++skipped;
            op->emitWarning() << "skipping the record from " << record.target
                              << " (" << llvm::formatv("{0:F2}", record.medianUs)
                              << " us): its schedule does not compile with "
                                 "this version: "
                              << why;
          });
      if (!selected) {
        op->emitError() << llvm::toString(selected.takeError());
        return signalPassFailure();
      }
      if (!*selected) {
        if (skipped)
          op->emitWarning() << "none of the " << skipped
                            << " best records of this op in '" << db
                            << "' compiles; the default schedule applies";
        else
          op->emitRemark("no tuning record for this op in '")
              << db << "'; the default schedule applies";
        continue;
      }
      SketchAttr sketch = (*selected)->sketch;
      ConfigAttr config = (*selected)->config;
      const BestRecord *best = &(*selected)->record;
      op->setAttr(TesselDialect::kSketchAttrName, sketch);
      op->setAttr(TesselDialect::kConfigAttrName, config);
      op->emitRemark() << "tuned schedule from " << best->target
                       << (best->simulated ? " (simulated)" : "") << ": "
                       << llvm::formatv("{0:F2}", best->medianUs) << " us";
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
