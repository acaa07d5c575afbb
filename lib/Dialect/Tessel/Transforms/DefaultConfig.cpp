//===- DefaultConfig.cpp - Give unscheduled ops a default schedule --------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/DefaultSchedules.h"
#include "tessel/Dialect/Tessel/Transforms/FusionAnalysis.h"
#include "tessel/Dialect/Tessel/Transforms/Passes.h"

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELDEFAULTCONFIG
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;
using namespace mlir::tessel;

namespace {
struct TesselDefaultConfigPass
    : public tessel::impl::TesselDefaultConfigBase<TesselDefaultConfigPass> {
  using Base::Base;

  void runOnOperation() override {
    // Consumers fused into an annotated producer and producers inlined into
    // an annotated consumer belong to its kernel.
    llvm::DenseSet<Operation *> fused;
    getOperation().walk([&](linalg::LinalgOp op) {
      for (Operation *consumer : getFusedConsumers(op))
        fused.insert(consumer);
      if (auto sketch =
              op->getAttrOfType<SketchAttr>(TesselDialect::kSketchAttrName))
        for (int64_t input : sketch.getInlined())
          if (Operation *producer = getInlinableProducer(op, input))
            fused.insert(producer);
    });
    WalkResult result = getOperation().walk([&](linalg::LinalgOp op) {
      if (op->hasAttr(TesselDialect::kSketchAttrName) ||
          fused.contains(op.getOperation()))
        return WalkResult::advance();
      // Ops already inside a GPU kernel or a tiled loop nest are scheduled.
      if (op->getParentOfType<gpu::LaunchOp>() ||
          op->getParentOfType<scf::ForallOp>())
        return WalkResult::advance();
      FailureOr<Schedule> schedule = getDefaultSchedule(op);
      if (failed(schedule)) {
        op->emitError() << "cannot give '" << op->getName()
                        << "' a default schedule: Tessel needs static shapes "
                           "and at least one parallel loop";
        return WalkResult::interrupt();
      }
      op->setAttr(TesselDialect::kSketchAttrName, schedule->sketch);
      op->setAttr(TesselDialect::kConfigAttrName, schedule->config);
      ++numAnnotated;
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
