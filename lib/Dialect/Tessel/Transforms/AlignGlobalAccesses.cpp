//===- AlignGlobalAccesses.cpp - Alignment of kernels' global vectors -----===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Kernels stage tiles with `vector.load`s of up to 16 bytes, but the memref
// lowering gives each the alignment of its element, and LLVM splits an
// access it cannot prove aligned into element accesses: a cooperative copy
// of `vector<4xf32>` ran as four `ld.global.b32`. Whether an access is
// aligned depends on two things: the base pointer of the buffer, which the
// kernel cannot know, and the element offset, which it can. This pass
// assumes the first (every buffer a kernel takes starts at a multiple of
// `buffer-alignment` bytes: the contract, checked where the host code gets
// its buffers) and proves the second with a known-trailing-zeros analysis of
// the index arithmetic, then writes the result into each access's
// `alignment` attribute, which the LLVM lowering keeps.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/KnownAlignment.h"
#include "tessel/Dialect/Tessel/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELALIGNGLOBALACCESSES
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// Sets the alignment of a kernel's global vector accesses; returns the
/// kernel arguments whose base alignment an access relies on.
llvm::SmallDenseSet<unsigned> alignKernelAccesses(gpu::GPUFuncOp kernel,
                                                  uint64_t bufferAlignment) {
  llvm::SmallDenseSet<unsigned> relied;
  KnownTrailingZeros zeros;
  auto visit = [&](Operation *op, Value memref, ValueRange indices,
                   VectorType vector, std::optional<uint64_t> current) {
    auto type = dyn_cast<MemRefType>(memref.getType());
    if (!type || !isGlobalMemRef(type))
      return;
    auto root = dyn_cast<BlockArgument>(getViewRoot(memref));
    if (!root || root.getOwner() != &kernel.getBody().front())
      return;
    uint64_t elementBytes =
        llvm::divideCeil(type.getElementTypeBitWidth(), 8);
    uint64_t accessBytes =
        llvm::PowerOf2Ceil(vector.getNumElements() * elementBytes);
    uint64_t alignment = std::min(
        getKnownAlignment(memref, indices, bufferAlignment, zeros),
        accessBytes);
    if (alignment <= std::max(elementBytes, current.value_or(0)))
      return;
    op->setAttr("alignment",
                IntegerAttr::get(IntegerType::get(op->getContext(), 64),
                                 alignment));
    relied.insert(root.getArgNumber());
  };
  kernel.walk([&](Operation *op) {
    if (auto load = dyn_cast<vector::LoadOp>(op))
      visit(op, load.getBase(), load.getIndices(), load.getVectorType(),
            load.getAlignment());
    else if (auto store = dyn_cast<vector::StoreOp>(op))
      visit(op, store.getBase(), store.getIndices(), store.getVectorType(),
            store.getAlignment());
  });
  return relied;
}

/// Makes `buffer`, an operand of a launch whose kernel relies on its
/// alignment, meet it: an argument of the host function is checked at run
/// time (once per function and argument), an allocation or global is given
/// the alignment. Fails on a buffer of another origin.
LogicalResult requireAlignment(Value buffer, uint64_t alignment,
                               llvm::DenseSet<Value> &checked,
                               OpBuilder &builder) {
  Value root = getViewRoot(buffer);
  auto raise = [&](Operation *op) {
    auto attr = op->getAttrOfType<IntegerAttr>("alignment");
    if (attr && static_cast<uint64_t>(attr.getInt()) >= alignment)
      return;
    op->setAttr("alignment", builder.getI64IntegerAttr(alignment));
  };
  if (auto alloc = root.getDefiningOp<memref::AllocOp>())
    return raise(alloc), success();
  if (auto alloca = root.getDefiningOp<memref::AllocaOp>())
    return raise(alloca), success();
  if (root.getDefiningOp<gpu::AllocOp>())
    return success(); // cuMemAlloc: 256-byte aligned.
  if (auto get = root.getDefiningOp<memref::GetGlobalOp>()) {
    auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
        get, get.getNameAttr());
    if (!global)
      return failure();
    if (!global.getAlignment() || *global.getAlignment() < alignment)
      global.setAlignmentAttr(builder.getI64IntegerAttr(alignment));
    return success();
  }
  auto arg = dyn_cast<BlockArgument>(root);
  auto func = arg ? dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp())
                  : FunctionOpInterface();
  if (!func || arg.getOwner() != &func.getFunctionBody().front())
    return failure();
  if (!checked.insert(arg).second)
    return success();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(arg.getOwner());
  Location loc = func.getLoc();
  Value pointer =
      memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, arg);
  Value mask = arith::ConstantIndexOp::create(builder, loc, alignment - 1);
  Value low = arith::AndIOp::create(builder, loc, pointer, mask);
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value aligned = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                        low, zero);
  cf::AssertOp::create(
      builder, loc, aligned,
      (Twine("tessel: argument ") + Twine(arg.getArgNumber()) + " of @" +
       func.getName() + " must start at a multiple of " + Twine(alignment) +
       " bytes, as the vector accesses of its kernels assume (compile with "
       "buffer-alignment=0 for unaligned buffers)")
          .str());
  return success();
}

struct TesselAlignGlobalAccessesPass
    : public tessel::impl::TesselAlignGlobalAccessesBase<
          TesselAlignGlobalAccessesPass> {
  using Base::Base;

  void runOnOperation() override {
    if (bufferAlignment <= 1)
      return;
    if (!llvm::isPowerOf2_64(bufferAlignment)) {
      getOperation().emitError()
          << "tessel-align-global-accesses: buffer-alignment="
          << bufferAlignment.getValue() << " is not a power of two";
      return signalPassFailure();
    }
    ModuleOp module = getOperation();
    OpBuilder builder(module.getContext());
    module.walk([&](gpu::GPUFuncOp kernel) {
      if (!kernel.isKernel())
        return;
      for (unsigned arg : alignKernelAccesses(kernel, bufferAlignment))
        kernel.setArgAttr(arg, kBufferAlignmentAttr,
                          builder.getI64IntegerAttr(bufferAlignment));
    });

    // The launches of kernels that rely on their buffers' alignment.
    llvm::DenseSet<Value> checked;
    WalkResult result = module.walk([&](gpu::LaunchFuncOp launch) {
      auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
          launch, launch.getKernel());
      if (!kernel)
        return WalkResult::advance();
      for (auto [index, operand] :
           llvm::enumerate(launch.getKernelOperands())) {
        auto attr =
            kernel.getArgAttrOfType<IntegerAttr>(index, kBufferAlignmentAttr);
        if (!attr)
          continue;
        if (failed(requireAlignment(operand, attr.getInt(), checked,
                                    builder))) {
          launch.emitError()
              << "kernel '" << kernel.getName() << "' relies on argument "
              << index << " starting at a multiple of " << attr.getInt()
              << " bytes, which its launch cannot guarantee; compile with "
                 "buffer-alignment=0";
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
