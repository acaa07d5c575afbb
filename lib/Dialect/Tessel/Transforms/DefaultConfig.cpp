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
    // Ops with a reduction first: their default schedules claim their fused
    // group (epilogue chain, inlined producers, init fill), which then gets
    // no schedule of its own. Then every op left.
    if (failed(annotate(/*reductionsOnly=*/true)) ||
        failed(annotate(/*reductionsOnly=*/false)))
      signalPassFailure();
  }

  /// The ops that the kernel of an annotated op computes.
  llvm::DenseSet<Operation *> getFusedOps() {
    llvm::DenseSet<Operation *> fused;
    getOperation().walk([&](linalg::LinalgOp op) {
      for (Operation *consumer : getFusedConsumers(op))
        fused.insert(consumer);
      if (auto sketch =
              op->getAttrOfType<SketchAttr>(TesselDialect::kSketchAttrName)) {
        for (int64_t input : sketch.getInlined())
          if (Operation *producer = getInlinableProducer(op, input))
            fused.insert(producer);
        if (Operation *fill = getKernelInitProducer(op, sketch))
          fused.insert(fill);
      }
    });
    return fused;
  }

  LogicalResult annotate(bool reductionsOnly) {
    llvm::DenseSet<Operation *> fused = getFusedOps();
    WalkResult result = getOperation().walk([&](linalg::LinalgOp op) {
      if (op->hasAttr(TesselDialect::kSketchAttrName) ||
          fused.contains(op.getOperation()) ||
          (reductionsOnly && op.getNumReductionLoops() == 0))
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
    return failure(result.wasInterrupted());
  }
};
} // namespace
