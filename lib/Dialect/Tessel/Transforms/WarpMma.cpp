//===- WarpMma.cpp - Warp-level contractions as mma.sync ------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/WarpMma.h"

#include "mlir/Conversion/VectorToGPU/VectorToGPU.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::tessel;

/// Views the staged bf16 tiles that the warp contractions under `root` read
/// as f16 tiles, so that upstream's conversion, which knows the fragment
/// layouts of f16 only, can convert them. bf16 and f16 fragments have the
/// same 16-bit layouts and ldmatrix moves bits, not numbers; the mma.sync
/// ops are retagged bf16 afterwards (retagBf16MmaSync). The staging copies
/// store their bf16 vectors bitcast. Returns whether the contractions were
/// bf16; fails with an error on `root` when a bf16 operand is not a read of
/// a staged tile or a tile has a use other than such reads and the copies.
static FailureOr<bool> viewBf16TilesAsF16(RewriterBase &rewriter,
                                          Operation *root) {
  SmallVector<vector::ContractionOp> contracts;
  root->walk([&](vector::ContractionOp c) { contracts.push_back(c); });
  auto isBf16 = [](vector::ContractionOp c) {
    return getElementTypeOrSelf(c.getLhsType()).isBF16();
  };
  if (llvm::none_of(contracts, isBf16))
    return false;
  if (!llvm::all_of(contracts, isBf16))
    return root->emitError("tensor_core: a kernel mixes bf16 and other warp "
                           "contractions");
  SetVector<memref::ViewOp> tiles;
  for (vector::ContractionOp contract : contracts) {
    for (Value operand : {contract.getLhs(), contract.getRhs()}) {
      auto read = operand.getDefiningOp<vector::TransferReadOp>();
      auto tile = read ? read.getBase().getDefiningOp<memref::ViewOp>()
                       : memref::ViewOp();
      if (!tile)
        return root->emitError("tensor_core: a bf16 warp operand is not read "
                               "from a staged shared-memory tile");
      tiles.insert(tile);
    }
  }
  auto isContractOperand = [](OpOperand &use) {
    return isa<vector::ContractionOp>(use.getOwner()) &&
           use.getOperandNumber() < 2;
  };
  for (memref::ViewOp tile : tiles)
    for (Operation *user : tile->getUsers()) {
      auto read = dyn_cast<vector::TransferReadOp>(user);
      if (read && llvm::all_of(read->getUses(), isContractOperand))
        continue;
      if (isa<vector::TransferWriteOp>(user))
        continue;
      return root->emitError("tensor_core: cannot view a staged bf16 tile as "
                             "f16 for the mma.sync conversion: it is used by ")
             << user->getName();
    }

  Type f16 = rewriter.getF16Type();
  for (memref::ViewOp tile : tiles) {
    rewriter.setInsertionPoint(tile);
    auto f16Tile = memref::ViewOp::create(
        rewriter, tile.getLoc(), tile.getType().clone(f16), tile.getSource(),
        tile.getByteShift(), tile.getSizes());
    for (Operation *user : llvm::to_vector(tile->getUsers())) {
      rewriter.setInsertionPoint(user);
      if (auto write = dyn_cast<vector::TransferWriteOp>(user)) {
        Value bits = vector::BitCastOp::create(
            rewriter, write.getLoc(), write.getVectorType().clone(f16),
            write.getValueToStore());
        rewriter.modifyOpInPlace(write, [&] {
          write.getValueToStoreMutable().assign(bits);
          write.getBaseMutable().assign(f16Tile);
        });
        continue;
      }
      auto read = cast<vector::TransferReadOp>(user);
      Value zero = arith::ConstantOp::create(rewriter, read.getLoc(),
                                             rewriter.getZeroAttr(f16));
      auto f16Read = cast<vector::TransferReadOp>(rewriter.clone(*read));
      f16Read.getBaseMutable().assign(f16Tile);
      f16Read.getPaddingMutable().assign(zero);
      f16Read.getResult().setType(read.getVectorType().clone(f16));
      for (OpOperand &use : llvm::make_early_inc_range(read->getUses()))
        rewriter.modifyOpInPlace(use.getOwner(), [&] { use.set(f16Read); });
      rewriter.eraseOp(read);
    }
    rewriter.eraseOp(tile);
  }
  return true;
}

/// Turns the f16 mma.sync ops under `root`, converted from bf16 tiles viewed
/// as f16, back into bf16 mma.sync ops on the same fragment bits.
static void retagBf16MmaSync(RewriterBase &rewriter, Operation *root) {
  SmallVector<nvgpu::MmaSyncOp> mmas;
  root->walk([&](nvgpu::MmaSyncOp mma) { mmas.push_back(mma); });
  Type bf16 = rewriter.getBF16Type();
  for (nvgpu::MmaSyncOp mma : mmas) {
    rewriter.setInsertionPoint(mma);
    auto asBf16 = [&](Value fragment) -> Value {
      auto type = cast<VectorType>(fragment.getType());
      return vector::BitCastOp::create(rewriter, mma.getLoc(),
                                       type.clone(bf16), fragment);
    };
    rewriter.replaceOpWithNewOp<nvgpu::MmaSyncOp>(
        mma, asBf16(mma.getMatrixA()), asBf16(mma.getMatrixB()),
        mma.getMatrixC(), mma.getMmaShape());
  }
}

/// Rewrites each index `arith.addi` of a value and a constant under `root`
/// as an `affine.apply` of the value. A pipelined staging loop computes the
/// slot of the loads it issues ahead as `iv + step`; upstream's mma.sync
/// conversion takes such an `arith.addi` for an elementwise op of its
/// fragments and fails on it ("unhandled vector to mma type"), while it
/// leaves affine index arithmetic alone. Lowering the affine maps later
/// gives the same addition.
static void rewriteIndexOffsetsAsAffine(RewriterBase &rewriter,
                                        Operation *root) {
  SmallVector<arith::AddIOp> additions;
  root->walk([&](arith::AddIOp add) {
    if (add.getType().isIndex() &&
        (getConstantIntValue(add.getLhs()) || getConstantIntValue(add.getRhs())))
      additions.push_back(add);
  });
  for (arith::AddIOp add : additions) {
    Value value = add.getLhs();
    std::optional<int64_t> offset = getConstantIntValue(add.getRhs());
    if (!offset) {
      value = add.getRhs();
      offset = getConstantIntValue(add.getLhs());
    }
    rewriter.setInsertionPoint(add);
    AffineExpr d0 = rewriter.getAffineDimExpr(0);
    rewriter.replaceOpWithNewOp<affine::AffineApplyOp>(
        add, AffineMap::get(1, 0, d0 + *offset), ValueRange{value});
  }
}

LogicalResult tessel::convertWarpContractionsToMmaSync(RewriterBase &rewriter,
                                                       Operation *root,
                                                       bool allowTf32) {
  // The init's zeros go straight into the accumulators; its stores, which
  // the final stores overwrite, disappear.
  vector::transferOpflowOpt(rewriter, root);
  MLIRContext *ctx = root->getContext();
  // Extensions first: the layout patterns transpose operands, and an
  // extension under a transpose no longer folds.
  RewritePatternSet extensions(ctx);
  vector::populateFoldArithExtensionPatterns(extensions);
  RewritePatternSet layout(ctx);
  populatePrepareVectorToMMAPatterns(layout, /*useNvGpu=*/true);
  if (failed(applyPatternsGreedily(root, std::move(extensions))))
    return root->emitError("tensor_core: folding the input extensions into "
                           "the warp contractions did not converge");
  // TF32 is a decision of the user, not of the schedule: refuse it before
  // rewriting anything else. (f16 inputs are f16 again once their
  // extensions are folded.)
  WalkResult strictF32 = root->walk([&](vector::ContractionOp contract) {
    if (allowTf32 || !getElementTypeOrSelf(contract.getLhsType()).isF32())
      return WalkResult::advance();
    root->emitError("tensor_core on f32 inputs computes in TF32 (inputs "
                    "rounded to a 10-bit mantissa); allow it explicitly "
                    "(allow-tf32)");
    return WalkResult::interrupt();
  });
  if (strictF32.wasInterrupted())
    return failure();
  rewriteIndexOffsetsAsAffine(rewriter, root);
  FailureOr<bool> bf16 = viewBf16TilesAsF16(rewriter, root);
  if (failed(bf16))
    return failure();
  if (failed(applyPatternsGreedily(root, std::move(layout))))
    return root->emitError("tensor_core: preparing the warp contractions for "
                           "mma.sync did not converge");
  if (failed(convertVectorToNVVMCompatibleMMASync(rewriter, root)))
    return root->emitError("tensor_core: converting the warp contractions to "
                           "mma.sync failed");
  // Upstream builds f32 mma.sync without saying TF32, which NVGPU's
  // lowering needs.
  root->walk([&](nvgpu::MmaSyncOp mma) {
    if (mma.getMatrixA().getType().getElementType().isF32())
      mma.setTf32Enabled(true);
  });
  if (*bf16)
    retagBf16MmaSync(rewriter, root);
  // The conversion leaves the replaced vector ops dead; sweep them.
  (void)applyPatternsGreedily(root, RewritePatternSet(ctx));
  // Reported at the kernel, which carries the location of the user's op.
  WalkResult leftover = root->walk([&](vector::ContractionOp contract) {
    root->emitError("tensor_core: a warp contraction did not become "
                    "mma.sync")
            .attachNote()
        << "the contraction: " << *contract.getOperation();
    return WalkResult::interrupt();
  });
  return failure(leftover.wasInterrupted());
}
