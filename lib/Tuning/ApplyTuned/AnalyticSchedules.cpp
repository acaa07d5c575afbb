//===- AnalyticSchedules.cpp - Schedules chosen without measuring ---------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The zero-measurement choice of issue 52: a model compiled without tuning
// gets, op by op, the best of a few hundred sampled schedules as the
// analytic simulator predicts them, where that prediction beats the default
// rule by tessel-tune's analytic start margin. The same pick as tessel-tune's
// analytic start (pickAnalyticSchedule), applied to the user's module
// instead of measured.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/IR/TesselDialect.h"
#include "tessel/Dialect/Tessel/Transforms/Fusion.h"
#include "tessel/Tuning/ApplyTuned/ApplyTuned.h"
#include "tessel/Tuning/ApplyTuned/TunableOps.h"
#include "tessel/Tuning/Device.h"
#include "tessel/Tuning/Search/Task.h"
#include "tessel/Tuning/Tuner/AnalyticCandidate.h"
#include "tessel/Tuning/Tuner/TuneOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELANALYTICSCHEDULES
#include "tessel/Tuning/ApplyTuned/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;
using namespace mlir::tessel;

namespace {
struct TesselAnalyticSchedulesPass
    : public tessel::impl::TesselAnalyticSchedulesBase<
          TesselAnalyticSchedulesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t draws = samples;
    if (draws < 1) {
      emitError(module.getLoc())
          << "--tessel-analytic-schedules: samples=" << draws
          << " is out of range: at least 1";
      return signalPassFailure();
    }
    llvm::Expected<DeviceDescription> found = findDevice(device);
    if (!found) {
      emitError(module.getLoc()) << "--tessel-analytic-schedules: "
                                 << llvm::toString(found.takeError());
      return signalPassFailure();
    }
    if (fuse && failed(applyTesselFusion(module))) {
      emitError(module.getLoc(),
                "--tessel-analytic-schedules: fusion did not converge");
      return signalPassFailure();
    }
    SmallVector<TunableOp> tunable = getTunableOps(module);
    if (tunable.empty())
      return;
    // Tasks as tessel-tune extracts them (tensor-core sketches of 16-bit
    // contractions included, TF32 not), on a clone: extraction marks ops.
    OwningOpRef<ModuleOp> copy(cast<ModuleOp>(module->clone()));
    TaskExtractionOptions extraction;
    extraction.fuse = false;
    auto tasks = extractTasks(*copy, &getContext(), extraction);
    if (!tasks) {
      emitError(module.getLoc()) << "--tessel-analytic-schedules: "
                                 << llvm::toString(tasks.takeError());
      return signalPassFailure();
    }
    llvm::StringMap<TuningTask *> byKey;
    for (TuningTask &task : *tasks)
      byKey.try_emplace(task.workloadKey, &task);
    TuneOptions defaults;
    for (auto [index, op] : llvm::enumerate(tunable)) {
      TuningTask *task = byKey.lookup(op.workloadKey);
      if (!task)
        continue;
      TaskSearchState state = TaskSearchState::create(
          *task, *found, static_cast<uint64_t>(seed), defaults.maxStages);
      std::optional<Candidate> fallback = getDefaultCandidate(*task);
      if (fallback)
        for (auto [i, space] : llvm::enumerate(state.spaces))
          if (space.getSketch() == fallback->sketch)
            fallback->space = i;
      RandomEngine rng(static_cast<uint64_t>(seed) * 1000003 + index);
      double pickUs = 0, defaultUs = 0;
      std::optional<Candidate> pick =
          pickAnalyticSchedule(state, fallback ? &*fallback : nullptr, *found,
                               draws, rng, static_cast<uint64_t>(seed),
                               kAnalyticStartMargin, &pickUs, &defaultUs);
      if (!pick) {
        // At the op's location, without printing it (a Tessel-annotated
        // form the user did not write).
        emitRemark(op.op->getLoc())
            << "analytic schedule: none of " << draws
            << " samples is predicted "
            << llvm::formatv("{0:F0}", kAnalyticStartMargin)
            << "x faster than the default ("
            << llvm::formatv("{0:F1}", defaultUs) << " us SIMULATED on "
            << found->id << "); the default schedule applies";
        continue;
      }
      op.op->setAttr(TesselDialect::kSketchAttrName, pick->sketch);
      op.op->setAttr(TesselDialect::kConfigAttrName, pick->config);
      emitRemark(op.op->getLoc())
          << "analytic schedule: " << llvm::formatv("{0:F1}", pickUs)
          << " us SIMULATED on " << found->id << " (default "
          << llvm::formatv("{0:F1}", defaultUs) << " us), best of " << draws
          << " samples";
    }
  }
};
} // namespace
