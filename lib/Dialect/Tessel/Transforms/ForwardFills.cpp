//===- ForwardFills.cpp - Accumulators initialised in registers -----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A register-accumulating kernel with a fused fill starts by storing the
// fill's constant into its output tile in global memory, waits at a barrier
// and loads the tile back into its accumulators (16 stores, a barrier and 16
// loads per thread in the fastest measured matmul). The fill follows the
// op's per-thread layout, so each thread reads back exactly what it stored:
// this pass forwards the constant into the loads, and drops the stores when
// nothing reads them any more and the thread's final stores overwrite every
// element they wrote.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/Matchers.h"

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELFORWARDFILLS
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;

namespace {

/// `a - b` when it is a constant known from the index arithmetic: equal
/// values, or `affine.apply`s of the same operands whose maps differ by a
/// constant.
std::optional<int64_t> getConstantDifference(Value a, Value b) {
  if (a == b)
    return 0;
  APInt ca, cb;
  if (matchPattern(a, m_ConstantInt(&ca)) && matchPattern(b, m_ConstantInt(&cb)))
    return (ca - cb).getSExtValue();
  auto applyA = a.getDefiningOp<affine::AffineApplyOp>();
  auto applyB = b.getDefiningOp<affine::AffineApplyOp>();
  if (!applyA || !applyB || applyA.getOperands() != applyB.getOperands())
    return std::nullopt;
  AffineMap mapA = applyA.getAffineMap(), mapB = applyB.getAffineMap();
  if (mapA.getNumDims() != mapB.getNumDims() ||
      mapA.getNumSymbols() != mapB.getNumSymbols())
    return std::nullopt;
  AffineExpr difference = simplifyAffineExpr(
      mapA.getResult(0) - mapB.getResult(0), mapA.getNumDims(),
      mapA.getNumSymbols());
  if (auto constant = dyn_cast<AffineConstantExpr>(difference))
    return constant.getValue();
  return std::nullopt;
}

/// The scalar every element of `value` holds, when it is a constant splat.
Attribute getSplatConstant(Value value) {
  DenseElementsAttr dense;
  if (matchPattern(value, m_Constant(&dense)) && dense.isSplat())
    return dense.getSplatValue<Attribute>();
  return {};
}

/// Whether `inner` (`innerLength` elements at `innerIndices`) lies within
/// `outer` (`outerLength` at `outerIndices`) of a row-major buffer: equal
/// leading indices, the innermost offset within the outer run.
bool isWithin(ValueRange inner, int64_t innerLength, ValueRange outer,
              int64_t outerLength) {
  if (inner.size() != outer.size() || inner.empty())
    return false;
  for (auto [a, b] : llvm::zip(inner.drop_back(), outer.drop_back())) {
    std::optional<int64_t> d = getConstantDifference(a, b);
    if (!d || *d != 0)
      return false;
  }
  std::optional<int64_t> offset =
      getConstantDifference(inner.back(), outer.back());
  return offset && *offset >= 0 && *offset + innerLength <= outerLength;
}

/// Whether `op` (or an op nested in it) reads or writes `buffer` other than
/// through the top-level vector accesses this pass follows.
bool touchesNested(Operation *op, Value buffer) {
  WalkResult result = op->walk([&](Operation *nested) {
    if (nested == op)
      return WalkResult::advance();
    for (Value operand : nested->getOperands())
      if (operand == buffer)
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

struct FillStore {
  vector::StoreOp op;
  Attribute value;
};

/// Forwards the fills of `buffer` in the top-level block of `launch`.
void forwardFills(gpu::LaunchOp launch, Value buffer) {
  Block &body = launch.getBody().front();
  SmallVector<FillStore> fills;
  SmallVector<std::pair<vector::LoadOp, Attribute>> forwarded;
  Operation *end = nullptr;
  // Fill stores and the loads they answer, up to the first other access.
  for (Operation &op : body) {
    if (auto store = dyn_cast<vector::StoreOp>(op);
        store && store.getBase() == buffer) {
      Attribute value = getSplatConstant(store.getValueToStore());
      if (!value) {
        end = &op;
        break;
      }
      // One fill, one constant: a second one would need ordering.
      if (!fills.empty() && fills.front().value != value)
        return;
      fills.push_back({store, value});
      continue;
    }
    if (auto load = dyn_cast<vector::LoadOp>(op);
        load && load.getBase() == buffer) {
      int64_t length = load.getVectorType().getNumElements();
      FillStore *source = nullptr;
      for (FillStore &fill : fills)
        if (isWithin(load.getIndices(), length, fill.op.getIndices(),
                     fill.op.getVectorType().getNumElements()))
          source = &fill;
      if (!source || load.getVectorType().getRank() != 1) {
        end = &op;
        break;
      }
      forwarded.push_back({load, source->value});
      continue;
    }
    if (op.getNumRegions() > 0 && touchesNested(&op, buffer)) {
      end = &op;
      break;
    }
    if (llvm::is_contained(op.getOperands(), buffer) &&
        !isa<gpu::BarrierOp>(op)) {
      end = &op;
      break;
    }
  }
  if (fills.empty() || forwarded.empty())
    return;

  OpBuilder builder(launch.getContext());
  for (auto [load, value] : forwarded) {
    builder.setInsertionPoint(load);
    Value constant = arith::ConstantOp::create(
        builder, load.getLoc(),
        DenseElementsAttr::get(load.getVectorType(), value));
    load.replaceAllUsesWith(constant);
    load.erase();
  }

  // The stores stay unless nothing reads the buffer in the launch any more
  // and the thread's own top-level stores after them overwrite every
  // element they wrote (the results of the accumulators).
  bool read = false;
  launch.walk([&](Operation *op) {
    if (auto store = dyn_cast<vector::StoreOp>(op);
        store && store.getBase() == buffer &&
        store.getValueToStore() != buffer)
      return;
    if (llvm::is_contained(op->getOperands(), buffer) &&
        !isa<gpu::BarrierOp>(op))
      read = true;
  });
  if (read || !end)
    return;
  SmallVector<vector::StoreOp> finals;
  for (Operation *op = end; op; op = op->getNextNode())
    if (auto store = dyn_cast<vector::StoreOp>(op);
        store && store.getBase() == buffer)
      finals.push_back(store);
  for (FillStore fill : fills) {
    int64_t length = fill.op.getVectorType().getNumElements();
    ValueRange fillIndices = fill.op.getIndices();
    SmallVector<bool> covered(length, false);
    for (vector::StoreOp store : finals) {
      // The store covers elements [offset, offset + its length) of the fill
      // when it writes the same leading indices.
      ValueRange storeIndices = store.getIndices();
      if (fillIndices.size() != storeIndices.size() ||
          !llvm::all_of(llvm::zip(fillIndices.drop_back(),
                                  storeIndices.drop_back()),
                        [](auto pair) {
                          return getConstantDifference(std::get<0>(pair),
                                                       std::get<1>(pair)) ==
                                 std::optional<int64_t>(0);
                        }))
        continue;
      std::optional<int64_t> offset =
          getConstantDifference(storeIndices.back(), fillIndices.back());
      if (!offset)
        continue;
      int64_t storeLength = store.getVectorType().getNumElements();
      for (int64_t i = std::max<int64_t>(0, *offset);
           i < std::min(length, *offset + storeLength); ++i)
        covered[i] = true;
    }
    if (!llvm::all_of(covered, [](bool c) { return c; }))
      return;
  }
  for (FillStore fill : fills)
    fill.op.erase();
}

struct TesselForwardFillsPass
    : public tessel::impl::TesselForwardFillsBase<TesselForwardFillsPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([](gpu::LaunchOp launch) {
      llvm::SetVector<Value> buffers;
      for (Operation &op : launch.getBody().front())
        if (auto store = dyn_cast<vector::StoreOp>(op))
          if (auto type = dyn_cast<MemRefType>(store.getBase().getType());
              type && !type.getMemorySpace() &&
              getSplatConstant(store.getValueToStore()))
            buffers.insert(store.getBase());
      for (Value buffer : buffers)
        forwardFills(launch, buffer);
    });
  }
};

} // namespace
