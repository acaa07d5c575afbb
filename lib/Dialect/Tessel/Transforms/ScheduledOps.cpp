//===- ScheduledOps.cpp - The ops a schedule script applies to ------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/ScheduledOps.h"
#include "tessel/Dialect/Tessel/IR/TesselDialect.h"
#include "tessel/Dialect/Tessel/IR/TileShape.h"
#include "tessel/Dialect/Tessel/IR/WindowViews.h"
#include "tessel/Dialect/Tessel/Transforms/DefaultSchedules.h"
#include "tessel/Dialect/Tessel/Transforms/FusionAnalysis.h"
#include "tessel/Dialect/Tessel/Transforms/PadAsGather.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tessel;

/// Describes the annotated ops `annotated` and replaces their schedule
/// attributes by markers numbered from `nextAnchor`.
static FailureOr<std::vector<ScheduledOp>>
prepareOps(MLIRContext *ctx, ArrayRef<linalg::LinalgOp> annotated,
           int64_t nextAnchor) {
  std::vector<ScheduledOp> scheduled;
  auto mark = [&](Operation *op) {
    op->setAttr(TesselDialect::kAnchorAttrName,
                IntegerAttr::get(IntegerType::get(ctx, 64), nextAnchor));
    return nextAnchor++;
  };
  for (linalg::LinalgOp op : annotated) {
    ScheduledOp entry;
    entry.sketch = op->getAttrOfType<SketchAttr>(TesselDialect::kSketchAttrName);
    entry.config = op->getAttrOfType<ConfigAttr>(TesselDialect::kConfigAttrName);
    if (!entry.config)
      return op->emitError()
             << "op has a sketch but no config; run --tessel-default-config "
                "or tune it";
    if (failed(verifySchedule(op, entry.sketch, entry.config,
                              [&] { return op->emitError(); })))
      return failure();
    entry.nest = *LoopNest::get(op);
    entry.vectorizable =
        llvm::all_of(op.getIndexingMapsArray(),
                     [](AffineMap map) { return map.isProjectedPermutation(); });
    // A window index (a convolution's input) is vectorized once the
    // register-level op reads it through a strided view.
    entry.readsWindows = readsWindowViews(op, entry.sketch,
                                          getTileVectors(entry.config));
    entry.vectorizable |= entry.readsWindows;

    // Fused consumers and the producer of the init, which then lives in
    // shared memory.
    SmallVector<Operation *> consumers = getFusedConsumers(op);
    if (static_cast<int64_t>(consumers.size()) !=
        entry.sketch.getFusedConsumers())
      return op->emitError()
             << "sketch fuses " << entry.sketch.getFusedConsumers()
             << " elementwise consumers but only " << consumers.size()
             << " single-use elementwise consumers follow the op";
    if (!consumers.empty()) {
      OpOperand *init = op.getDpsInitOperand(0);
      auto producer = init->get().getDefiningOp<linalg::LinalgOp>();
      if (!producer || !init->get().hasOneUse() ||
          producer.getNumReductionLoops() != 0 ||
          !producer.getDpsInitOperand(0)->get().getDefiningOp<tensor::EmptyOp>())
        return op->emitError()
               << "fusing consumers needs the op's init to be computed by a "
                  "single-use elementwise op (such as linalg.fill) into "
                  "tensor.empty";
      AffineMap outMap = op.getMatchingIndexingMap(init);
      SmallVector<unsigned> loopOfDim;
      for (AffineExpr expr : outMap.getResults())
        loopOfDim.push_back(cast<AffineDimExpr>(expr).getPosition());
      AffineMap producerOut =
          producer.getMatchingIndexingMap(producer.getDpsInitOperand(0));
      if (!producerOut.isPermutation())
        return op->emitError() << "the producer of the op's init must write "
                                  "through a permutation map";
      entry.initLoops = mapEpilogueLoops(producerOut, loopOfDim,
                                         /*rowLoop=*/0);
      Value value = op->getResult(0);
      SmallVector<unsigned> valueLoops = loopOfDim;
      // A row epilogue (getRowEpilogueUseMap) runs its row loop where the
      // op runs its reduction loop.
      unsigned reductionLoop =
          llvm::find(entry.nest.isReduction, true) -
          entry.nest.isReduction.begin();
      for (Operation *consumer : consumers) {
        auto user = cast<linalg::LinalgOp>(consumer);
        std::optional<AffineMap> useMap = getElementwiseUseMap(user, value);
        if (!useMap)
          useMap = getRowEpilogueUseMap(op, user);
        SmallVector<unsigned> loops =
            mapEpilogueLoops(*useMap, valueLoops, reductionLoop);
        entry.consumerLoops.push_back(loops);
        AffineMap userOut =
            user.getMatchingIndexingMap(user.getDpsInitOperand(0));
        valueLoops.clear();
        for (AffineExpr expr : userOut.getResults())
          valueLoops.push_back(loops[cast<AffineDimExpr>(expr).getPosition()]);
        value = consumer->getResult(0);
      }
      entry.initAnchor = mark(producer);
      for (Operation *consumer : consumers)
        entry.consumerAnchors.push_back(mark(consumer));
    } else if (Operation *fill = getKernelInitProducer(op, entry.sketch)) {
      // No consumers: a fill of the init that nothing else reads is still
      // computed by the kernel, each thread filling the accumulators it
      // then updates.
      auto fillOp = cast<linalg::FillOp>(fill);
      AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
      SmallVector<unsigned> loopOfDim;
      for (AffineExpr expr : outMap.getResults())
        loopOfDim.push_back(cast<AffineDimExpr>(expr).getPosition());
      entry.initLoops = mapEpilogueLoops(
          fillOp.getMatchingIndexingMap(fillOp.getDpsInitOperand(0)),
          loopOfDim, /*rowLoop=*/0);
      entry.initAnchor = mark(fill);
    }

    // Inlined producers: pads become gathers that tile like any injective
    // op.
    for (int64_t input : entry.sketch.getInlined()) {
      Operation *producer = getInlinableProducer(op, input);
      if (!producer)
        return op->emitError()
               << "sketch inlines the producer of operand " << input
               << ", which is not strict-inlinable: it must be a single-use "
                  "tensor.pad with static padding and a constant padding "
                  "value, or a single-use injective linalg op with static "
                  "shapes, an identity init map it does not read and "
                  "projected-permutation input maps";
      if (entry.sketch.getKind() != SketchKind::MultiLevelTiling ||
          op.getNumReductionLoops() == 0)
        return op->emitError()
               << "inlining a producer needs a multi_level_tiling sketch of "
                  "an op with a reduction loop: the producer is computed in "
                  "the shared-memory staging loop";
      if (auto pad = dyn_cast<tensor::PadOp>(producer)) {
        IRRewriter rewriter(ctx);
        producer = rewritePadAsGather(rewriter, pad);
      }
      entry.inlinedAnchors.push_back(mark(producer));
    }

    SmallVector<int64_t> blockTile =
        getBlockTile(entry.sketch, entry.config, entry.nest);
    for (int64_t operand : entry.sketch.getShared())
      entry.sharedFootprints.push_back(getFootprintShape(
          op.getMatchingIndexingMap(op.getDpsInputOperand(operand)),
          blockTile));

    entry.anchor = mark(op);
    op->removeAttr(TesselDialect::kSketchAttrName);
    op->removeAttr(TesselDialect::kConfigAttrName);
    scheduled.push_back(std::move(entry));
  }
  return scheduled;
}

FailureOr<std::vector<ScheduledOp>>
tessel::prepareScheduledOps(ModuleOp module) {
  SmallVector<linalg::LinalgOp> annotated;
  module.walk([&](linalg::LinalgOp op) {
    if (op->hasAttr(TesselDialect::kSketchAttrName))
      annotated.push_back(op);
  });
  return prepareOps(module.getContext(), annotated, /*nextAnchor=*/0);
}

FailureOr<std::vector<ScheduledOp>>
tessel::prepareLeftoverOps(ModuleOp module, int64_t firstAnchor) {
  SmallVector<linalg::LinalgOp> leftovers;
  WalkResult result = module.walk([&](linalg::LinalgOp op) {
    if (op->getParentOfType<scf::ForallOp>() ||
        op->getParentOfType<gpu::LaunchOp>())
      return WalkResult::advance();
    FailureOr<Schedule> schedule = getDefaultSchedule(op);
    if (failed(schedule)) {
      op->emitError() << "cannot give '" << op->getName()
                      << "' a default schedule: Tessel needs static shapes";
      return WalkResult::interrupt();
    }
    op->setAttr(TesselDialect::kSketchAttrName, schedule->sketch);
    op->setAttr(TesselDialect::kConfigAttrName, schedule->config);
    leftovers.push_back(op);
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  return prepareOps(module.getContext(), leftovers, firstAnchor);
}
