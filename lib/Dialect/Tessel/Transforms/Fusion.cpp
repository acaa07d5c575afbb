//===- Fusion.cpp - Fusing a model's linalg ops into kernel groups --------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/Fusion.h"
#include "tessel/Dialect/Tessel/Transforms/SplitK.h"
#include "tessel/Dialect/Tessel/IR/TesselDialect.h"
#include "tessel/Dialect/Tessel/Transforms/ExpandScalarOps.h"
#include "tessel/Dialect/Tessel/Transforms/PadExtents.h"
#include "tessel/Dialect/Tessel/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELFUSE
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;
using namespace mlir::tessel;

/// The most operations in the body of an op that is recomputed in each of
/// its consumers.
static constexpr unsigned kMaxRecomputedBodyOps = 24;

static bool isElementwiseGeneric(linalg::GenericOp op) {
  return op && op.hasPureTensorSemantics() && op->getNumResults() == 1 &&
         op.getNumDpsInits() == 1 &&
         op.getNumLoops() == op.getNumParallelLoops();
}

/// Whether `op` carries a schedule (written by hand or by
/// `--tessel-apply-tuned`): fusion leaves it and its operands as they are, so
/// that the schedule still describes its loops.
static bool isScheduled(Operation *op) {
  return op && op->hasAttr(TesselDialect::kSketchAttrName);
}

/// Whether `op` reads each element of an operand indexed by `map` once: the
/// map is a projected permutation leaving out only loops of extent 1.
static bool readsEachElementOnce(linalg::GenericOp op, AffineMap map) {
  if (!map.isProjectedPermutation())
    return false;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (unsigned loop = 0; loop < ranges.size(); ++loop)
    if (ranges[loop] != 1 && !map.isFunctionOfDim(loop))
      return false;
  return true;
}

/// Whether the producer of `use` could be merged into its consumer, ignoring
/// the producer's other uses.
static bool canMergeProducer(OpOperand *use) {
  auto producer = use->get().getDefiningOp<linalg::GenericOp>();
  auto consumer = dyn_cast<linalg::GenericOp>(use->getOwner());
  if (isScheduled(producer) || isScheduled(consumer))
    return false;
  if (!isElementwiseGeneric(producer) || !consumer ||
      !consumer.hasPureTensorSemantics() || !consumer.isDpsInput(use))
    return false;
  // A reduction takes the producer as its prologue only when it reads each
  // element once; contractions and convolutions (which read each element
  // many times) inline the producer into their shared-tile loads instead.
  if (consumer.getNumReductionLoops() != 0 &&
      !readsEachElementOnce(consumer, consumer.getMatchingIndexingMap(use)))
    return false;
  return linalg::areElementwiseOpsFusable(use);
}

bool tessel::shouldMergeProducer(OpOperand *use) {
  return use->get().hasOneUse() && canMergeProducer(use);
}

/// Whether the reshape feeding `use` (or fed by its producer) moves through
/// the op: when it has no other use, and, for an op with a reduction loop,
/// only when it adds or removes unit dimensions (`1x12x128x64` to
/// `12x128x64`), so that contractions keep the loops the frontend gave them
/// (splitting a reduction loop in two would only make it harder to tile).
static bool shouldPropagateReshape(OpOperand *use) {
  Operation *producer = use->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  auto isUnitOnly = [](RankedTensorType a, RankedTensorType b) {
    auto nonUnit = [](RankedTensorType t) {
      SmallVector<int64_t> dims;
      for (int64_t d : t.getShape())
        if (d != 1)
          dims.push_back(d);
      return dims;
    };
    return nonUnit(a) == nonUnit(b);
  };
  auto involvesReduction = [](Operation *op) {
    auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
    return linalgOp && linalgOp.getNumReductionLoops() != 0;
  };
  auto reshapeTypes = [](Operation *op)
      -> std::optional<std::pair<RankedTensorType, RankedTensorType>> {
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
      return std::make_pair(collapse.getSrcType(), collapse.getResultType());
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
      return std::make_pair(expand.getSrcType(), expand.getResultType());
    return std::nullopt;
  };
  // The reshape is the producer (folded into its consumer) or the consumer
  // (the op producing its source is expanded).
  Operation *reshape = reshapeTypes(producer) ? producer : use->getOwner();
  Operation *op = reshape == producer ? use->getOwner() : producer;
  if (isScheduled(op))
    return false;
  auto types = reshapeTypes(reshape);
  if (!types || !involvesReduction(op))
    return true;
  return isUnitOnly(types->first, types->second);
}

/// Makes every use in `uses` but the first read its own clone of `op` (a
/// one-result op), created right before `op`.
static void giveEachUseACopy(PatternRewriter &rewriter, Operation *op,
                             ArrayRef<OpOperand *> uses) {
  rewriter.setInsertionPoint(op);
  for (OpOperand *use : llvm::drop_begin(uses)) {
    Operation *copy = rewriter.clone(*op);
    rewriter.modifyOpInPlace(use->getOwner(),
                             [&] { use->set(copy->getResult(0)); });
  }
}

namespace {
/// Reads a unit dimension of an operand through a unit loop instead of the
/// constant 0 (torch-mlir's `(d0, d1, d2) -> (0, d1, d2)` for a size-1
/// batch): both read element 0, but the map becomes a permutation, so the
/// op can be a fused consumer or an inlined producer. The loop is the one the
/// init uses at the same position when that is a unit loop the map does not
/// use yet, otherwise the first such loop.
struct ReadUnitDimsThroughUnitLoops
    : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (isScheduled(op))
      return failure();
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    AffineMap initMap = maps.back();
    MLIRContext *context = op.getContext();
    bool changed = false;
    for (OpOperand &operand : op->getOpOperands()) {
      auto type = dyn_cast<RankedTensorType>(operand.get().getType());
      if (!type)
        continue;
      AffineMap &map = maps[operand.getOperandNumber()];
      SmallVector<AffineExpr> results(map.getResults());
      auto isFreeUnitLoop = [&](unsigned loop) {
        return ranges[loop] == 1 &&
               llvm::none_of(results, [&](AffineExpr expr) {
                 return expr.isFunctionOfDim(loop);
               });
      };
      for (unsigned pos = 0; pos < results.size(); ++pos) {
        auto constant = dyn_cast<AffineConstantExpr>(results[pos]);
        if (!constant || constant.getValue() != 0 ||
            type.getDimSize(pos) != 1)
          continue;
        std::optional<unsigned> loop;
        if (pos < initMap.getNumResults())
          if (auto dim = dyn_cast<AffineDimExpr>(initMap.getResult(pos));
              dim && isFreeUnitLoop(dim.getPosition()))
            loop = dim.getPosition();
        for (unsigned l = 0; !loop && l < ranges.size(); ++l)
          if (isFreeUnitLoop(l))
            loop = l;
        if (!loop)
          continue;
        results[pos] = getAffineDimExpr(*loop, context);
        changed = true;
      }
      map = AffineMap::get(map.getNumDims(), 0, results, context);
    }
    if (!changed)
      return rewriter.notifyMatchFailure(op, "no unit broadcast to rewrite");
    rewriter.modifyOpInPlace(op, [&] {
      op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
    return success();
  }
};

/// Writes a unit dimension of a result that an op writes at the constant 0
/// (a reduction with `keepdim`, `(d0, d1, d2) -> (d0, d1, 0)`) through a new
/// parallel loop of extent 1 instead, when no unit loop is free for it: the
/// init map becomes a projected permutation, which tiling the op for its
/// fused init and epilogue needs.
struct WriteUnitDimsThroughNewLoops
    : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || isScheduled(op))
      return failure();
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    unsigned numLoops = op.getNumLoops(), added = 0;
    MLIRContext *context = op.getContext();
    SmallVector<SmallVector<AffineExpr>> results;
    for (AffineMap map : maps)
      results.emplace_back(map.getResults());
    for (OpOperand &init : op.getDpsInitsMutable()) {
      auto type = cast<RankedTensorType>(init.get().getType());
      for (auto [pos, expr] : llvm::enumerate(results[init.getOperandNumber()])) {
        auto constant = dyn_cast<AffineConstantExpr>(expr);
        if (constant && constant.getValue() == 0 && type.getDimSize(pos) == 1)
          expr = getAffineDimExpr(numLoops + added++, context);
      }
    }
    if (added == 0)
      return rewriter.notifyMatchFailure(op, "no constant result to write");
    SmallVector<AffineMap> newMaps;
    for (ArrayRef<AffineExpr> exprs : results)
      newMaps.push_back(AffineMap::get(numLoops + added, 0, exprs, context));
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    iterators.append(added, utils::IteratorType::parallel);
    auto newOp = linalg::GenericOp::create(
        rewriter, op.getLoc(), op->getResultTypes(), op.getDpsInputs(),
        op.getDpsInits(), newMaps, iterators);
    rewriter.inlineRegionBefore(op.getRegion(), newOp.getRegion(),
                                newOp.getRegion().begin());
    for (NamedAttribute attr : op->getDiscardableAttrs())
      newOp->setAttr(attr.getName(), attr.getValue());
    rewriter.replaceOp(op, newOp->getResults());
    return success();
  }
};

/// Gives a reduction to a scalar (a sum of all elements) a parallel loop of
/// extent 1 (addUnitParallelLoop), which a kernel maps to its one block, and
/// through which the ops around it can fuse with it.
struct GiveReductionsToAScalarAUnitLoop
    : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!isReductionToScalar(op) || isScheduled(op))
      return failure();
    return addUnitParallelLoop(rewriter, op);
  }
};

/// Gives each consumer of a cheap elementwise op its own copy when every
/// consumer can merge it (shouldMergeProducer), so that the op is recomputed
/// where it is read instead of being a kernel whose result goes through
/// global memory (a LayerNorm's centred input, a softmax's exponentials).
struct RecomputeInEachConsumer : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!isElementwiseGeneric(op))
      return failure();
    Value result = op->getResult(0);
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : result.getUses())
      uses.push_back(&use);
    if (uses.size() < 2 || uses.size() > kMaxRecomputedConsumers)
      return rewriter.notifyMatchFailure(op, "not a multi-use producer");
    if (op.getBody()->getOperations().size() > kMaxRecomputedBodyOps)
      return rewriter.notifyMatchFailure(op, "too expensive to recompute");
    if (!llvm::all_of(uses, canMergeProducer))
      return rewriter.notifyMatchFailure(op, "a consumer cannot merge it");
    giveEachUseACopy(rewriter, op, uses);
    return success();
  }
};

/// Gives each user of a `linalg.fill` its own fill, so that every kernel
/// computes its init itself instead of reading a buffer filled by a kernel
/// of its own (torch-mlir fills one zero tensor for every matmul of a
/// shape).
struct FillForEachUser : public OpRewritePattern<linalg::FillOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::FillOp fill,
                                PatternRewriter &rewriter) const override {
    if (!fill.hasPureTensorSemantics() || fill->getNumResults() != 1)
      return failure();
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : fill->getResult(0).getUses())
      uses.push_back(&use);
    if (uses.size() < 2)
      return rewriter.notifyMatchFailure(fill, "a single user");
    giveEachUseACopy(rewriter, fill, uses);
    return success();
  }
};
} // namespace

void tessel::populateTesselFusionPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<ReadUnitDimsThroughUnitLoops>(context, /*benefit=*/2);
  patterns.add<WriteUnitDimsThroughNewLoops, RecomputeInEachConsumer,
               FillForEachUser, GiveReductionsToAScalarAUnitLoop>(context);
  linalg::populateElementwiseOpsFusionPatterns(patterns, shouldMergeProducer);
  populatePadAwkwardContractionPatterns(patterns);
  // Reshapes between ops (torch-mlir's head splits and batch collapses)
  // move through the op they feed or read when they have no other use, so
  // that the ops meet and fuse.
  linalg::populateFoldReshapeOpsByExpansionPatterns(patterns,
                                                    shouldPropagateReshape);
  linalg::populateEraseUnusedOperandsAndResultsPatterns(patterns);
  // Reshapes of a tensor.empty are empties: fills and inits write them.
  tensor::populateFoldTensorEmptyPatterns(patterns);
  // Everything the canonicalizer would do, so that running it before or
  // after changes nothing.
  for (Dialect *dialect : context->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : context->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, context);
}

/// Collapses the reduction loops of each unscheduled generic that reduces to
/// one element (one parallel loop, of extent 1, then several reduction
/// loops) into one loop, where every operand reads them contiguously: a sum
/// of all elements of a 16x48 tensor reduces 768 elements of a collapsed
/// view, which cross_thread_reduction (one reduction loop) can split over a
/// block's threads. Runs after the patterns, so that the producers the
/// reduction merges are merged first. Returns whether it changed anything.
static bool collapseReductionsToOneElement(Operation *root) {
  SmallVector<linalg::GenericOp> ops;
  root->walk([&](linalg::GenericOp op) {
    if (!op.hasPureTensorSemantics() || isScheduled(op) ||
        op.getNumParallelLoops() != 1 || op.getNumReductionLoops() < 2)
      return;
    SmallVector<int64_t> extents = op.getStaticLoopRanges();
    if (op.getIteratorTypesArray()[0] != utils::IteratorType::parallel ||
        extents[0] != 1 || llvm::any_of(extents, ShapedType::isDynamic))
      return;
    ReassociationIndices reductions =
        llvm::to_vector(llvm::seq<int64_t>(1, op.getNumLoops()));
    if (linalg::areDimSequencesPreserved(op.getIndexingMapsArray(),
                                         {reductions}))
      ops.push_back(op);
  });
  IRRewriter rewriter(root->getContext());
  bool changed = false;
  for (linalg::GenericOp op : ops) {
    ReassociationIndices reductions =
        llvm::to_vector(llvm::seq<int64_t>(1, op.getNumLoops()));
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::CollapseResult> collapsed =
        linalg::collapseOpIterationDims(op, {reductions}, rewriter);
    if (failed(collapsed))
      continue;
    rewriter.replaceOp(op, collapsed->results);
    changed = true;
  }
  return changed;
}

/// Fuses until nothing changes (split-K already applied).
static LogicalResult fuseToFixpoint(Operation *root) {
  auto fuse = [&] {
    RewritePatternSet patterns(root->getContext());
    populateTesselFusionPatterns(patterns);
    GreedyRewriteConfig config;
    config.setMaxIterations(GreedyRewriteConfig::kNoLimit);
    return applyPatternsGreedily(root, std::move(patterns), config);
  };
  if (failed(fuse()))
    return failure();
  if (!collapseReductionsToOneElement(root))
    return success();
  return fuse();
}

LogicalResult tessel::applyTesselFusion(Operation *root) {
  // Split-K first, so that an epilogue fuses into the combining op.
  if (failed(applySplitK(root)))
    return failure();
  return fuseToFixpoint(root);
}

namespace {
struct TesselFusePass : public tessel::impl::TesselFuseBase<TesselFusePass> {
  using Base::Base;

  void runOnOperation() override {
    // Ops that ask for split-K and cannot have it report at the op.
    if (failed(applySplitK(getOperation())))
      return signalPassFailure();
    if (failed(fuseToFixpoint(getOperation()))) {
      getOperation()->emitError("tessel-fuse: fusion did not converge");
      return signalPassFailure();
    }
  }
};
} // namespace
