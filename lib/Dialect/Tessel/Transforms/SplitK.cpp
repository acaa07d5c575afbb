//===- SplitK.cpp - Contractions split along their reduction --------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Split-K (issue 41, item 5): a contraction whose output gives fewer blocks
// than the GPU has SMs (BERT's QKV projection at sequence length 128)
// computes `S` partial products over `K / S` each, in parallel blocks, and a
// second kernel adds them. Upstream's `linalg::splitReduction` does the
// rewrite on tensors: the reduction dim becomes `S x K/S`, a partial op with
// a new parallel loop writes `S x M x N` partials (the split dim outermost,
// so each partial is a contiguous matrix), and a combining `linalg.generic`
// reduces them into the op's init. Each op is then scheduled on its own
// (default schedules, or tuned as two tasks); an epilogue fuses into the
// combining op.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/IR/TesselDialect.h"
#include "tessel/Dialect/Tessel/Transforms/SplitK.h"
#include "tessel/Dialect/Tessel/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELSPLITK
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr llvm::StringLiteral kSplitKAttrName =
    tessel::TesselDialect::kSplitKAttrName;

} // namespace

LogicalResult tessel::applySplitK(Operation *root, int64_t factor) {
  SmallVector<std::pair<linalg::LinalgOp, int64_t>> targets;
  bool failedOp = false;
  root->walk([&](linalg::LinalgOp op) {
    auto attr = op->getAttrOfType<IntegerAttr>(kSplitKAttrName);
    int64_t ratio = attr ? attr.getInt() : factor;
    if (!attr && !linalg::isaContractionOpInterface(op))
      return;
    // The verifier keeps the attribute positive.
    if (ratio <= 1)
      return;
    if (!op.hasPureTensorSemantics() || op.getNumReductionLoops() != 1 ||
        op.getNumDpsInits() != 1) {
      if (attr) {
        op->emitError() << "split-K needs an op on tensors with one "
                           "reduction loop and one result";
        failedOp = true;
      }
      return;
    }
    SmallVector<unsigned> reductions;
    op.getReductionDims(reductions);
    int64_t extent = op.getStaticLoopRanges()[reductions.front()];
    if (ShapedType::isDynamic(extent) || extent % ratio != 0) {
      if (attr) {
        op->emitError() << "split-K by " << ratio
                        << " needs a static reduction extent it divides; "
                           "the extent is "
                        << (ShapedType::isDynamic(extent)
                                ? std::string("dynamic")
                                : std::to_string(extent));
        failedOp = true;
      }
      return;
    }
    targets.push_back({op, ratio});
  });
  if (failedOp)
    return failure();

  IRRewriter rewriter(root->getContext());
  for (auto [op, ratio] : targets) {
    rewriter.setInsertionPoint(op);
    int64_t r = ratio;
    FailureOr<linalg::SplitReductionResult> result = linalg::splitReduction(
        rewriter, op, [r](linalg::LinalgOp) {
          return linalg::SplitReductionOptions{r, /*index=*/0,
                                               /*innerParallel=*/false};
        });
    if (failed(result))
      return op->emitError()
             << "cannot split this op's reduction by " << r
             << " (upstream's split_reduction needs a combiner it "
                "recognizes, such as an add)";
  }
  return success();
}

namespace {

struct TesselSplitKPass
    : public tessel::impl::TesselSplitKBase<TesselSplitKPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(applySplitK(getOperation(), factor)))
      signalPassFailure();
  }
};

} // namespace
